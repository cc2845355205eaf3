#!/usr/bin/env bash
# Debian packages: the system tools the tests run for real (apt-get, as root or
# through sudo). Each line names what uses it.
set -euo pipefail
# shellcheck source=scripts/install/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_command hyperfine hyperfine        # the hyperfine adapter, `perf-gate run` suites, the examples
need_command git git                    # `perf-gate run --ab` worktrees, the release-tag script
need_command cc gcc libc6-dev           # the small C programs the tests measure
need_command gcc gcc libc6-dev
need_command g++ g++                    # Google Benchmark (adapters/gbench)
need_package libbenchmark-dev           # Google Benchmark headers and library
need_package catch2                     # Catch2 v2 header (adapters/catch2, examples/catch2)
need_command taskset util-linux         # CPU pinning in `perf-gate run`
need_package time                       # GNU time -v (/usr/bin/time; not the shell keyword)
need_command wrk wrk                    # the wrk adapter and examples/http-server
need_command h2load nghttp2-client      # the h2load adapter (real h2load against a loopback server)
need_command ab apache2-utils           # the ab adapter (ApacheBench)
need_command perf linux-perf            # perf stat
need_command strace strace              # strace -c
need_command valgrind valgrind          # massif, callgrind, cachegrind (counting: perf-gate count, measure: counts)
need_command patch patch                # examples/c-counting applies the slower head's patch
need_command shellcheck shellcheck      # the shell-script lint tests (and actionlint's run: checks)
need_command java default-jdk-headless  # JMH (scripts/install/50-java.sh); the image usually has it
need_command mvn maven
need_command ruby ruby                  # Ruby Benchmark.bm (adapters/ruby-benchmark)
need_package ruby-benchmark-ips         # benchmark-ips (adapters/benchmark-ips)
need_command chromium chromium          # the dashboard's browser test (action/test/report/dashboard.browser.test.ts, through playwright-core) and bench/dashboard.ts
apt_install_missing
