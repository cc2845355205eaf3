/**
 * `npm run bench:drift [-- collect|analyse] [--quick] [--data FILE]`
 *   collect   records a run history of the detection workload on this machine (full: ~4 min)
 *   analyse   replays it, and the detection benchmark's committed data
 *             (bench/detect/data/detect-full.json), through the gate with
 *             each way of setting the drift; prints Markdown
 *   (none)    collect, then analyse
 * Default data file: bench/drift/data/history-full.json (quick: history-quick.json).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { collectHistory, FULL_HISTORY_PLAN, HISTORY_SCHEMA, QUICK_HISTORY_PLAN, type HistoryData } from './collect.js';
import { analyseReplay, renderReplayMarkdown, replayOfDetectData, replayOfHistory } from './analyse.js';
import type { DataFile } from '../detect/data-file.js';

const USAGE = 'usage: npm run bench:drift -- [collect|analyse] [--quick] [--data FILE]';

export function readHistoryData(path: string): HistoryData {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<HistoryData>;
  if (parsed.schema !== HISTORY_SCHEMA || !Array.isArray(parsed.slots)) throw new Error(`${path}: expected a ${HISTORY_SCHEMA} file with a "slots" array`);
  return parsed as HistoryData;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  let command: 'collect' | 'analyse' | 'all' = 'all';
  let quick = false;
  let data: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === 'collect' || a === 'analyse') command = a;
    else if (a === '--quick') quick = true;
    else if (a === '--data' && argv[i + 1]) data = argv[++i]!;
    else throw new Error(`unknown argument ${a}\n${USAGE}`);
  }
  const path = data ?? new URL(`./data/history-${quick ? 'quick' : 'full'}.json`, import.meta.url).pathname;
  if (command !== 'analyse') {
    const recorded = await collectHistory(quick ? QUICK_HISTORY_PLAN : FULL_HISTORY_PLAN, (line) => console.error(`[collect] ${line}`));
    mkdirSync(dirname(path), { recursive: true });
    const { slots, ...head } = recorded;
    // One slot per line: diffable and still compact.
    writeFileSync(
      path,
      `${JSON.stringify(head, null, 2).replace(/\n}$/, '')},\n  "slots": [\n${slots.map((s) => '    ' + JSON.stringify(s)).join(',\n')}\n  ]\n}\n`,
    );
    console.error(`[collect] wrote ${path} (${slots.length} slots, ${Math.round(recorded.durationSeconds)} s)`);
  }
  if (command !== 'collect') {
    const recorded = readHistoryData(path);
    const detect = JSON.parse(readFileSync(new URL('../detect/data/detect-full.json', import.meta.url), 'utf8')) as DataFile;
    const replays = [replayOfDetectData(detect, 'quiet', 10), replayOfDetectData(detect, 'busy', 10), replayOfHistory(recorded)];
    process.stdout.write(replays.map((r) => renderReplayMarkdown(r, analyseReplay(r))).join('\n\n') + '\n');
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
