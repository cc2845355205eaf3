#!/usr/bin/env bash
# Python packages (pip, into the python3 on PATH): numpy and scipy, the
# reference implementations the statistics tests compare against; pytest and
# pytest-benchmark, which the pytest adapters run for real; asv, which the asv
# adapter test runs on a tiny suite (--python=same: no environments to build);
# pyperf, which the pyperf adapter, its compare_to test and examples/python-pyperf run.
set -euo pipefail
# shellcheck source=scripts/install/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

require python3 "install Python 3 (apt-get install python3 python3-pip)"
if ! python3 -c 'import numpy, scipy, pytest, pytest_benchmark' >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
    'numpy' 'scipy>=1.11' 'pytest' 'pytest-benchmark>=5'
  did "pip install numpy scipy pytest pytest-benchmark"
fi
if ! python3 -c 'import pyperf' >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore 'pyperf==2.11.0'
  did "pip install pyperf"
fi
if ! python3 -c 'import asv' >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore 'asv>=0.6'
  did "pip install asv"
fi

# Apache Otava, the reference the change-point tests compare with, in a venv of
# its own: it pins numpy and scipy versions of its own.
otava_venv="${XDG_CACHE_HOME:-$HOME/.cache}/perf-gate/otava-venv"
if ! "$otava_venv/bin/python" -c 'import importlib.metadata as m; assert m.version("apache-otava") == "0.8.0"' >/dev/null 2>&1; then
  rm -rf "$otava_venv"
  python3 -m venv "$otava_venv"
  "$otava_venv/bin/pip" install --quiet --disable-pip-version-check 'apache-otava==0.8.0'
  did "pip install apache-otava 0.8.0 (venv $otava_venv)"
fi
