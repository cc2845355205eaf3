#!/usr/bin/env bash
# Starts the example server on 127.0.0.1, loads it with one load generator,
# writes the generator's report to OUTPUT, and always stops the server.
#   bench.sh wrk OUTPUT      wrk, 1 thread, 4 connections, 2 s per URL, latency distribution
#   bench.sh vegeta OUTPUT   vegeta, GET /work at 200 requests/s, eight 0.5 s attacks (eight JSON reports)
#   bench.sh hey OUTPUT      hey, GET /work with 4 workers, eight 0.5 s runs (eight summaries)
# Every load is bounded in time; the repeated runs become samples. WRK_SECONDS
# (default 2) and ATTACK_MS (default 500) shorten or lengthen the loads.
set -euo pipefail
tool="${1:?usage: bench.sh wrk|vegeta|hey OUTPUT}"
out="${2:?usage: bench.sh wrk|vegeta|hey OUTPUT}"
port="${PORT:-18473}"
wrk_seconds="${WRK_SECONDS:-2}"
attack_ms="${ATTACK_MS:-500}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# `go install` puts vegeta and hey here, which need not be on PATH.
PATH="$PATH:$(go env GOPATH 2>/dev/null || echo "$HOME/go")/bin"

PORT="$port" node "$here/server.mjs" >/dev/null &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT

# Wait (at most 5 s) until the server accepts connections.
for _ in $(seq 50); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
  sleep 0.1
done

: >"$out"
case "$tool" in
  wrk)
    for path in / /work; do
      wrk -t1 -c4 -d"${wrk_seconds}s" --latency "http://127.0.0.1:$port$path" >>"$out"
    done ;;
  vegeta)
    for _ in 1 2 3 4 5 6 7 8; do
      echo "GET http://127.0.0.1:$port/work" | vegeta attack -duration="${attack_ms}ms" -rate=200 -timeout=5s | vegeta report -type=json >>"$out"
      echo >>"$out"
    done ;;
  hey)
    for _ in 1 2 3 4 5 6 7 8; do
      hey -z "${attack_ms}ms" -c 4 -t 5 "http://127.0.0.1:$port/work" >>"$out"
    done ;;
  *) echo "bench.sh: unknown load generator $tool (expected wrk, vegeta or hey)" >&2; exit 2 ;;
esac
