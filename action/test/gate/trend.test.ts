import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EMPTY_BUDGETS, type ResultSet } from '../../src/model/index.js';
import { gate } from '../../src/pipeline/gate.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { sparkline } from '../../src/report/sparkline.js';
import { levelsOf } from '../../src/gate/trend.js';

/** A run with two benchmarks: 30 samples around each level (ms), ±1 %. */
function run(parse: number, stable: number): ResultSet {
  const samples = (level: number): number[] => Array.from({ length: 30 }, (_, i) => level * 1e-3 * (1 + 0.01 * Math.sin(i * 1.3)));
  return {
    schema: 'perf-gate/results@1',
    created: '2026-11-20T00:00:00Z',
    testbed: { id: 'vm' },
    benchmarks: [
      { id: 'parse', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: samples(parse) } } },
      { id: 'stable', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: samples(stable) } } },
    ],
  };
}

describe('sparkline', () => {
  test('scales from the lowest bar to the highest, and draws a flat series mid-height', () => {
    assert.equal(sparkline([1, 2, 3, 4, 5, 6, 7, 8]), '▁▂▃▄▅▆▇█');
    assert.equal(sparkline([5, 5, 5]), '▄▄▄');
    assert.equal(sparkline([10], 0, 10), '█');
  });
});

describe('the trend of a regressed row on main', () => {
  const history = [10, 10.1, 9.9, 10, 10.05, 9.95, 10, 10.1].map((level) => run(level, 20));

  test('a row regressed against the history carries its last runs, oldest first; other rows carry none', () => {
    const report = gate({ baseline: history.at(-1)!, current: run(12, 20), budgets: EMPTY_BUDGETS, baselineInput: 'the stored baseline', driftRuns: history });
    const parse = report.rows.find((r) => r.benchmark === 'parse')!;
    assert.equal(parse.status, 'regressed');
    assert.equal(parse.trend?.length, 8);
    assert.deepEqual(parse.trend, levelsOf(history, 'parse', 'time'));
    assert.ok(Math.abs(parse.trend![1]! - 0.0101) < 1e-4, 'the median of the second run');
    assert.equal(report.rows.find((r) => r.benchmark === 'stable')!.trend, undefined);
  });

  test('the comment draws it: main flat, this run at the top', () => {
    const report = gate({ baseline: history.at(-1)!, current: run(12, 20), budgets: EMPTY_BUDGETS, baselineInput: 'the stored baseline', driftRuns: history });
    const text = renderMarkdown(report);
    const line = /^- \*\*parse\*\* time: `([▁-█]{8})` → `([▁-█])` main (.+) over 8 runs, this run (.+)$/m.exec(text);
    assert.ok(line, text);
    assert.equal(line[2], '█', 'this run is the highest');
    assert.ok(
      [...line[1]!].every((bar) => bar <= '▂'),
      `main's runs sit at the bottom of the scale: ${line[1]}`,
    );
    assert.match(text, /\*\*Trend on main\*\*/);
  });

  test('without the history (a baseline file), no trend is drawn', () => {
    const report = gate({ baseline: history.at(-1)!, current: run(12, 20), budgets: EMPTY_BUDGETS, baselineInput: 'the stored baseline' });
    assert.equal(report.rows.find((r) => r.benchmark === 'parse')!.status, 'regressed');
    assert.doesNotMatch(renderMarkdown(report), /Trend on main/);
  });
});
