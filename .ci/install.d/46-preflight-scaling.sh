#!/usr/bin/env bash
# Tools the preflight, scripts/tune and scaling tests run for real: the
# ShellCheck linter (action/test/scripts/tune.test.ts lints scripts/tune) and a C
# compiler and hyperfine (action/test/gate/scaling.test.ts times linear and
# quadratic programs over a parameter sweep).
set -euo pipefail
# shellcheck source=.ci/apt.sh
source "$(dirname "${BASH_SOURCE[0]}")/../apt.sh"

need=()
command -v shellcheck >/dev/null || need+=(shellcheck)
command -v cc >/dev/null || need+=(gcc libc6-dev)
command -v hyperfine >/dev/null || need+=(hyperfine)
apt_install "${need[@]}"
