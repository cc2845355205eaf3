import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DATA_SCHEMA, type DataFile } from './data-file.js';
import { collect, FULL_PLAN, QUICK_PLAN, writeData } from './collect.js';
import { analyse, renderMarkdown } from './analyse.js';
import { measureBuildSeconds, twoStageMarkdown } from '../two-stage/report.js';
import { flipsBench } from './flips.js';

/**
 * `npm run bench:detect [-- collect|analyse] [--quick] [--data FILE] [--markdown FILE]`
 *   collect   times the trials and writes the data file (full: ~15–18 min; --quick: ~1 min)
 *   analyse   applies every rule to a data file and prints the Markdown tables
 *   two-stage replays the data file through the three designs of a pull
 *             request's verdict (stored baseline, two stages, interleaved);
 *             see bench/two-stage/analyse.ts
 *   flips     benchmarks that flip between two values: a real flipping
 *             program, plain and interleaved, decided as one distribution
 *             and level by level ([--trials N], default 20; ~2 min)
 *   (none)    collect, then analyse
 * Defaults: data file bench/detect/data/detect-full.json (quick: detect-quick.json).
 */
const USAGE = 'usage: npm run bench:detect -- [collect|analyse|two-stage|flips] [--quick] [--trials N] [--data FILE] [--markdown FILE]';

interface Args {
  command: 'collect' | 'analyse' | 'two-stage' | 'flips' | 'all';
  quick: boolean;
  trials: number;
  data: string | null;
  markdown: string | null;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { command: 'all', quick: false, trials: 20, data: null, markdown: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === 'collect' || a === 'analyse' || a === 'analyze') args.command = a === 'collect' ? 'collect' : 'analyse';
    else if (a === 'two-stage') args.command = 'two-stage';
    else if (a === 'flips') args.command = 'flips';
    else if (a === '--trials') args.trials = Number(argv[++i]);
    else if (a === '--quick') args.quick = true;
    else if (a === '--data' || a === '--markdown') {
      const v = argv[++i];
      if (!v) throw new Error(`${a} needs a file name\n${USAGE}`);
      if (a === '--data') args.data = v;
      else args.markdown = v;
    } else throw new Error(`unknown argument ${a}\n${USAGE}`);
  }
  return args;
}

function readData(path: string): DataFile {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<DataFile>;
  if (parsed.schema !== DATA_SCHEMA || !Array.isArray(parsed.trials)) throw new Error(`${path}: expected a ${DATA_SCHEMA} file with a "trials" array`);
  return parsed as DataFile;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const root = new URL('./data/', import.meta.url).pathname;
  const dataPath = args.data ?? `${root}detect-${args.quick ? 'quick' : 'full'}.json`;
  if (args.command === 'flips') {
    process.stdout.write(flipsBench(args.trials));
    return;
  }
  if (args.command === 'two-stage') {
    const t0 = Date.now();
    const buildSeconds = measureBuildSeconds(new URL('./work.c', import.meta.url).pathname);
    const md = twoStageMarkdown(readData(dataPath), buildSeconds);
    console.error(`[two-stage] one build ${buildSeconds.toFixed(3)} s; ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    if (args.markdown) writeFileSync(args.markdown, md);
    process.stdout.write(md);
    return;
  }
  if (args.command !== 'analyse') {
    const plan = args.quick ? QUICK_PLAN : FULL_PLAN;
    const data = await collect(plan, (line) => console.error(`[collect] ${line}`));
    mkdirSync(dirname(dataPath), { recursive: true });
    writeData(dataPath, data);
    console.error(`[collect] wrote ${dataPath} (${data.trials.length} trials, ${Math.round(data.durationSeconds)} s)`);
  }
  if (args.command !== 'collect') {
    const t0 = Date.now();
    const md = renderMarkdown(analyse(readData(dataPath)));
    console.error(`[analyse] ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    if (args.markdown) writeFileSync(args.markdown, md);
    process.stdout.write(md);
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
