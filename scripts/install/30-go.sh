#!/usr/bin/env bash
# Go tools, with `go install` into $(go env GOPATH)/bin, where the tests look
# for them (no PATH change needed): benchstat, the Mann-Whitney reference,
# actionlint, the workflow linter, and the load generators vegeta and hey
# (their adapters' tests and examples/http-server). Then one build of examples/go's test binary,
# so the go-bench tests measure instead of compiling.
set -euo pipefail
# shellcheck source=scripts/install/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then export PATH="/usr/local/go/bin:$PATH"; fi
require go "the machine image provides Go (or: apt-get install golang-go)"

gobin="$(go env GOPATH)/bin"
go_tool() {
  local name="$1" module="$2"
  if [ ! -x "$gobin/$name" ]; then
    go install "$module"
    did "go install $module"
  fi
}
go_tool benchstat golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
go_tool actionlint github.com/rhysd/actionlint/cmd/actionlint@v1.7.12
go_tool vegeta github.com/tsenart/vegeta/v12@v12.13.0
go_tool hey github.com/rakyll/hey@v0.1.5

stamp="$(go env GOCACHE)/perf-gate-examples-go.stamp"
if stale "$stamp" "$ROOT/examples/go"; then
  (cd "$ROOT/examples/go" && go test -run '^$' -count 1 ./... >/dev/null)
  mkdir -p "$(dirname "$stamp")" && touch "$stamp"
  did "go test (build) examples/go"
fi
