import { execFileSync } from 'node:child_process';
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DEFAULT_AB,
  DEFAULT_CONFIRM_TIME_CAP_SECONDS,
  DEFAULT_TIMEOUT_SECONDS,
  loadPerfGateConfig,
  parsePerfGateConfig,
} from '../../src/config/perf-gate-config.js';
import { hyperfineLine, withCommandsOnly } from '../../src/config/command-suite.js';
import { InputError } from '../../src/model/index.js';
import { tempDir } from '../support/temp.js';

const FULL = `version: 1
budgets: perf/budgets
baselines: perf/baselines
suites:
  - name: scan
    build: cargo build --release
    run: hyperfine --runs 20 --export-json {output} './target/release/prtip -p 1-1000 127.0.0.1'
    format: hyperfine
    timeout: 10m
    env:
      RUST_LOG: warn
      THREADS: 4
    workdir: scanner
    repeat: 2
  - name: sim
    run: ./sim --entities {entityCount} > {output}
    format:
      name: marker-lines
      markers:
        MIGRATION_COUNT: { metric: migrations }
    params:
      entityCount: [100, 200, 400]
    ab:
      rounds: 4
      max-rounds: 12
      pin: "2,3"
derived:
  ports_per_sec: { expr: "10000 / time", unit: "1/s", direction: higher }
  ratio: "instructions / cycles"
ab:
  rounds: 8
  confirm: false
  seed: 42
`;

function errorOf(fn: () => unknown): InputError {
  try {
    fn();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  assert.fail('expected an InputError');
}

describe('perf-gate.yml', () => {
  test('a full file becomes the typed config with defaults and resolved paths', () => {
    const c = parsePerfGateConfig(FULL, 'perf-gate.yml', '/repo');
    assert.equal(c.budgets, '/repo/perf/budgets');
    assert.equal(c.baselines, '/repo/perf/baselines');
    assert.equal(c.suites.length, 2);
    const [scan, sim] = c.suites;
    assert.deepEqual(
      { ...scan, ab: undefined },
      {
        name: 'scan',
        build: 'cargo build --release',
        run: "hyperfine --runs 20 --export-json {output} './target/release/prtip -p 1-1000 127.0.0.1'",
        format: 'hyperfine',
        formatOptions: null,
        timeout: 600,
        env: { RUST_LOG: 'warn', THREADS: '4' },
        workdir: '/repo/scanner',
        repeat: 2,
        params: null,
        ab: undefined,
        confirm: true,
        profile: null,
        filter: null,
        line: 5,
        formatLine: 8,
        commands: null,
        commandRuns: null,
        measure: { time: true, counts: false },
        countRepeat: 3,
        counter: 'cachegrind',
      },
    );
    assert.deepEqual(scan!.ab, { ...DEFAULT_AB, rounds: 8, confirm: false, seed: 42 });
    assert.equal(sim!.format, 'marker-lines');
    assert.deepEqual(sim!.formatOptions, { markers: { MIGRATION_COUNT: { metric: 'migrations' } } });
    assert.deepEqual(sim!.params, { entityCount: ['100', '200', '400'] });
    assert.equal(sim!.timeout, DEFAULT_TIMEOUT_SECONDS);
    assert.equal(sim!.workdir, '/repo');
    assert.deepEqual(sim!.ab, { ...DEFAULT_AB, rounds: 4, maxRounds: 12, confirm: false, seed: 42, pin: '2,3' });
    assert.deepEqual(c.derived, [
      { name: 'ports_per_sec', expr: '10000 / time', unit: '1/s', direction: 'higher', benchmarks: null, source: 'perf-gate.yml:28' },
      { name: 'ratio', expr: 'instructions / cycles', unit: null, direction: null, benchmarks: null, source: 'perf-gate.yml:29' },
    ]);
  });

  test('the minimal file takes budgets/ and baselines/ next to it, format auto, one invocation', () => {
    const c = parsePerfGateConfig('version: 1\nsuites:\n  - name: a\n    run: ./bench > {output}\n', 'x.yml', '/w');
    assert.equal(c.budgets, '/w/budgets');
    assert.equal(c.baselines, '/w/baselines');
    assert.equal(c.suites[0]!.format, 'auto');
    assert.equal(c.suites[0]!.repeat, 1);
    assert.equal(c.suites[0]!.build, null);
    assert.deepEqual(c.derived, []);
    assert.deepEqual(c.ab, DEFAULT_AB);
    assert.deepEqual(c.confirm, { on: true, timeCap: DEFAULT_CONFIRM_TIME_CAP_SECONDS });
  });

  test('an unknown key names file, line and key', () => {
    const e = errorOf(() => parsePerfGateConfig('version: 1\nsuites:\n  - name: a\n    run: x\n    timout: 5m\n', 'perf-gate.yml', '/'));
    assert.equal(e.file, 'perf-gate.yml');
    assert.equal(e.line, 3);
    assert.match(e.message, /^perf-gate\.yml:3: suites\.0: unknown key "timout"$/);
  });

  test('profile: a profiler per suite, a command for a run: suite, a cap for the run; misplaced keys refused on their line', () => {
    const config = parsePerfGateConfig(
      'version: 1\nprofile-time-cap: 90s\nsuites:\n  - name: c\n    commands: { a: ./a }\n    profile: auto\n  - name: r\n    run: cargo bench > {output}\n    profile: perf\n    profile-command: cargo bench -- --profile-time 2 --exact {benchmark}\n  - name: none\n    run: x\n',
      'perf-gate.yml',
      '/',
    );
    assert.equal(config.profileTimeCap, 90);
    assert.deepEqual(
      config.suites.map((s) => s.profile),
      [{ tool: 'auto', command: null }, { tool: 'perf', command: 'cargo bench -- --profile-time 2 --exact {benchmark}' }, null],
    );
    assert.equal(parsePerfGateConfig('version: 1\nsuites:\n  - name: a\n    run: x\n', 'perf-gate.yml', '/').profileTimeCap, 300);
    const alone = errorOf(() => parsePerfGateConfig('version: 1\nsuites:\n  - name: a\n    run: x\n    profile-command: y\n', 'perf-gate.yml', '/'));
    assert.equal(alone.message, 'perf-gate.yml:5: suites.0.profile-command: profile-command: needs profile: (auto, perf or callgrind) beside it');
    const commands = errorOf(() =>
      parsePerfGateConfig('version: 1\nsuites:\n  - name: a\n    commands: { x: ./x }\n    profile: auto\n    profile-command: y\n', 'perf-gate.yml', '/'),
    );
    assert.match(commands.message, /^perf-gate\.yml:6: suites\.0\.profile-command: profile-command: is for a run: suite/);
    const quoted = errorOf(() =>
      parsePerfGateConfig(
        'version: 1\nsuites:\n  - name: a\n    run: x\n    profile: auto\n    profile-command: "b --exact \'{benchmark}\'"\n',
        'perf-gate.yml',
        '/',
      ),
    );
    assert.match(quoted.message, /^perf-gate\.yml:6: suites\.0\.profile-command: placeholder \{benchmark\} stands inside single quotes/);
    const tool = errorOf(() => parsePerfGateConfig('version: 1\nsuites:\n  - name: a\n    run: x\n    profile: gprof\n', 'perf-gate.yml', '/'));
    assert.equal(tool.line, 5);
    assert.match(tool.message, /auto.*perf.*callgrind/);
  });

  test('a timeout in parsecs is refused on its own line with the accepted syntax', () => {
    const e = errorOf(() => parsePerfGateConfig('version: 1\nsuites:\n  - name: a\n    run: x\n    timeout: 10parsecs\n', 'perf-gate.yml', '/'));
    assert.equal(e.line, 5);
    assert.equal(e.key, 'suites.0.timeout');
    assert.equal(e.message, 'perf-gate.yml:5: suites.0.timeout: expected a positive duration such as "90s" or "10m", found "10parsecs"');
  });

  test('a suite without run is refused at the suite', () => {
    const e = errorOf(() => parsePerfGateConfig('version: 1\nsuites:\n  - name: ok\n    run: x\n  - name: b\n    build: make\n', 'perf-gate.yml', '/'));
    assert.equal(e.line, 5);
    assert.match(e.message, /suites\.1: missing required key "run"/);
  });

  test('commands: one benchmark per command, measured by perf-gate: a hyperfine line that names each, what to measure', () => {
    const config = parsePerfGateConfig(
      "version: 1\nsuites:\n  - name: c\n    commands:\n      small run: ./prog 1000\n      it's big: ./prog 'a b'\n    measure: [time, counts]\n    runs: 20\n    count-repeat: 5\n",
      'perf-gate.yml',
      '/',
    );
    const suite = config.suites[0]!;
    assert.deepEqual(suite.commands, [
      { name: 'small run', command: './prog 1000' },
      { name: "it's big", command: "./prog 'a b'" },
    ]);
    assert.deepEqual(suite.measure, { time: true, counts: true });
    assert.equal(suite.countRepeat, 5);
    assert.equal(suite.format, 'hyperfine');
    // The words bash hands hyperfine, and how hyperfine (POSIX shell words) splits each command.
    const words = (line: string): string[] =>
      execFileSync('bash', ['-c', `args() { printf '%s\\0' "$@"; }; ${line}`.replace('hyperfine', 'args')], { encoding: 'utf8' })
        .split('\0')
        .slice(0, -1);
    const argv = words(suite.run.replace('{output}', 'out.json'));
    assert.deepEqual(argv.slice(0, 11), [
      '--export-json',
      'out.json',
      '--runs',
      '20',
      '--warmup',
      '1',
      '--ignore-failure',
      '--shell=none',
      '--style',
      'basic',
      '--command-name',
    ]);
    assert.deepEqual([argv[11], argv[13], argv[14]], ['small run', '--command-name', "it's big"]);
    assert.deepEqual(words(`hyperfine ${argv[12]}`), ['sh', '-c', './prog 1000']);
    assert.deepEqual(words(`hyperfine ${argv[15]}`), ['sh', '-c', "./prog 'a b'"]);
    const countsOnly = parsePerfGateConfig('version: 1\nsuites:\n  - name: c\n    commands: { a: ./a }\n    measure: counts\n', 'p.yml', '/').suites[0]!;
    assert.deepEqual(countsOnly.measure, { time: false, counts: true });
    assert.equal(countsOnly.run, '');
    assert.equal(countsOnly.countRepeat, 3);
    assert.equal(countsOnly.counter, 'cachegrind', 'cachegrind counts by default');
    const perf = parsePerfGateConfig('version: 1\nsuites:\n  - name: c\n    commands: { a: ./a }\n    measure: counts\n    counter: perf\n', 'p.yml', '/')
      .suites[0]!;
    assert.equal(perf.counter, 'perf');
    const plain = parsePerfGateConfig('version: 1\nsuites:\n  - name: r\n    run: x\n', 'p.yml', '/').suites[0]!;
    assert.equal(plain.commands, null);
    assert.deepEqual(plain.measure, { time: true, counts: false });
  });

  test('commands: the keys of run: suites and the other way round are refused on their line', () => {
    const cases: [string, number, RegExp][] = [
      ['  - name: c\n    run: x\n    commands: { a: ./a }\n', 4, /suites\.0\.run: a suite has "run:" or "commands:", not both/],
      ['  - name: c\n    run: x\n    measure: counts\n', 5, /suites\.0\.measure: "measure:" applies to "commands:" suites only/],
      ['  - name: c\n    commands: { a: ./a }\n    format: hyperfine\n', 5, /suites\.0\.format: "format:" does not apply to a "commands:" suite/],
      ['  - name: c\n    commands: { a: ./a }\n    params: { n: [1] }\n', 5, /suites\.0\.params: "params:" does not apply/],
      ['  - name: c\n    commands: { a: ./a }\n    measure: [time, cycles]\n', 5, /suites\.0\.measure/],
      ['  - name: c\n    commands: { a: ./a }\n    counter: callgrind\n', 5, /suites\.0\.counter/],
    ];
    for (const [suite, line, message] of cases) {
      const e = errorOf(() => parsePerfGateConfig(`version: 1\nsuites:\n${suite}`, 'perf-gate.yml', '/'));
      assert.match(e.message, message, suite);
      assert.equal(e.line, line, `${suite}: ${e.message}`);
    }
  });

  test('other mistakes: version, duplicate suite, bad sweep, bad A/B settings, YAML syntax', () => {
    assert.match(errorOf(() => parsePerfGateConfig('version: 2\nsuites: []\n', 'p.yml', '/')).message, /^p\.yml:1: version: expected 1/);
    const dup = errorOf(() => parsePerfGateConfig('version: 1\nsuites:\n  - { name: a, run: x }\n  - { name: a, run: y }\n', 'p.yml', '/'));
    assert.equal(dup.line, 4);
    assert.match(dup.message, /duplicate suite name "a" \(first used on line 3\)/);
    const sweep = errorOf(() => parsePerfGateConfig('version: 1\nsuites:\n  - name: a\n    run: x\n    params:\n      n: [1, 2, 1]\n', 'p.yml', '/'));
    assert.equal(sweep.line, 6);
    assert.match(sweep.message, /duplicate value "1" in the sweep of "n"/);
    const rounds = errorOf(() => parsePerfGateConfig('version: 1\nab:\n  rounds: 10\n  max-rounds: 5\nsuites:\n  - { name: a, run: x }\n', 'p.yml', '/'));
    assert.equal(rounds.line, 4);
    assert.match(rounds.message, /max-rounds \(5\) to be at least rounds \(10\)/);
    const pin = errorOf(() => parsePerfGateConfig('version: 1\nab: { pin: "all" }\nsuites:\n  - { name: a, run: x }\n', 'p.yml', '/'));
    assert.match(pin.message, /^p\.yml:2: ab\.pin: expected .*found "all"/);
    const name = errorOf(() => parsePerfGateConfig('version: 1\nsuites:\n  - { name: "a b", run: x }\n', 'p.yml', '/'));
    assert.match(name.message, /^p\.yml:3: suites\.0\.name: expected .*found "a b"/);
    const yaml = errorOf(() => parsePerfGateConfig('version: 1\nsuites:\n  - name: [a\n', 'p.yml', '/'));
    assert.match(yaml.message, /^p\.yml:\d+: YAML syntax error/);
    const derived = errorOf(() =>
      parsePerfGateConfig('version: 1\nsuites:\n  - { name: a, run: x }\nderived:\n  pps: { expr: "1/time", direction: up }\n', 'p.yml', '/'),
    );
    assert.equal(derived.line, 5);
    assert.match(derived.message, /expected one of "lower", "higher"/);
  });

  test('a placeholder inside quotes is refused at the run line with the safe alternatives', () => {
    const yml = (run: string, params = '') => `version: 1\nsuites:\n  - name: ok\n    run: ./a > {output}\n  - name: b\n${params}    run: ${run}\n`;
    const sweep = '    params:\n      n: [1, 2]\n';
    const single = errorOf(() => parsePerfGateConfig(yml(`hyperfine --export-json {output} './prog -n {n}'`, sweep), 'perf-gate.yml', '/'));
    assert.equal(single.file, 'perf-gate.yml');
    assert.equal(single.line, 8);
    assert.equal(single.key, 'suites.1.run');
    assert.match(single.message, /^perf-gate\.yml:8: suites\.1\.run: placeholder \{n\} stands inside single quotes/);
    assert.match(single.message, /outside quotes/);
    assert.match(single.message, /"\$PERF_GATE_PARAM_N" inside double quotes/);
    const double = errorOf(() => parsePerfGateConfig(yml(`'bench "run {n}"'`, sweep), 'perf-gate.yml', '/'));
    assert.match(double.message, /^perf-gate\.yml:8: suites\.1\.run: placeholder \{n\} stands inside double quotes/);
    const nested = errorOf(() => parsePerfGateConfig(yml(`sh -c 'echo {output}'`), 'perf-gate.yml', '/'));
    assert.equal(nested.line, 6);
    assert.match(nested.message, /\{output\} stands inside single quotes.*"\$PERF_GATE_OUTPUT" inside double quotes/);
  });

  test('placeholders outside quotes, escaped quotes, comments and the environment variables are accepted', () => {
    const run = (cmd: string) =>
      parsePerfGateConfig(`version: 1\nsuites:\n  - name: b\n    params: { n: [1] }\n    run: ${JSON.stringify(cmd)}\n`, 'perf-gate.yml', '/').suites[0]!.run;
    for (const ok of [
      "hyperfine --export-json {output} './prog -n 1' -- {n}",
      'bench "$PERF_GATE_PARAM_N" > "$PERF_GATE_OUTPUT"',
      "awk '{print $1}' data | ./prog {n} > {output}",
      'echo \\"{n}\\" > {output}',
      "echo \"${n}\" '{other}' {n} # don't quote {n}",
      "printf 'a\\' {n} # in '…' a backslash is literal",
    ]) {
      assert.equal(run(ok), ok);
    }
    assert.throws(() => run("printf $'a\\'{n}'"), /inside single quotes/, "in $'…' a backslash escapes the quote");
  });

  test('every perf-gate.yml shipped in the repository still parses', () => {
    const root = join(import.meta.dirname, '../../..');
    const files = ['perf-gate.yml', ...readdirSync(join(root, 'examples')).map((d) => join('examples', d, 'perf-gate.yml'))].filter((f) =>
      existsSync(join(root, f)),
    );
    assert.ok(files.length >= 4, `found ${files.join(', ')}`);
    for (const f of files) assert.ok(loadPerfGateConfig(f, root).suites.length > 0, f);
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const blocks = [...readme.matchAll(/```ya?ml\n(version: 1\n[\s\S]*?)```/g)].map((m) => m[1]!).filter((b) => /^suites:/m.test(b));
    assert.ok(blocks.length > 0, 'README has a perf-gate.yml example');
    for (const b of blocks) assert.ok(parsePerfGateConfig(b, 'README.md', '/').suites.length > 0);
  });

  test('every suite shown in README.md and docs/ parses (fragments completed with the lines they leave out)', () => {
    const root = join(import.meta.dirname, '../../..');
    const pages = [
      'README.md',
      ...readdirSync(join(root, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => join('docs', f)),
    ];
    let parsed = 0;
    for (const page of pages) {
      const text = readFileSync(join(root, page), 'utf8');
      // A block may show several files, each under a "# path.yml" comment line.
      const bodies = [...text.matchAll(/```ya?ml\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split(/^# \S+\.ya?ml\n/m));
      for (const body of bodies) {
        // A config (it has suites:) or a list of suites (it starts with one).
        if (!/^suites:/m.test(body!) && !/^\s*- name: /.test(body!)) continue;
        const withSuites = /^suites:/m.test(body!) ? body! : `suites:\n${body}`;
        const whole = /^version: 1$/m.test(withSuites) ? withSuites : `version: 1\n${withSuites}`;
        assert.doesNotThrow(() => parsePerfGateConfig(whole, page, '/'), `${page}:\n${whole}`);
        parsed++;
      }
    }
    assert.ok(parsed >= 5, `${parsed} suites found in the pages`);
  });

  test('loading a missing file is an InputError naming it; an existing one resolves paths next to it', () => {
    const dir = tempDir('pg-config-');
    assert.match(errorOf(() => loadPerfGateConfig('nope.yml', dir)).message, /^nope\.yml: cannot read the config file \(ENOENT\)/);
    writeFileSync(join(dir, 'perf-gate.yml'), 'version: 1\nsuites:\n  - { name: a, run: x, workdir: sub }\n');
    const c = loadPerfGateConfig('perf-gate.yml', dir);
    assert.equal(c.suites[0]!.workdir, join(dir, 'sub'));
    assert.equal(c.budgets, join(dir, 'budgets'));
  });
});

describe('a commands: suite cut down to some commands (the second stage re-measures only its suspects)', () => {
  const config = parsePerfGateConfig(
    'version: 1\nsuites:\n  - name: c\n    commands: { small: ./prog 1, big: ./prog 9 }\n    runs: 7\n    warmup: 2\n  - name: h\n    run: ./bench > {output}\n',
    'p.yml',
    '/',
  );
  test('keeps the chosen commands, with the same runs and warm-up in the rebuilt hyperfine line', () => {
    const cut = withCommandsOnly(config.suites[0]!, (c) => c.name === 'big');
    assert.deepEqual(
      cut.commands!.map((c) => c.name),
      ['big'],
    );
    assert.equal(cut.run, hyperfineLine([{ name: 'big', command: './prog 9' }], 7, 2));
    assert.match(cut.run, /--runs 7 --warmup 2 /);
    assert.doesNotMatch(cut.run, /small/);
  });
  test('a harness suite, or a cut that keeps every command or none, is the suite as it is', () => {
    assert.equal(
      withCommandsOnly(config.suites[1]!, () => false),
      config.suites[1],
    );
    assert.equal(
      withCommandsOnly(config.suites[0]!, () => true),
      config.suites[0],
    );
    assert.equal(
      withCommandsOnly(config.suites[0]!, () => false),
      config.suites[0],
    );
  });
});

test('hardening 3.13: one anchor shared by 150 suites is a config, not an alias bomb; a suite name past 100 characters is refused', () => {
  const suite = (i: number) =>
    `  - name: s${i}\n    run: ./bench > {output}\n    env: ${i === 0 ? '&flags {CFLAGS: "-O2", RUSTFLAGS: "-C target-cpu=native"}' : '*flags'}\n`;
  const config = parsePerfGateConfig(`version: 1\nsuites:\n${Array.from({ length: 150 }, (_, i) => suite(i)).join('')}`, 'perf-gate.yml', '/repo');
  assert.equal(config.suites.length, 150);
  assert.deepEqual(config.suites[149]!.env, { CFLAGS: '-O2', RUSTFLAGS: '-C target-cpu=native' });
  const long = errorOf(() => parsePerfGateConfig(`version: 1\nsuites:\n  - name: ${'s'.repeat(101)}\n    run: x\n`, 'perf-gate.yml', '/'));
  assert.match(long.message, /^perf-gate\.yml:3: suites\.0\.name: /);
  assert.match(long.message, /100/);
});
