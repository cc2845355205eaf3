import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { escapeCommandData, escapeCommandProperty, parseSource, toAnnotations, workflowCommands } from '../../src/report/annotations.js';
import { hostileReport, mixedReport, passingReport } from './handwritten-reports.js';

describe('toAnnotations', () => {
  const annotations = toAnnotations(mixedReport());

  test('failed benchmarks and gate-failing regressions are failures', () => {
    const failed = annotations.find((a) => a.title === 'sim/tick[nodes=64] failed')!;
    assert.equal(failed.level, 'failure');
    assert.match(failed.message, /^exit code 137 \(killed by SIGKILL\)\n.*Killed$/s);
    const regressed = annotations.find((a) => a.title.startsWith('scan/prtip -p 1-1000 127.0.0.1 · time regressed'))!;
    assert.equal(regressed.level, 'failure');
    assert.match(regressed.message, /4\.46 ms ± 0\.39 → 5\.85 ms ± 0\.41 \(\+31\.2 % \[\+27\.0, \+35\.5\], p < 0\.001\); tolerance 5 %/);
  });

  test('warn-severity regressions and budgets are warnings; budgets point at their file and line', () => {
    assert.equal(annotations.find((a) => a.title.includes('regressed (warn)'))!.level, 'warning');
    const budget = annotations.find((a) => a.title.endsWith('exceeds its budget'))!;
    assert.deepEqual({ level: budget.level, file: budget.file, line: budget.line }, { level: 'warning', file: 'budgets/scan.yml', line: 9 });
    assert.match(budget.message, /mean 20\.60 MB breaks the budget ≤ 20 MB/);
  });

  test('inconclusive, missing and noisier rows are notices; unchanged and improved rows are silent', () => {
    const notices = annotations.filter((a) => a.level === 'notice').map((a) => a.title);
    assert.ok(notices.includes('http/wrk GET /index.html · latency_p99 inconclusive'));
    assert.ok(notices.includes('http/wrk GET /index.html · latency_p99 noisier'));
    assert.ok(notices.includes('scan/prtip --legacy missing'));
    assert.deepEqual(toAnnotations(passingReport()), []);
  });

  test('gate warnings become warnings', () => {
    assert.ok(annotations.some((a) => a.level === 'warning' && a.title === 'perf-gate: unused-budget'));
  });

  test('titles hold no line breaks or controls and stay within 255 characters', () => {
    for (const a of toAnnotations(hostileReport())) {
      assert.ok(a.title.length <= 255);
      assert.doesNotMatch(a.title, /[\n\r\u001b\u202E]/);
    }
  });
});

describe('parseSource', () => {
  test('splits file and line', () => {
    assert.deepEqual(parseSource('budgets/x.yml:7'), { file: 'budgets/x.yml', line: 7 });
    assert.deepEqual(parseSource('budgets/x.yml:7:3'), { file: 'budgets/x.yml', line: 7 });
    assert.deepEqual(parseSource('budgets/x.yml'), { file: 'budgets/x.yml' });
  });
});

describe('workflowCommands', () => {
  test('follows the toolkit escaping rules', () => {
    assert.equal(escapeCommandData('100% done\r\nnext'), '100%25 done%0D%0Anext');
    assert.equal(escapeCommandProperty('a:b,c%'), 'a%3Ab%2Cc%25');
    assert.equal(
      workflowCommands([{ level: 'failure', title: 'x: y, z', message: 'line 1\nline 2', file: 'budgets/a,b.yml', line: 7 }]),
      '::error file=budgets/a%2Cb.yml,line=7,title=x%3A y%2C z::line 1%0Aline 2\n',
    );
  });

  test('hostile names cannot start a second command', () => {
    const annotations = toAnnotations(hostileReport());
    const out = workflowCommands(annotations);
    const lines = out.trimEnd().split('\n');
    assert.equal(lines.length, annotations.length);
    for (const line of lines) assert.match(line, /^::(error|warning|notice) [^:]*::/);
  });
});
