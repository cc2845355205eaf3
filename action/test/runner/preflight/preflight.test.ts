import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPreflight, systemFiles, type SystemFiles } from '../../../src/runner/preflight/index.js';
import { preflightAnnotations, preflightText } from '../../../src/runner/preflight/render.js';
import { bareMetal, tunedBareMetal, without, writeTree, type Tree } from './fake-root.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

function root(tree: Tree): string {
  const { root, cleanup } = writeTree(tree);
  cleanups.push(cleanup);
  return root;
}

const statusOf = (report: ReturnType<typeof runPreflight>, check: string): string | undefined => report.findings.find((f) => f.check === check)?.status;

describe('runPreflight on fake bare-metal trees', () => {
  test('an untuned desktop fails strict, naming governor, turbo and swap, each with a fix', () => {
    const tree = bareMetal({ '/proc/meminfo': 'MemTotal: 32657412 kB\nSwapTotal: 2097148 kB\nSwapFree: 2000000 kB\n' });
    const report = runPreflight({ files: systemFiles(root(tree)), level: 'strict', probe: false });
    assert.equal(report.fails, true);
    const warned = report.findings
      .filter((f) => f.status === 'warn')
      .map((f) => f.check)
      .sort();
    assert.deepEqual(warned, ['governor', 'swap', 'turbo']);
    for (const f of report.findings.filter((x) => x.status === 'warn' || x.status === 'advice')) assert.ok(f.fix, `${f.check} has a fix`);
    assert.equal(statusOf(report, 'smt'), 'advice');
    assert.equal(statusOf(report, 'isolation'), 'advice');
    assert.equal(report.counts.warn, 3);
  });
  test('the same machine at level warn reports the same findings but does not fail', () => {
    const report = runPreflight({ files: systemFiles(root(bareMetal())), level: 'warn', probe: false });
    assert.equal(report.fails, false);
    assert.ok(report.counts.warn >= 2);
  });
  test('a tuned machine with isolated CPUs passes strict', () => {
    const report = runPreflight({ files: systemFiles(root(tunedBareMetal())), level: 'strict', probe: false });
    assert.equal(report.fails, false, preflightText(report));
    assert.equal(report.counts.warn, 0);
    assert.equal(statusOf(report, 'governor'), 'ok');
    assert.equal(statusOf(report, 'isolation'), 'ok');
  });
  test('level off checks nothing', () => {
    const report = runPreflight({ files: systemFiles(root(bareMetal())), level: 'off', probe: false });
    assert.deepEqual(report.findings, []);
    assert.equal(report.fails, false);
    assert.equal(report.testbed, null);
  });
  test('an empty root (nothing readable) gives unknown findings naming the files, and no crash', () => {
    const report = runPreflight({ files: systemFiles(root({})), level: 'strict', probe: false });
    assert.equal(report.fails, false);
    for (const check of ['governor', 'turbo', 'smt', 'isolation', 'load', 'swap', 'aslr', 'perf-events', 'kernel', 'throttle']) {
      const f = report.findings.find((x) => x.check === check);
      assert.equal(f?.status, 'unknown', check);
      assert.ok((f?.unreadable ?? []).length > 0, `${check} names what it could not read`);
    }
    assert.match(report.testbed?.id ?? '', /^[0-9a-f]{16}$/);
  });
  test('throttling while the probe runs is reported as a rise', () => {
    const base = systemFiles(root(tunedBareMetal()));
    let reads = 0;
    // The counter file reads 0 before the probe and 7 after it, as if the CPU throttled meanwhile.
    const rising: SystemFiles = {
      root: base.root,
      list: (p) => base.list(p),
      read: (p) => (p.endsWith('cpu0/thermal_throttle/core_throttle_count') ? String(reads++ === 0 ? 0 : 7) : base.read(p)),
    };
    let t = 0;
    const clock = (): number => (t += 10);
    const report = runPreflight({ files: rising, level: 'strict', probe: { durationMs: 200, repetitions: 5 }, clock });
    const throttle = report.findings.find((f) => f.check === 'throttle');
    assert.equal(throttle?.status, 'warn');
    assert.match(throttle?.message ?? '', /during the noise probe \(core \+7/);
    assert.equal(report.fails, true);
  });
});

describe('preflight on this machine', () => {
  test('reads what it can, says what it could not, and does not crash', () => {
    const report = runPreflight({ files: systemFiles('/'), level: 'warn', probe: { durationMs: 400, repetitions: 8 } });
    for (const f of report.findings) {
      if (f.status === 'unknown') assert.ok((f.unreadable ?? []).length > 0, `${f.check}: unknown must name what it could not read`);
    }
    // Judged against the file system directly, so the test holds on bare metal too.
    const hasCpufreq = existsSync('/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor');
    assert.equal(statusOf(report, 'governor') === 'unknown', !hasCpufreq);
    const hasThrottle = existsSync('/sys/devices/system/cpu/cpu0/thermal_throttle/core_throttle_count');
    assert.equal(statusOf(report, 'throttle') === 'unknown', !hasThrottle);
    assert.notEqual(statusOf(report, 'load'), 'unknown');
    assert.notEqual(statusOf(report, 'kernel'), 'unknown');
    assert.ok(report.probe && report.probe.n >= 3 && Number.isFinite(report.probe.cv) && report.probe.cv >= 0);
    assert.ok(report.probe.elapsedMs < 2000, `probe bounded: took ${report.probe.elapsedMs} ms`);
    assert.match(preflightText(report), /testbed [0-9a-f]{16}/);
  });
});

describe('the preflight command', () => {
  const run = async (argv: string[], env: NodeJS.ProcessEnv = {}) => {
    const { preflightCommand } = await import('../../../src/cli/preflight.js');
    let out = '';
    const status = await preflightCommand.run(argv, { cwd: '/', env, stdout: (t) => (out += t), stderr: (t) => (out += t), now: () => new Date(0) });
    return { status, out };
  };
  test('strict on an untuned tree exits 1 and writes the JSON report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'perf-gate-pf-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const json = join(dir, 'preflight.json');
    const { status, out } = await run(['--level', 'strict', '--no-probe', '--root', root(bareMetal()), '--json', json]);
    assert.equal(status, 1);
    assert.match(out, /WARN {3}governor/);
    assert.match(out, /FAILED/);
    const written = JSON.parse(readFileSync(json, 'utf8')) as { schema: string; fails: boolean; findings: unknown[] };
    assert.equal(written.schema, 'perf-gate/preflight@1');
    assert.equal(written.fails, true);
  });
  test('warn level exits 0 and, inside GitHub Actions, prints escaped annotations with the fix', async () => {
    const { status, out } = await run(['--level=warn', '--no-probe', '--root', root(bareMetal())], { GITHUB_ACTIONS: 'true' });
    assert.equal(status, 0);
    assert.match(out, /^::warning title=perf-gate preflight%3A governor::CPU frequency governor is "powersave".*%0AFix: echo performance/m);
    assert.match(out, /^::notice title=perf-gate preflight%3A smt::/m);
  });
  test('a tuned tree passes strict', async () => {
    const { status } = await run(['--level', 'strict', '--no-probe', '--root', root(tunedBareMetal())]);
    assert.equal(status, 0);
  });
  test('an unknown level is a usage error', async () => {
    await assert.rejects(run(['--level', 'loud']), /--level takes strict, warn, off; found "loud"/);
  });
  test('annotations escape newlines and percent signs in messages', () => {
    const report = runPreflight({ files: systemFiles(root(without(bareMetal(), /cpufreq/))), level: 'strict', probe: false });
    const text = preflightAnnotations({ ...report, findings: [{ check: 'load', status: 'warn', message: '100% busy\nreally' }] });
    assert.equal(text, '::error title=perf-gate preflight%3A load::100%25 busy%0Areally\n');
  });
});
