#!/usr/bin/env bash
# Harnesses the interpreted-language adapter tests run for real:
# pytest-benchmark (pytest --benchmark-json) and pytest's own --junitxml.
# tinybench, mitata and benchmark (Benchmark.js) come from npm devDependencies.
set -euo pipefail

if ! python3 -c 'import pytest_benchmark' >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore 'pytest-benchmark>=5'
fi
