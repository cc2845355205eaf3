import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { runCli } from '../support/cli.js';
import { ROOT, runHarness } from '../support/compiled-harnesses.js';
import { readReport, rowOf } from '../support/json-report.js';
import { configBody, readmePerfGateCommands } from '../support/example-readme.js';
import { tempDir } from '../support/temp.js';
import { requireFile, requireTool } from '../support/tools.js';

/** A copy of examples/NAME under a fresh root, so the build and outputs never land in the repository. */
function copyExample(name: string): string {
  const root = tempDir(`perf-gate-example-${name}-`);
  cpSync(join(ROOT, 'examples', name), join(root, 'examples', name), { recursive: true });
  return root;
}

/** The README's fenced blocks of one language. */
function blocks(readme: string, lang: string): string[] {
  return [...readme.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);
}

describe('examples/catch2 runs as its README says', () => {
  requireTool('g++');
  requireFile('/usr/include/catch2/catch.hpp', 'Catch2 (Debian package catch2)');
  const readme = readFileSync(join(ROOT, 'examples/catch2/README.md'), 'utf8');

  test('the README shows perf-gate.yml as it is, and its run and compare commands gate the real program', async () => {
    assert.equal(blocks(readme, 'yaml')[0], configBody(join(ROOT, 'examples/catch2/perf-gate.yml')));
    const root = copyExample('catch2');
    const [runArgs, compareArgs] = readmePerfGateCommands(readme);
    assert.deepEqual(runArgs, ['run', '--config', 'examples/catch2/perf-gate.yml']);
    const json = join(root, 'report.json');
    const run = await runCli([...runArgs!, '--out', join(root, 'out'), '--json', json], root, { ...process.env });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    const report = readReport(json);
    assert.equal(report.verdict, 'pass');
    const append = rowOf(report.rows, 'join/append 100 words', 'time');
    assert.equal(append.unit, 's');
    assert.equal(append.direction, 'lower');
    assert.equal(append.current!.n, 30);
    assert.ok(append.current!.value > 1e-8 && append.current!.value < 1e-4, `joining 100 words: ${append.current!.value} s`);
    assert.ok(append.budget, 'the budget applies');
    assert.equal(rowOf(report.rows, 'join/ostringstream 100 words', 'time').current!.n, 30);

    // The README's second way: run the program by hand (the suite's build left it there), then compare.
    runHarness('./bench', ['-r', 'xml', '-o', 'bench.xml'], { cwd: join(root, 'examples/catch2') });
    assert.equal(compareArgs![0], 'compare');
    const compare = await runCli([...compareArgs!, '--json', join(root, 'compare.json')], root, { ...process.env });
    assert.equal(compare.status, 0, compare.stdout + compare.stderr);
    const compared = readReport(join(root, 'compare.json'));
    assert.equal(rowOf(compared.rows, 'append 100 words', 'time').current!.n, 100, 'Catch2 takes 100 samples by default');
    assert.ok(rowOf(compared.rows, 'append 100 words', 'time').budget);
  });
});

describe('examples/migrate-github-action-benchmark runs as its README says', () => {
  requireTool('node');
  const dir = join(ROOT, 'examples/migrate-github-action-benchmark');
  const readme = readFileSync(join(dir, 'README.md'), 'utf8');

  test('the README shows the sample output, the old step and perf-gate.yml as they are', () => {
    assert.deepEqual(JSON.parse(blocks(readme, 'json')[0]!), JSON.parse(readFileSync(join(dir, 'sample-output.json'), 'utf8')));
    const [before, after] = blocks(readme, 'yaml');
    const step = (parseYaml(before!) as { uses?: string; with?: Record<string, string> }[]).find((s) => s.uses?.startsWith('benchmark-action/github-action-benchmark'));
    assert.equal(step?.with?.tool, 'customSmallerIsBetter');
    assert.equal(step?.with?.['output-file-path'], 'output.json');
    assert.equal(after, configBody(join(dir, 'perf-gate.yml')));
  });

  test('the suite runs the script and reads its custom JSON: ms → s, bytes → B, smaller is better', async () => {
    const root = copyExample('migrate-github-action-benchmark');
    const [runArgs] = readmePerfGateCommands(readme);
    const json = join(root, 'report.json');
    const run = await runCli([...runArgs!, '--out', join(root, 'out'), '--json', json], root, { ...process.env });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    const report = readReport(json);
    assert.equal(report.verdict, 'pass');
    const parse = rowOf(report.rows, 'json/JSON.parse 2000 records', 'time');
    assert.equal(parse.unit, 's');
    assert.equal(parse.direction, 'lower');
    assert.ok(parse.current!.value > 1e-6 && parse.current!.value < 0.2, `${parse.current!.value} s`);
    const size = rowOf(report.rows, 'json/serialized size', 'bytes');
    assert.equal(size.unit, 'B');
    assert.equal(size.current!.value, (JSON.parse(readFileSync(join(dir, 'sample-output.json'), 'utf8')) as { value: number }[])[2]!.value);
    assert.ok(size.budget);
  });

  test('the README\'s compare command reads the sample with --format custom-smaller; without it the file is refused, saying why', async () => {
    const root = copyExample('migrate-github-action-benchmark');
    const compareArgs = readmePerfGateCommands(readme)[1]!;
    assert.deepEqual(compareArgs.slice(0, 5), ['compare', '--current', 'examples/migrate-github-action-benchmark/sample-output.json', '--format', 'custom-smaller']);
    const ok = await runCli([...compareArgs, '--json', join(root, 'c.json')], root, {});
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    const rows = readReport(join(root, 'c.json')).rows;
    assert.ok(Math.abs(rowOf(rows, 'JSON.stringify 2000 records', 'time').current!.value - 0.5578279999999722e-3) < 1e-15);
    const refused = await runCli(compareArgs.filter((a, i) => a !== '--format' && compareArgs[i - 1] !== '--format'), root, {});
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /github-action-benchmark custom JSON: its direction is not in the file; give --format custom-smaller or custom-bigger/);
  });
});
