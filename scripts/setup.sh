#!/usr/bin/env bash
# `npm run setup`: installs everything the tests run for real, on a Debian
# machine (as root; otherwise apt-get runs through sudo). One script per tool
# group under scripts/install/, each checking before it installs: a second run
# installs and builds nothing and says so. The README's test command is
#   npm ci && npm run setup && npm test
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

did_list="$(mktemp)"
trap 'rm -f "$did_list"' EXIT
export PERF_GATE_SETUP_DID="$did_list"

start=$SECONDS
for script in "$root"/scripts/install/[0-9]*.sh; do
  bash "$script"
done

if [ -s "$did_list" ]; then
  echo "setup: done in $((SECONDS - start)) s; installed or built: $(paste -sd ';' "$did_list" | sed 's/;/; /g')"
else
  echo "setup: everything was already installed; nothing to do ($((SECONDS - start)) s)"
fi
