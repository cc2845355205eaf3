#!/usr/bin/env bash
# System tools the adapter tests and examples/http-wrk run for real: wrk (load
# against a loopback server), perf stat, strace -c, valgrind massif/callgrind,
# GNU time -v, and gcc for the tiny C programs they measure.
set -euo pipefail
# shellcheck source=.ci/apt.sh
source "$(dirname "${BASH_SOURCE[0]}")/../apt.sh"

need=()
command -v wrk >/dev/null || need+=(wrk)
command -v perf >/dev/null || need+=(linux-perf)
command -v strace >/dev/null || need+=(strace)
command -v valgrind >/dev/null || need+=(valgrind)
[ -x /usr/bin/time ] || need+=(time)
command -v gcc >/dev/null || need+=(gcc libc6-dev)
apt_install "${need[@]}"
