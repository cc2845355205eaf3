#!/usr/bin/env bash
# Starts `perf-gate action` with a Node.js >= 20. A self-hosted runner often
# has no `node` on PATH, but the runner ships its own Node under
# <runner>/externals/node20 (and node24 on newer runners). Order of search:
#   1. PERF_GATE_NODE (the node-path input), which must work if given;
#   2. `node` on PATH;
#   3. the runner's externals, found from the running Runner.Worker process,
#      from RUNNER_TEMP (<runner>/_work/_temp) and from GITHUB_ACTION_PATH
#      (<runner>/_work/_actions/<owner>/<repo>/<ref>).
# The newest candidate that is at least Node 20 wins.
#
# The github-token reaches node on file descriptor 3 (PERF_GATE_TOKEN_FD), not
# in the environment: benchmark code run by perf-gate could otherwise read it
# from node's startup environment in /proc/<pid>/environ.
set -euo pipefail

min_major=20
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cli="${here}/../dist/cli.js"
tried=()

node_major() {
  local version
  version="$("$1" -p 'process.versions.node' 2>/dev/null)" || return 1
  printf '%s\n' "${version%%.*}"
}

usable() {
  local major
  [[ -x "$1" ]] || return 1
  major="$(node_major "$1")" || return 1
  [[ "$major" =~ ^[0-9]+$ ]] && ((major >= min_major))
}

# Execs node on the CLI, the token moved from the environment to fd 3. A
# runner may also export the input under its own name, INPUT_GITHUB-TOKEN,
# which bash neither imports as a variable nor can unset: it is read from
# this shell's startup environment (builtins only: PATH may hold nothing but
# bash) and removed with env -u, so neither spelling reaches node.
launch() {
  local token="${INPUT_GITHUB_TOKEN:-}" entry hyphen=0
  if [[ -r "/proc/$$/environ" ]]; then
    while IFS= read -r -d '' entry; do
      [[ "$entry" == 'INPUT_GITHUB-TOKEN='* ]] || continue
      hyphen=1
      [[ -n "$token" ]] || token="${entry#*=}"
    done <"/proc/$$/environ"
  elif command -v env >/dev/null 2>&1; then
    hyphen=1 # no /proc to look in: remove it in case it is there
  fi
  if [[ -n "$token" ]]; then
    exec 3<<<"$token"
    export PERF_GATE_TOKEN_FD=3
  fi
  unset INPUT_GITHUB_TOKEN token entry
  if ((hyphen)) && command -v env >/dev/null 2>&1; then
    exec env -u 'INPUT_GITHUB-TOKEN' "$1" "$cli" action
  fi
  exec "$1" "$cli" action
}

if [[ -n "${PERF_GATE_NODE:-}" ]]; then
  if usable "$PERF_GATE_NODE"; then
    launch "$PERF_GATE_NODE"
  fi
  echo "::error title=perf-gate::node-path is set to '${PERF_GATE_NODE}', which is not a Node.js ${min_major} or newer that can run. Point it at a node binary (e.g. <runner>/externals/node20/bin/node) or leave it empty." >&2
  exit 2
fi

if command -v node >/dev/null 2>&1 && usable "$(command -v node)"; then
  launch "$(command -v node)"
fi
if command -v node >/dev/null 2>&1; then
  tried+=("$(command -v node) (on PATH, older than ${min_major})")
fi

roots=()
# The runner worker that started this step: <runner>/bin/Runner.Worker.
pid=$$
for _ in 1 2 3 4 5 6 7 8 9 10 11 12; do
  [[ -r "/proc/${pid}/stat" ]] || break
  exe="$(readlink "/proc/${pid}/exe" 2>/dev/null || true)"
  if [[ "$exe" == */bin/Runner.Worker ]]; then
    roots+=("$(dirname "$(dirname "$exe")")")
    break
  fi
  stat="$(cat "/proc/${pid}/stat" 2>/dev/null || true)"
  stat="${stat##*) }"
  read -r _state ppid _rest <<<"$stat"
  [[ "${ppid:-0}" -gt 1 ]] || break
  pid="$ppid"
done
if [[ -n "${RUNNER_TEMP:-}" ]]; then
  roots+=("$(dirname "$(dirname "$RUNNER_TEMP")")")
fi
if [[ -n "${GITHUB_ACTION_PATH:-}" ]]; then
  if action_root="$(cd "$GITHUB_ACTION_PATH/../../../../.." 2>/dev/null && pwd)"; then
    roots+=("$action_root")
  fi
fi

best=""
best_major=0
for root in "${roots[@]}"; do
  [[ -n "$root" ]] || continue
  for candidate in "$root"/externals/node*/bin/node; do
    [[ -e "$candidate" ]] || continue
    if usable "$candidate"; then
      major="$(node_major "$candidate")"
      if ((major > best_major)); then
        best="$candidate"
        best_major="$major"
      fi
    else
      tried+=("$candidate (older than ${min_major} or not runnable)")
    fi
  done
  tried+=("${root}/externals/node*/bin/node")
done

if [[ -n "$best" ]]; then
  launch "$best"
fi

{
  echo "::error title=perf-gate::no Node.js ${min_major} or newer found to run perf-gate."
  echo "Looked for: node on PATH, and the runner's own Node in:"
  for t in "${tried[@]}"; do echo "  - ${t}"; done
  echo "Fix: set the node-path input to a node binary (the runner ships one in <runner>/externals/node20/bin/node), or install Node before this step (actions/setup-node)."
} >&2
exit 2
