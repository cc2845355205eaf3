#!/usr/bin/env bash
# Times the given commands into hyperfine JSON at $1: with hyperfine when it is
# installed, else with perf-gate's own timer (same JSON shape).
# PERF_GATE_TIMER=builtin forces perf-gate's timer even where hyperfine exists.
set -euo pipefail
out="$1"
shift
if [ "${PERF_GATE_TIMER:-}" != builtin ] && command -v hyperfine >/dev/null 2>&1; then
  exec hyperfine --style none --warmup 3 --runs 20 --export-json "$out" "$@"
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec node "$here/../../action/dist/cli.js" time --warmup 3 --runs 20 --export-json "$out" --command "$@"
