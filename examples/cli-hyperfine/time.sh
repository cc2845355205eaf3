#!/usr/bin/env bash
# Times the given commands into hyperfine JSON at $1: with hyperfine when it is
# installed, else with perf-gate's own timer (same JSON shape).
# PERF_GATE_TIMER=builtin forces perf-gate's timer even where hyperfine exists.
# PERF_GATE_RUNS and PERF_GATE_WARMUP set the runs per command (default 20 and 3);
# interleaved A/B rounds use fewer, since every round is a whole invocation.
# PERF_GATE_CLI is the perf-gate engine to use (default: this checkout's bundle).
set -euo pipefail
out="$1"
shift
runs="${PERF_GATE_RUNS:-20}"
warmup="${PERF_GATE_WARMUP:-3}"
if [ "${PERF_GATE_TIMER:-}" != builtin ] && command -v hyperfine >/dev/null 2>&1; then
  # -N: no shell between hyperfine and the program, so no shell start-up time is measured
  # once and subtracted from every run (the commands here are a program and its arguments).
  exec hyperfine -N --style none --warmup "$warmup" --runs "$runs" --export-json "$out" "$@"
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec node "${PERF_GATE_CLI:-$here/../../action/dist/cli.js}" time --warmup "$warmup" --runs "$runs" --export-json "$out" --command "$@"
