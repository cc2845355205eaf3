import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EMPTY_BUDGETS } from '../../src/model/index.js';
import { newResultSet, type ResultSet } from '../../src/model/index.js';
import { gate } from '../../src/pipeline/gate.js';
import { checkRunTitle, writeRunFiles } from '../../src/pipeline/index.js';
import { checkRunAnnotations } from '../../src/action/check-run-annotations.js';
import { renderJson } from '../../src/report/index.js';
import { outcomeOf, verdictText } from '../../src/report/table.js';
import { serializeResultSet } from '../../src/store/index.js';
import { tempDir } from '../support/temp.js';

const dir = tempDir();
const run = (center: number): ResultSet =>
  newResultSet('2026-11-21T12:00:00Z', [
    { id: 'a', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: Array.from({ length: 12 }, (_, i) => center * (1 + 0.001 * i)) } } },
    { id: 'b', status: 'failed', error: { message: 'exit 3', exitCode: 3 }, metrics: {} },
  ]);

test("the check run's title is the reports' own verdict line", () => {
  const report = gate({ baseline: run(1), current: run(1.5), budgets: EMPTY_BUDGETS, baselineInput: '--baseline' });
  assert.equal(checkRunTitle(report), `Fail: ${verdictText(report, outcomeOf(report))}`);
});

test("a run's files: the JSON report, the full Markdown and results.json, serialised like a stored baseline", () => {
  const current = run(1);
  const report = gate({ baseline: run(1), current, budgets: EMPTY_BUDGETS, baselineInput: '--baseline' });
  const files = writeRunFiles(report, current, join(dir, 'out'), 'perf-gate');
  assert.equal(readFileSync(files.reportJson, 'utf8'), renderJson(report));
  assert.equal(readFileSync(files.results, 'utf8'), serializeResultSet(current));
  assert.match(readFileSync(files.reportMarkdown, 'utf8'), /perf-gate/);
});

test('annotations without a file of the repository are anchored to perf-gate.yml, failures first', () => {
  const report = gate({ baseline: run(1), current: run(1.5), budgets: EMPTY_BUDGETS, baselineInput: '--baseline' });
  const annotations = checkRunAnnotations(report, { workspace: '/repo', workingDirectory: '/repo/perf', config: '/repo/perf/perf-gate.yml' });
  assert.ok(annotations.length > 0);
  assert.ok(annotations.every((a) => a.path === 'perf/perf-gate.yml' && a.start_line === 1));
  assert.equal(annotations[0]!.annotation_level, 'failure');
});
