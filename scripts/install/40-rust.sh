#!/usr/bin/env bash
# Rust: cargo-criterion (cargo install, about a minute to build on 2 cores),
# then one build of examples/rust-criterion's benches for `cargo bench` and
# `cargo criterion`, and of examples/rust-divan's, so those tests measure
# instead of compiling.
# libtest #[bench] needs nothing more (the tests set RUSTC_BOOTSTRAP=1); iai
# needs its crate in cargo's cache (fetched below; valgrind comes from apt).
set -euo pipefail
# shellcheck source=scripts/install/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

require cargo "the machine image provides Rust (rustup)"

if ! cargo criterion --version >/dev/null 2>&1; then
  cargo install --quiet --locked cargo-criterion --version 1.1.0
  did "cargo install cargo-criterion"
fi

# inferno: the differential flame graphs of `profile:` (inferno-diff-folded,
# inferno-flamegraph, inferno-collapse-perf; about a minute and a half to build).
if ! { command -v inferno-flamegraph && command -v inferno-diff-folded && command -v inferno-collapse-perf; } >/dev/null; then
  cargo install --quiet --locked inferno --version 0.12.8
  did "cargo install inferno"
fi

# warm_example NAME COMMAND: builds examples/NAME's benches with COMMAND (run
# in its folder) when a source there is newer than its stamp.
warm_example() {
  local example="$ROOT/examples/$1" stamp="$ROOT/examples/$1/target/.perf-gate-setup"
  if stale "$stamp" "$example"; then
    (cd "$example" && eval "$2")
    mkdir -p "$(dirname "$stamp")" && touch "$stamp"
    did "cargo bench --no-run examples/$1"
  fi
}

warm_example rust-criterion 'cargo bench --quiet --bench parse --no-run && cargo criterion --bench parse --no-run >/dev/null 2>&1'

warm_example rust-divan 'cargo bench --quiet --bench words --no-run'

# iai 0.1.1 (no dependencies of its own) in cargo's cache: the iai adapter test
# builds a tiny bench crate with it offline and runs it under cachegrind.
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
if ! compgen -G "$cargo_home/registry/cache/*/iai-0.1.1.crate" >/dev/null; then
  fetch_dir="$(mktemp -d)"
  (cd "$fetch_dir" && cargo init --quiet --lib --name iai-fetch && cargo add --quiet --dev iai@=0.1.1 && cargo fetch --quiet)
  rm -rf "$fetch_dir"
  did "cargo fetch iai 0.1.1"
fi

# iai-callgrind: the runner binary (its version must equal the library's in
# examples/rust-iai-callgrind/Cargo.toml; about seven minutes to build on 2
# cores), then one build of that example's benches so its test only counts.
iai_version=0.16.1
# The runner has no version flag of its own: asked for one, it exits 1 with a message naming its version.
runner_says="$(iai-callgrind-runner --version 2>&1 || true)"
if [[ "$runner_says" != *"iai-callgrind-runner ($iai_version)"* ]]; then
  cargo install --quiet --locked iai-callgrind-runner --version "$iai_version"
  did "cargo install iai-callgrind-runner $iai_version"
fi
warm_example rust-iai-callgrind 'cargo bench --quiet --bench counts --no-run'
