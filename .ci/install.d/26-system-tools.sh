#!/usr/bin/env bash
# System tools the adapter tests and examples/http-wrk run for real: wrk (load
# against a loopback server), perf stat, strace -c, valgrind massif/callgrind,
# GNU time -v, and gcc for the tiny C programs they measure.
set -euo pipefail

need=()
command -v wrk >/dev/null || need+=(wrk)
command -v perf >/dev/null || need+=(linux-perf)
command -v strace >/dev/null || need+=(strace)
command -v valgrind >/dev/null || need+=(valgrind)
[ -x /usr/bin/time ] || need+=(time)
command -v gcc >/dev/null || need+=(gcc libc6-dev)
if [ "${#need[@]}" -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "missing ${need[*]}; install them as root (apt-get install ${need[*]})" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null \
    || { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; }
fi
