/**
 * The `perf-gate` command: picks the subcommand and maps errors to exit
 * statuses (2 for unusable input, with one clear "file:line: message"), nothing
 * more. Each subcommand lives in cli/<name>.ts, except `perf-gate action`, the
 * GitHub Action's face, in action/command.ts.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { InputError } from './model/index.js';
import { EXIT, UsageError, type CliContext, type Command } from './pipeline/index.js';
import { compareCommand } from './cli/compare.js';
import { convertCommand } from './cli/convert.js';
import { timeCommand } from './cli/time.js';
import { countCommand } from './cli/count.js';
import { preflightCommand } from './cli/preflight.js';
import { mergeCommand } from './cli/merge.js';
import { runCommand } from './cli/run.js';
import { historyCommand } from './cli/history.js';
import { reportCommand } from './cli/report.js';
import { dashboardCommand } from './cli/dashboard.js';
import { bisectCommand } from './cli/bisect.js';
import { actionCommand } from './action/command.js';

/** Every subcommand, by name. A new command is one file and one line here. */
export const COMMANDS: Record<string, Command> = {
  [compareCommand.name]: compareCommand,
  [convertCommand.name]: convertCommand,
  [timeCommand.name]: timeCommand,
  [countCommand.name]: countCommand,
  [preflightCommand.name]: preflightCommand,
  [mergeCommand.name]: mergeCommand,
  [runCommand.name]: runCommand,
  [historyCommand.name]: historyCommand,
  [reportCommand.name]: reportCommand,
  [dashboardCommand.name]: dashboardCommand,
  [bisectCommand.name]: bisectCommand,
  [actionCommand.name]: actionCommand,
};

function help(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const lines = Object.values(COMMANDS).map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `perf-gate: a performance gate for benchmarks\n\nUsage: perf-gate <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun "perf-gate <command> --help" for a command's options.\nExit status: 0 the gate passes, 1 the gate fails, 2 the input is unusable.\n`;
}

/** Runs the CLI and returns its exit status; never calls process.exit itself. */
export async function main(argv: string[], ctx: CliContext): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    ctx.stdout(help());
    return name === undefined ? EXIT.unusable : EXIT.pass;
  }
  if (name === '--version') {
    ctx.stdout(`${PERF_GATE_VERSION}\n`);
    return EXIT.pass;
  }
  const command = COMMANDS[name];
  if (!command) {
    ctx.stderr(`perf-gate: unknown command "${name}"\n\n${help()}`);
    return EXIT.unusable;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    ctx.stdout(`${command.usage}\n`);
    return EXIT.pass;
  }
  try {
    return await command.run(rest, ctx);
  } catch (error) {
    if (error instanceof InputError) {
      ctx.stderr(`perf-gate: error: ${error.message}\n`);
      return EXIT.unusable;
    }
    if (error instanceof UsageError) {
      ctx.stderr(`perf-gate ${name}: ${error.message}\n\n${command.usage}\n`);
      return EXIT.unusable;
    }
    throw error;
  }
}

/** The version printed by --version; the build may replace it. */
export const PERF_GATE_VERSION = '0.1.0';

function isEntryPoint(): boolean {
  const arg = process.argv[1];
  if (!arg) return false;
  try {
    return realpathSync(arg) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  const ctx: CliContext = {
    cwd: process.cwd(),
    env: process.env,
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    now: () => new Date(),
  };
  main(process.argv.slice(2), ctx).then(
    (status) => {
      process.exitCode = status;
    },
    (error: unknown) => {
      process.stderr.write(`perf-gate: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = EXIT.unusable;
    },
  );
}
