#!/bin/sh
# Runs a command beside a real build instead of the benchmarks' spinners: clean debug builds of
# this package (its sources and tests, in a scratch directory of their own), one after another,
# from 20 seconds before the command starts (so that the build is compiling by then) until it
# ends. A build loads the machine as a developer's does: both cores, memory, the disk.
#
#   Benchmarks/beside-a-build.sh swift run -c release --package-path Benchmarks sleep-bench \
#     --repetitions 20000 --no-load
#
# The command's rows say "idle" (the benchmark's own load is off); its exit status is the
# script's. Once the command ends, the build under way finishes before the script returns.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
(
  while [ ! -f "$scratch/stop" ]; do
    rm -rf "$scratch/build"
    swift build --package-path "$root" --scratch-path "$scratch/build" --build-tests \
      > /dev/null 2>&1 || true
  done
) &
builds=$!
sleep "${BESIDE_A_BUILD_WARM_UP_SECONDS:-20}"
status=0
"$@" || status=$?
touch "$scratch/stop"
wait "$builds"
rm -rf "$scratch"
exit "$status"
