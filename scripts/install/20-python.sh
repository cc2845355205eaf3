#!/usr/bin/env bash
# Python packages (pip, into the python3 on PATH): numpy and scipy, the
# reference implementations the statistics tests compare against; pytest and
# pytest-benchmark, which the pytest adapters run for real; asv, which the asv
# adapter test runs on a tiny suite (--python=same: no environments to build).
set -euo pipefail
# shellcheck source=scripts/install/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

require python3 "install Python 3 (apt-get install python3 python3-pip)"
if ! python3 -c 'import numpy, scipy, pytest, pytest_benchmark' >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
    'numpy' 'scipy>=1.11' 'pytest' 'pytest-benchmark>=5'
  did "pip install numpy scipy pytest pytest-benchmark"
fi
if ! python3 -c 'import asv' >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore 'asv>=0.6'
  did "pip install asv"
fi
