#!/usr/bin/env bash
# What deterministic tests cost the ordinary tests beside them. One Swift Testing process runs
# 300 ordinary async tests (Tests/MixedSuiteTests), with or without three deterministic tests
# and one exploring test (MIXED_SUITE_DETERMINISTIC=1); each ordinary test records its own
# duration, start to end, and the time and thread of its steps. The kinds of run alternate (the
# order flips every pair, so that a drift of the machine hits both), in a debug build and a
# thread-sanitizer build, on an idle machine and with one spinning `yes` per core. Prints, per
# configuration: the process's wall time, the ordinary tests' span, median and p95 durations
# (over every run's 300), their sum and their longest pause, with and without, and the ratios;
# then how many of the ordinary tests' steps ran during a deterministic run, and on its thread.
# The figures and what they say: docs/performance.md, "A mixed suite".
#
#   Benchmarks/mixed-suite.sh [--runs N] [--builds plain,tsan] [--loads idle,loaded]
#                             [--schedules N] [--control MS] [--keep DIR]
#
# --runs: pairs of runs per configuration (default 10). --schedules: the exploring test's
# schedules (default 1,000). --control: a third kind of run, the control, in which a plain test
# that keeps a core busy for MS milliseconds (in 0.1 ms slices, yielding between them) stands
# beside the ordinary tests instead of the deterministic ones. --keep: leave each run's record
# and output in DIR.
set -euo pipefail
cd "$(dirname "$0")"

runs=10
builds=plain,tsan
loads=idle,loaded
schedules=1000
control=""
keep=""
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --builds) builds=$2; shift 2 ;;
    --loads) loads=$2; shift 2 ;;
    --schedules) schedules=$2; shift 2 ;;
    --control) control=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$(basename "$0")"; exit 0 ;;
    *)
      echo "usage: $0 [--runs N] [--builds plain,tsan] [--loads idle,loaded] [--schedules N] [--control MS] [--keep DIR]" >&2
      exit 2
      ;;
  esac
done

work=${keep:-$(mktemp -d)}
mkdir -p "$work"
product=swift-schedulers-benchmarksPackageTests
spinners=()
stop_load() {
  for pid in "${spinners[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${spinners[@]}"; do wait "$pid" 2>/dev/null || true; done
  spinners=()
}
cleanup() {
  stop_load
  if [ -z "$keep" ]; then rm -rf "$work"; fi
}
trap cleanup EXIT

# Only the test product: the other targets of the package (the peers) are not needed.
# The sanitizer's build is .ci/run's: pthread-based locks the sanitizer can see.
binary_for() {
  case $1 in
    plain)
      swift build --product "$product" >&2
      echo "$(swift build --show-bin-path)/$product.xctest"
      ;;
    tsan)
      local flags=(--sanitize=thread --scratch-path .build-tsan -Xswiftc -DSCHEDULERS_SANITIZER_VISIBLE_LOCKS)
      swift build --product "$product" "${flags[@]}" >&2
      echo "$(swift build "${flags[@]}" --show-bin-path)/$product.xctest"
      ;;
    *) echo "unknown build $1" >&2; exit 2 ;;
  esac
}

# One run: `with` is 1 (the deterministic tests), 0 (none) or 2 (the control). Appends
# `build load with microseconds record` to the index.
run_once() {
  local build=$1 load=$2 with=$3 number=$4 binary=$5
  local name="$work/$build-$load-$with-$number"
  local started ended status=0
  local busy=()
  if [ "$with" = 2 ]; then busy=(MIXED_SUITE_BUSY_MS="$control"); fi
  rm -f "$name.record"
  started=$(date +%s%N)
  env MIXED_SUITE_RECORD="$name.record" MIXED_SUITE_DETERMINISTIC=$((with == 1)) \
    MIXED_SUITE_SCHEDULES="$schedules" "${busy[@]}" "$binary" --testing-library swift-testing \
    >"$name.log" 2>&1 || status=$?
  ended=$(date +%s%N)
  if [ $status -ne 0 ] || grep -q "WARNING: ThreadSanitizer" "$name.log"; then
    echo "mixed-suite: $build $load run $number (with=$with) failed (status $status):" >&2
    { grep -A30 "WARNING: ThreadSanitizer" "$name.log" || tail -20 "$name.log"; } | head -60 >&2
    exit 1
  fi
  echo "$build $load $with $(((ended - started) / 1000)) $name.record" >>"$work/index"
}

: >"$work/index"
measure_started=$(date +%s)
for build in ${builds//,/ }; do
  binary=$(binary_for "$build")
  for load in ${loads//,/ }; do
    if [ "$load" = loaded ]; then
      for _ in $(seq "$(nproc)"); do
        yes >/dev/null &
        spinners+=($!)
      done
    fi
    echo "mixed-suite: $build, $load, $runs pairs; load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    echo "$build $load loadavg $(cut -d' ' -f1-3 /proc/loadavg)" >>"$work/machine"
    for number in $(seq "$runs"); do
      if [ $((number % 2)) -eq 1 ]; then order="0 1"; else order="1 0"; fi
      if [ -n "$control" ]; then order="$order 2"; fi
      for with in $order; do run_once "$build" "$load" "$with" "$number" "$binary"; done
    done
    echo "$build $load loadavg-after $(cut -d' ' -f1-3 /proc/loadavg)" >>"$work/machine"
    stop_load
  done
done
measure_seconds=$(($(date +%s) - measure_started))

python3 - "$work/index" "$work/machine" "$runs" "$schedules" "$measure_seconds" "$control" <<'PY'
import statistics, sys
index, machine, runs, schedules, seconds, control = sys.argv[1:]

def percentile(values, fraction):
    values = sorted(values)
    return values[min(len(values) - 1, int(fraction * len(values)))]

# Per build, load and with (1) or without (0): each run's wall time, its ordinary tests'
# durations (pooled), the sum of those per run, the span from the first ordinary test's start
# to the last one's end, and the longest pause with no ordinary step (start, a return from a
# sleep, or end) while ordinary tests were under way. All in ms but the wall time.
table = {}
for line in open(index):
    build, load, with_, micros, record = line.split()
    rows = [l.split() for l in open(record)]
    ordinary = [r for r in rows if r[0] == "ordinary"]
    others = [r for r in rows if r[0] in ("deterministic", "exploring")]
    if len(ordinary) != 300:
        sys.exit(f"mixed-suite: {record} holds {len(ordinary)} ordinary tests, not 300")
    if len(others) != (4 if with_ == "1" else 0):
        sys.exit(f"mixed-suite: {record} holds {len(others)} deterministic tests")
    events = sorted([int(t.split(":")[0]) for r in ordinary for t in r[4].split(",")]
                    + [int(r[3]) for r in ordinary])
    entry = table.setdefault((build, load, with_), {k: [] for k in ("wall", "ms", "sums", "span", "pause")})
    durations = [(int(r[3]) - int(r[2])) / 1e6 for r in ordinary]
    entry["wall"].append(int(micros) / 1e6)
    entry["ms"] += durations
    entry["sums"].append(sum(durations))
    entry["span"].append((events[-1] - events[0]) / 1e6)
    entry["pause"].append(max(b - a for a, b in zip(events, events[1:])) / 1e6)
    # Where the ordinary steps ran while a run's body was in progress: the windows of the
    # deterministic tests' bodies, and the exploration's, each schedule's from its body's start
    # to the next's (the last to the exploring test's end: the gaps between runs included),
    # each with the thread its body started on.
    windows = {"deterministic": [], "exploring": []}
    for r in others:
        if r[0] == "deterministic":
            (start, thread), (end, _) = [map(int, step.split(":")) for step in r[4].split(",")]
            windows["deterministic"].append((start, end, thread))
    starts = sorted((int(r[2]), int(r[3])) for r in rows if r[0] == "schedule")
    if starts:
        explored_end = next(int(r[3]) for r in others if r[0] == "exploring")
        for (start, thread), (end, _) in zip(starts, starts[1:] + [(explored_end, 0)]):
            windows["exploring"].append((start, end, thread))
    steps = [tuple(map(int, step.split(":"))) for r in ordinary for step in r[4].split(",")]
    entry.setdefault("steps", []).append(len(steps))
    for kind, spans in windows.items():
        inside = [(thread, w[2]) for time, thread in steps for w in spans if w[0] <= time < w[1]]
        entry.setdefault(kind, []).append(len(inside))
        entry.setdefault(kind + " same", []).append(sum(1 for a, b in inside if a == b))

states = {}
for line in open(machine):
    build, load, _, first, *_ = line.split()
    states.setdefault((build, load), []).append(first)

print(f"300 ordinary tests per run; with: 3 deterministic tests and 1 exploring test "
      f"({int(schedules):,} schedules) beside them. {runs} runs of each, alternating. "
      + (f"The control: a plain test busy for {control} ms beside them instead. " if control else "")
      + f"{seconds} s in all. Wall time, span, sum and longest pause: median of the runs; "
      f"median and p95: over every run's ordinary tests. Load average: 1 minute, at the "
      f"start and end of the configuration.\n")
print("| build | machine (load average) | ordinary tests | wall time of the run | ordinary "
      "tests' span, ms | ordinary test, median ms | p95 ms | sum ms | longest pause, ms |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for build in dict.fromkeys(k[0] for k in table):
    for load in dict.fromkeys(k[1] for k in table if k[0] == build):
        got = {}
        state = " to ".join(states.get((build, load), []))
        for with_ in ("0", "1", "2"):
            e = table.get((build, load, with_))
            if not e:
                continue
            got[with_] = (statistics.median(e["wall"]), statistics.median(e["span"]),
                          statistics.median(e["ms"]), percentile(e["ms"], 0.95),
                          statistics.median(e["sums"]), statistics.median(e["pause"]))
            wall, span, median, p95, total, pause = got[with_]
            label = {"0": "without", "1": "with", "2": "control"}[with_]
            print(f"| {build} | {load} ({state}) | {label} | {wall:.3f} s | {span:.1f} | "
                  f"{median:.2f} | {p95:.2f} | {total:,.0f} | {pause:.1f} |")
        for with_, label in (("1", "ratio, with ÷ without"), ("2", "ratio, control ÷ without")):
            if with_ in got and "0" in got:
                r = [w / o for w, o in zip(got[with_], got["0"])]
                print(f"| {build} | {load} | {label} | " + " | ".join(f"{x:.2f}x" for x in r) + " |")

print("\nWhere the ordinary tests' steps (their start and each return from a sleep) ran in "
      "the runs with, all runs together: during a deterministic test's run (from its body's "
      "start to its end), and during the exploration (from its first schedule's body to its "
      "end, the moments between schedules included); and of those, how many on the thread "
      "that run's body (or the schedule's) started on.\n")
print("| build | machine | ordinary steps | during a deterministic test's run | on its thread | "
      "during the exploration | on the schedule's thread |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for (build, load, with_), e in table.items():
    if with_ != "1":
        continue
    steps = sum(e["steps"])
    cells = []
    for kind in ("deterministic", "exploring"):
        inside, same = sum(e[kind]), sum(e[kind + " same"])
        cells += [f"{inside:,} ({inside / steps:.0%})", f"{same:,} ({same / max(inside, 1):.0%})"]
    print(f"| {build} | {load} | {steps:,} | " + " | ".join(cells) + " |")
PY
