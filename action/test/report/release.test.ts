import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { renderRelease } from '../../src/report/release.js';
import { passingReport, releaseReport } from './handwritten-reports.js';

describe('renderRelease', () => {
  test('a failing release is no-go and says what to do', () => {
    const md = renderRelease(releaseReport(), { version: 'v1.5.0' });
    assert.match(md, /^## 🚫 release v1\.5\.0: no-go\n\n\*\*1 regression, 1 budget exceeded, 2 unchanged\.\*\* Do not release/);
  });

  test('a passing release is go', () => {
    assert.match(renderRelease(passingReport()), /^## ✅ release: go\n\n\*\*no regressions: 1 improved, 2 unchanged\.\*\* Nothing blocks this release\./);
  });

  test('lists variance changes of noisier rows: stddev baseline → current', () => {
    const md = renderRelease(releaseReport());
    assert.match(
      md,
      /### Variance changes\n\n\| Benchmark \| Metric \| Stddev baseline \| Stddev current \| Verdict \|\n.*\n\| scan\/prtip -p 1-10000 127\.0\.0\.1 \| time \| 3\.10 ms \| 29\.70 ms \(×9\.6\) \|/,
    );
    assert.match(renderRelease(passingReport()), /No benchmark became noisier than in the baseline\./);
  });

  test('validates every budget, with the baseline result and the source', () => {
    const md = renderRelease(releaseReport());
    assert.match(md, /\| scan\/prtip -p 1-10000 127\.0\.0\.1 \| memory&#95;peak \| ≤ 20 MB \| mean 21\.30 MB \| ❌ fail \| ✅ pass \| budgets\/scan\.yml:8 \|/);
    const section = md.slice(md.indexOf('### Budget validation'), md.indexOf('### Recommendations'));
    assert.equal(section.split('\n').filter((l) => /budgets\/scan\.yml:\d \|$/.test(l)).length, 3);
  });

  test('shows every benchmark unfolded', () => {
    const md = renderRelease(releaseReport());
    assert.ok(!md.includes('<details>'));
    assert.ok(md.includes('| scan/prtip -p 1-1000 127.0.0.1 | time | 4.46 ms ± 0.39 | 4.49 ms ± 0.41 |'));
  });
});
