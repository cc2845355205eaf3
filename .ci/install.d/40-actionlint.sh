#!/usr/bin/env bash
# actionlint and shellcheck for the workflow and script lint tests
# (action/test/lint/workflows.test.ts). Idempotent and quiet.
set -euo pipefail

if ! command -v shellcheck >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get install -y -qq --no-install-recommends shellcheck >/dev/null 2>&1 \
      || { apt-get update -qq && apt-get install -y -qq --no-install-recommends shellcheck >/dev/null; }
  else
    echo "40-actionlint: shellcheck is missing and cannot be installed without root" >&2
    exit 1
  fi
fi

if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then
  export PATH="/usr/local/go/bin:$PATH"
fi
gobin="$(go env GOPATH)/bin"
if [ ! -x "$gobin/actionlint" ]; then
  go install github.com/rhysd/actionlint/cmd/actionlint@latest
fi
"$gobin/actionlint" -version >/dev/null
