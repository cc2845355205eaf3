#!/usr/bin/env bash
# `perf-gate run` tests (action/test/runner, action/test/cli/run.test.ts) run
# real processes: hyperfine as the harness, git for the A/B worktree, a C
# compiler for the busy-loop program, taskset (util-linux) for CPU pinning.
set -euo pipefail

need=()
command -v hyperfine >/dev/null || need+=(hyperfine)
command -v git >/dev/null || need+=(git)
command -v cc >/dev/null || need+=(gcc libc6-dev)
command -v taskset >/dev/null || need+=(util-linux)
if [ "${#need[@]}" -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "missing ${need[*]}; install them as root (apt-get install ${need[*]})" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null \
    || { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; }
fi
