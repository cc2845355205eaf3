#!/usr/bin/env bash
# The detection benchmark (bench/detect) compiles its CPU-bound workload with gcc;
# its collector test does too.
set -euo pipefail

if ! command -v gcc >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc >/dev/null
fi
