#!/usr/bin/env bash
# Harnesses the compiled-language adapter tests and examples run for real:
# criterion and cargo-criterion (Rust), libtest #[bench] (RUSTC_BOOTSTRAP=1),
# JMH (Maven), go test -bench, and Google Benchmark (Debian libbenchmark-dev, g++).
# Warms the example builds so the tests measure instead of compiling.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

for tool in cargo go java mvn; do
  command -v "$tool" >/dev/null || { echo "$tool is missing: the machine image provides Rust, Go, Java and Maven" >&2; exit 1; }
done

need=()
[ -f /usr/include/benchmark/benchmark.h ] || need+=(libbenchmark-dev)
command -v g++ >/dev/null || need+=(g++)
if [ "${#need[@]}" -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null \
    || { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; }
fi

# cargo-criterion 1.1.0 from crates.io (about a minute to build on 2 cores).
if ! cargo criterion --version >/dev/null 2>&1; then
  cargo install --quiet --locked cargo-criterion
fi

# Build criterion and the example's benches once, for cargo bench and cargo criterion.
(cd "$root/examples/rust-criterion" && cargo bench --quiet --bench parse --no-run && cargo criterion --bench parse --no-run >/dev/null 2>&1)

# The shaded JMH jar (downloads JMH and the Maven plugins once).
(cd "$root/examples/java-jmh" && mvn -q -B -Dstyle.color=never package -DskipTests)

# Go needs no downloads (standard library only); build the test binary once.
(cd "$root/examples/go" && go test -run '^$' -count 1 ./... >/dev/null)
