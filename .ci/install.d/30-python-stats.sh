#!/usr/bin/env bash
# Reference implementations the statistics tests compare against:
# scipy (Mann-Whitney, Welch, Wilcoxon, Benjamini-Hochberg) and benchstat.
set -euo pipefail

if ! python3 -c 'import scipy' >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore 'scipy>=1.11'
fi

gobin="$(go env GOPATH)/bin"
if [ ! -x "$gobin/benchstat" ]; then
  go install golang.org/x/perf/cmd/benchstat@latest
fi
