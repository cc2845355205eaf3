/**
 * `npm run setup` (scripts/setup.sh and scripts/install/*.sh), the install
 * step of the README's test command, run in a fake machine: every package
 * manager and toolchain it calls (apt-get, dpkg-query, python3, go, cargo, mvn,
 * sudo, id) is a shim that logs its invocation and "installs" by putting a fake
 * command on PATH. The first run on the empty machine installs everything; the
 * second installs and builds nothing; taking one tool away, or changing an
 * example's source, makes the next run redo exactly that.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/temp.js';
import { findTool, TEST_COMMAND } from '../support/tools.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
/** The real utilities the scripts and shims use; nothing else of the machine is on PATH. */
const UTILITIES = ['bash', 'env', 'dirname', 'mktemp', 'rm', 'paste', 'sed', 'find', 'touch', 'mkdir', 'cat', 'grep', 'ln'];
/** An invocation that installs or builds something. */
const INSTALLS =
  /^(apt-get (install|update)|python3 -m (pip|venv)|pip install|go (install|build|test)|cargo (install|build|bench|fetch|criterion --bench)|mvn )/;

function fakeMachine(world: string): { run: (env?: Record<string, string>) => { status: number | null; out: string; calls: string[] } } {
  const bash = findTool('bash')!;
  for (const d of ['sys', 'shims', 'installed', 'state', 'home', 'repo/scripts']) mkdirSync(join(world, d), { recursive: true });
  for (const u of UTILITIES) symlinkSync(findTool(u)!, join(world, 'sys', u));
  cpSync(join(ROOT, 'scripts/setup.sh'), join(world, 'repo/scripts/setup.sh'));
  cpSync(join(ROOT, 'scripts/install'), join(world, 'repo/scripts/install'), { recursive: true });
  for (const [example, file] of [
    ['go', 'go.mod'],
    ['rust-criterion', 'Cargo.toml'],
    ['rust-criterion', 'benches/parse.rs'],
    ['rust-iai-callgrind', 'Cargo.toml'],
    ['rust-divan', 'Cargo.toml'],
    ['java-jmh', 'pom.xml'],
  ] as const) {
    mkdirSync(join(world, 'repo/examples', example, file, '..'), { recursive: true });
    writeFileSync(join(world, 'repo/examples', example, file), '');
  }
  const fake = join(world, 'fake');
  writeFileSync(
    fake,
    `#!${bash}
W=${JSON.stringify(world)}
name=\${0##*/}
echo "$name $*" >>"$W/log"
provides() {
  case "$1" in
    gcc) echo gcc cc ;; util-linux) echo taskset ;; linux-perf) echo perf ;;
    default-jdk-headless) echo java ;; maven) echo mvn ;; nghttp2-client) echo h2load ;; apache2-utils) echo ab ;;
    libc6-dev|libbenchmark-dev|time) ;; *) echo "$1" ;;
  esac
}
case "$name" in
  id) echo "\${FAKE_UID:-0}" ;;
  sudo) exec "$@" ;;
  apt-get)
    [ "$1" = install ] || exit 0
    for arg in "$@"; do
      case "$arg" in install|-*) ;; *)
        echo "$arg" >>"$W/state/dpkg"
        for c in $(provides "$arg"); do ln -sf "$W/fake" "$W/installed/$c"; done ;;
      esac
    done ;;
  dpkg-query) for last in "$@"; do :; done; grep -qx "$last" "$W/state/dpkg" 2>/dev/null && printf 'ii ' ;;
  python3)
    if [ "$1" = -c ]; then [ -e "$W/state/pip" ]; elif [ "$1 $2 $3" = "-m pip install" ]; then touch "$W/state/pip"
    elif [ "$1 $2" = "-m venv" ]; then mkdir -p "$3/bin" && ln -sf "$W/fake" "$3/bin/python" && ln -sf "$W/fake" "$3/bin/pip"; fi ;;
  python) [ "$1" = -c ] && [ -e "$W/state/venv-pip" ] ;;
  pip) [ "$1" = install ] && touch "$W/state/venv-pip" ;;
  iai-callgrind-runner) echo "iai-callgrind-runner (0.16.1)"; exit 1 ;;
  go)
    case "$1" in
      env) if [ "$2" = GOPATH ]; then echo "$W/gopath"; else echo "$W/gocache"; fi ;;
      # go install names a major-version module (…/vegeta/v12) after the path element before the version.
      install) m="\${2%@*}"; b="\${m##*/}"; case "$b" in v[0-9]*) m="\${m%/*}"; b="\${m##*/}" ;; esac
        mkdir -p "$W/gopath/bin"; ln -sf "$W/fake" "$W/gopath/bin/$b" ;;
    esac ;;
  cargo)
    case "$1" in
      criterion) [ "$2" != --version ] || [ -e "$W/installed/cargo-criterion" ] ;;
      install)
        for crate in cargo-criterion iai-callgrind-runner; do case " $* " in *" $crate "*) ln -sf "$W/fake" "$W/installed/$crate" ;; esac; done
        case " $* " in *" inferno "*) for c in inferno-flamegraph inferno-diff-folded inferno-collapse-perf; do ln -sf "$W/fake" "$W/installed/$c"; done ;; esac ;;
      fetch) mkdir -p "$HOME/.cargo/registry/cache/fake" && touch "$HOME/.cargo/registry/cache/fake/iai-0.1.1.crate" ;;
    esac ;;
  mvn) mkdir -p target && touch target/benchmarks.jar ;;
esac
`,
    { mode: 0o755 },
  );
  // The image's toolchains (Python, Go, Rust) are there; everything else is to be installed.
  for (const tool of ['id', 'apt-get', 'dpkg-query', 'python3', 'go', 'cargo']) symlinkSync(fake, join(world, 'shims', tool));
  let seen = 0;
  return {
    run: (env = {}) => {
      const r = spawnSync(bash, [join(world, 'repo/scripts/setup.sh')], {
        encoding: 'utf8',
        env: { PATH: ['installed', 'shims', 'sys'].map((d) => join(world, d)).join(':'), HOME: join(world, 'home'), ...env },
      });
      const log = readFileSync(join(world, 'log'), 'utf8').split('\n').filter(Boolean);
      const calls = log.slice(seen);
      seen = log.length;
      return { status: r.status, out: r.stdout + r.stderr, calls };
    },
  };
}

describe('npm run setup is idempotent: the second run installs and builds nothing', () => {
  const world = tempDir('pg-setup-');
  const machine = fakeMachine(world);

  test('the first run on an empty machine installs every tool group and warms the example builds', () => {
    const first = machine.run();
    assert.equal(first.status, 0, first.out);
    const installs = first.calls.filter((c) => INSTALLS.test(c));
    const apt = installs.find((c) => c.startsWith('apt-get install'));
    assert.ok(apt, first.calls.join('\n'));
    for (const pkg of [
      'hyperfine',
      'gcc',
      'g++',
      'libbenchmark-dev',
      'catch2',
      'ruby',
      'ruby-benchmark-ips',
      'time',
      'wrk',
      'nghttp2-client',
      'apache2-utils',
      'linux-perf',
      'strace',
      'valgrind',
      'patch',
      'shellcheck',
      'git',
      'maven',
    ]) {
      assert.ok(apt.split(' ').includes(pkg), `${pkg} in: ${apt}`);
    }
    for (const expected of [
      /^python3 -m pip install .*scipy.*pytest-benchmark/,
      /^go install golang.org\/x\/perf\/cmd\/benchstat@/,
      /^go install github.com\/rhysd\/actionlint\/cmd\/actionlint@/,
      /^go install github.com\/tsenart\/vegeta\/v12@/,
      /^go install github.com\/rakyll\/hey@/,
      /^go test /,
      /^cargo install .*cargo-criterion/,
      /^cargo install .*iai-callgrind-runner/,
      /^cargo install .*inferno --version 0\.12\.8/,
      /^cargo fetch/,
      /^cargo bench .*--bench parse/,
      /^cargo bench .*--bench counts/,
      /^cargo bench .*--bench words/,
      /^python3 -m venv .*otava-venv/,
      /^pip install .*apache-otava==0\.8\.0/,
      /^mvn .*package/,
    ]) {
      assert.ok(
        installs.some((c) => expected.test(c)),
        `${expected} among:\n${installs.join('\n')}`,
      );
    }
    assert.match(first.out, /setup: done in \d+ s; installed or built: apt-get install hyperfine/);
  });

  test('the second run only looks: no install, no build, and it says so', () => {
    const second = machine.run();
    assert.equal(second.status, 0, second.out);
    assert.deepEqual(
      second.calls.filter((c) => INSTALLS.test(c)),
      [],
    );
    // It did look (the shims were on its PATH), so an empty list means something.
    for (const check of [/^dpkg-query /, /^python3 -c /, /^cargo criterion --version/, /^go env GOPATH/]) {
      assert.ok(
        second.calls.some((c) => check.test(c)),
        `${check} among:\n${second.calls.join('\n')}`,
      );
    }
    assert.match(second.out, /setup: everything was already installed; nothing to do/);
  });

  test('a tool taken away, or an example source changed, is redone, and only that', () => {
    rmSync(join(world, 'installed/wrk'));
    const earlier = (Date.now() - 60_000) / 1000;
    const stamp = join(world, 'repo/examples/rust-criterion/target/.perf-gate-setup');
    utimesSync(stamp, earlier, earlier);
    writeFileSync(join(world, 'repo/examples/rust-criterion/benches/parse.rs'), '// changed\n');
    const third = machine.run();
    assert.equal(third.status, 0, third.out);
    assert.deepEqual(
      third.calls
        .filter((c) => INSTALLS.test(c))
        .map((c) =>
          c
            .split(' ')
            .filter((w) => !w.startsWith('-'))
            .slice(0, 3)
            .join(' '),
        ),
      ['apt-get install wrk', 'cargo bench parse', 'cargo criterion parse'],
    );
  });

  test('not root: apt-get runs through sudo; without sudo it stops and says why', () => {
    rmSync(join(world, 'installed/strace'));
    const noSudo = machine.run({ FAKE_UID: '1000' });
    assert.equal(noSudo.status, 1, `no sudo on PATH: ${noSudo.out}`);
    assert.match(noSudo.out, /setup: Debian packages strace are missing: run npm run setup as root \(or with sudo installed\)/);
    symlinkSync(join(world, 'fake'), join(world, 'shims/sudo'));
    const viaSudo = machine.run({ FAKE_UID: '1000' });
    assert.equal(viaSudo.status, 0, viaSudo.out);
    assert.ok(
      viaSudo.calls.some((c) => /^sudo env DEBIAN_FRONTEND=noninteractive apt-get install .*strace/.test(c)),
      viaSudo.calls.join('\n'),
    );
  });
});

describe("the README's test command is the one CI runs", () => {
  test('README (Set-up), .ci/run and package.json agree on `npm ci && npm run setup && npm test`', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const setup = readme.slice(readme.indexOf('## Set-up'), readme.indexOf('\n## ', readme.indexOf('## Set-up') + 1));
    assert.ok(
      setup.split('\n').some((l) => l.startsWith(TEST_COMMAND)),
      `the Set-up section shows ${TEST_COMMAND}`,
    );
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() && !l.startsWith('#'));
    assert.deepEqual(ci, ['set -euo pipefail', 'cd "$(dirname "$0")/.."', TEST_COMMAND], '.ci/run runs that line and nothing else');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    assert.equal(pkg.scripts['setup'], 'bash scripts/setup.sh');
  });
});
