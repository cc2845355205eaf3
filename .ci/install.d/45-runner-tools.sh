#!/usr/bin/env bash
# `perf-gate run` tests (action/test/runner, action/test/cli/run.test.ts) run
# real processes: hyperfine as the harness, git for the A/B worktree, a C
# compiler for the busy-loop program, taskset (util-linux) for CPU pinning.
set -euo pipefail
# shellcheck source=.ci/apt.sh
source "$(dirname "${BASH_SOURCE[0]}")/../apt.sh"

need=()
command -v hyperfine >/dev/null || need+=(hyperfine)
command -v git >/dev/null || need+=(git)
command -v cc >/dev/null || need+=(gcc libc6-dev)
command -v taskset >/dev/null || need+=(util-linux)
apt_install "${need[@]}"
