# shellcheck shell=bash
# Sourced by .ci/install.d/*.sh: installs Debian packages that are missing,
# refreshing the package lists only when a first attempt cannot find them.
apt_install() {
  [ "$#" -gt 0 ] || return 0
  if [ "$(id -u)" != 0 ]; then
    echo "missing $*; install them as root (apt-get install $*)" >&2
    return 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends "$@" >/dev/null \
    || { apt-get update -qq && apt-get install -y -qq --no-install-recommends "$@" >/dev/null; }
}
