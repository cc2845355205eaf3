#!/usr/bin/env bash
# Moves the major tag of a release (v1 for v1.4.2) to the release's commit and
# pushes it, so workflows using `org/perf-gate@v1` get the new release.
# Usage: scripts/move-major-tag.sh vMAJOR.MINOR.PATCH [remote]
set -euo pipefail

tag="${1:-}"
remote="${2:-origin}"
if [[ ! "$tag" =~ ^v([0-9]+)\.[0-9]+\.[0-9]+$ ]]; then
  echo "move-major-tag: expected a release tag like v1.4.2, got '${tag}'" >&2
  exit 2
fi
major="v${BASH_REMATCH[1]}"
commit="$(git rev-parse --verify --quiet "refs/tags/${tag}^{commit}")" || {
  echo "move-major-tag: no tag ${tag} in this repository (fetch tags first)" >&2
  exit 2
}
git tag --force "$major" "$commit"
git push --force "$remote" "refs/tags/${major}"
echo "moved ${major} to ${commit} (${tag})"
