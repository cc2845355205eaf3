#!/usr/bin/env bash
# Tools the preflight, scripts/tune and scaling tests run for real: the
# ShellCheck linter (action/test/scripts/tune.test.ts lints scripts/tune) and a C
# compiler and hyperfine (action/test/gate/scaling.test.ts times linear and
# quadratic programs over a parameter sweep).
set -euo pipefail

need=()
command -v shellcheck >/dev/null || need+=(shellcheck)
command -v cc >/dev/null || need+=(gcc libc6-dev)
command -v hyperfine >/dev/null || need+=(hyperfine)
if [ "${#need[@]}" -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "missing ${need[*]}; install them as root (apt-get install ${need[*]})" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null \
    || { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; }
fi
