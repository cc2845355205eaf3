#!/usr/bin/env bash
# Java: the shaded JMH jar of examples/java-jmh (Maven downloads JMH and its
# plugins once), so the JMH tests measure instead of building.
set -euo pipefail
# shellcheck source=scripts/install/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

require java "apt-get install default-jdk-headless (scripts/install/10-debian.sh does)"
require mvn "apt-get install maven (scripts/install/10-debian.sh does)"

example="$ROOT/examples/java-jmh"
stamp="$example/target/.perf-gate-setup"
if [ ! -f "$example/target/benchmarks.jar" ] || stale "$stamp" "$example"; then
  (cd "$example" && mvn -q -B -Dstyle.color=never package -DskipTests)
  mkdir -p "$(dirname "$stamp")" && touch "$stamp"
  did "mvn package examples/java-jmh"
fi
