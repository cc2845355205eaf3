# shellcheck shell=bash
# Sourced by scripts/install/*.sh. Each install script checks first and
# installs only what is missing, so a second `npm run setup` installs and
# builds nothing. What a script did install or build is reported with `did`
# (scripts/setup.sh prints the list at the end).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export ROOT

# Appends one line to the list of what this setup run installed or built.
did() {
  echo "setup: $*"
  if [ -n "${PERF_GATE_SETUP_DID:-}" ]; then echo "$*" >>"$PERF_GATE_SETUP_DID"; fi
}

# Runs a command as root: directly when we are root, else through sudo.
as_root() {
  if [ "$(id -u)" = 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    echo "setup: needs root (or sudo) for: $*" >&2
    return 1
  fi
}

# Debian packages to install, collected by need_command / need_package.
APT_MISSING=()

# need_command COMMAND PACKAGE...: install PACKAGE(s) when COMMAND is not on PATH.
need_command() {
  local command="$1"
  shift
  command -v "$command" >/dev/null 2>&1 || APT_MISSING+=("$@")
}

# need_package PACKAGE: install PACKAGE when dpkg does not list it as installed
# (for libraries and files, which no command on PATH shows).
need_package() {
  local status
  status="$(dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null || true)"
  [ "${status:0:2}" = ii ] || APT_MISSING+=("$1")
}

# Installs the collected Debian packages, if any, refreshing the package lists
# only when a first attempt cannot find them (a fresh machine has none).
apt_install_missing() {
  [ "${#APT_MISSING[@]}" -gt 0 ] || return 0
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: no apt-get here; install these with your package manager: ${APT_MISSING[*]}" >&2
    return 1
  fi
  if [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null 2>&1; then
    echo "setup: Debian packages ${APT_MISSING[*]} are missing: run npm run setup as root (or with sudo installed)" >&2
    return 1
  fi
  local apt=(env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${APT_MISSING[@]}")
  if ! as_root "${apt[@]}" >/dev/null 2>&1; then
    as_root apt-get update -qq || return 1
    as_root "${apt[@]}" >/dev/null || return 1
  fi
  did "apt-get install ${APT_MISSING[*]}"
  APT_MISSING=()
}

# require COMMAND HINT: fail with HINT when a toolchain this script builds with is missing.
require() {
  command -v "$1" >/dev/null 2>&1 || { echo "setup: $1 is missing: $2" >&2; exit 1; }
}

# stale STAMP DIR: true when STAMP is missing or a file in DIR (outside target/)
# is newer, i.e. a warm build of DIR has not run since its sources changed.
stale() {
  local stamp="$1" dir="$2"
  [ -f "$stamp" ] || return 0
  [ -n "$(find "$dir" -path "$dir/target" -prune -o -type f -newer "$stamp" -print -quit)" ]
}
