#!/usr/bin/env bash
# Starts the example server on 127.0.0.1, load-tests it with a bounded wrk run
# (1 thread, 4 connections, 2 s, latency distribution), writes wrk's report to
# $1, and always stops the server.
set -euo pipefail
out="${1:?usage: bench.sh OUTPUT}"
port="${PORT:-18473}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

PORT="$port" node "$here/server.mjs" >/dev/null &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT

# Wait (at most 5 s) until the server accepts connections.
for _ in $(seq 50); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
  sleep 0.1
done

: >"$out"
for path in / /work; do
  wrk -t1 -c4 -d2s --latency "http://127.0.0.1:$port$path" >>"$out"
done
