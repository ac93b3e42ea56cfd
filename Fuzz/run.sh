#!/usr/bin/env bash
# Fuzzes one input boundary with libFuzzer (and AddressSanitizer) for a bounded time.
#
#   Fuzz/run.sh TARGET SECONDS      TARGET: keys, json, text, diff, web, delivery (or "all")
#
# The seed corpus is Fuzz/Corpus/TARGET (read only); inputs the engine finds interesting go to
# .build-fuzz/corpus/TARGET, which later runs start from. A crash or a property that does not
# hold stops the run with a non-zero status and saves the input as
# .build-fuzz/artifacts/TARGET-crash-…: fix the code, then keep the input as a regression test
# by copying it into Fuzz/Regressions/TARGET/ (`swift test` checks every file there).
# Prints one summary line per target: executions, new coverage inputs, and the outcome.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: Fuzz/run.sh keys|json|text|diff|web|delivery|all SECONDS" >&2; exit 64; }
[ $# -eq 2 ] || usage
case "$2" in '' | *[!0-9]*) usage ;; esac
targets="$1"
[ "$targets" = all ] && targets="keys json text diff web delivery"
for target in $targets; do
  case "$target" in keys | json | text | diff | web | delivery) ;; *) usage ;; esac
done

swift build --package-path Fuzz --scratch-path .build-fuzz/build -c release \
  -Xswiftc -sanitize=fuzzer,address 2>&1 | grep -v "Cannot export local symbol" | tail -n 3
bin=$(swift build --package-path Fuzz --scratch-path .build-fuzz/build -c release \
  -Xswiftc -sanitize=fuzzer,address --show-bin-path)

# The targets run side by side: each is bounded by time, not work, so running them at once
# keeps the wall-clock near SECONDS whatever their number (each gets a share of the cores).
fuzz_one() {
  local target=$1 seconds=$2
  local work=.build-fuzz/corpus/$target
  local log=.build-fuzz/$target.log
  mkdir -p "$work" .build-fuzz/artifacts
  local outcome
  # Swift's backtracer and ASan's report must not both handle a crash; libFuzzer reports it.
  if SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$bin/fuzz-$target" \
    -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix=".build-fuzz/artifacts/$target-" "$work" "Fuzz/Corpus/$target" >"$log" 2>&1
  then
    outcome="no crash"
  else
    outcome="FAILED (see $log; input saved under .build-fuzz/artifacts/)"
    grep -E "property violated|ERROR: AddressSanitizer|Fatal error|deadly signal|Test unit written" \
      "$log" | head -n 5 >&2 || true
  fi
  local runs corpus
  runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  corpus=$(find "$work" -type f | wc -l | tr -d ' ')
  printf 'fuzz %-5s %4ss  %10s executions  %5s corpus inputs  %s\n' \
    "$target" "$seconds" "$runs" "$corpus" "$outcome" >".build-fuzz/$target.summary"
  [ "$outcome" = "no crash" ]
}

pids=()
for target in $targets; do
  fuzz_one "$target" "$2" &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
for target in $targets; do cat ".build-fuzz/$target.summary"; done
exit $status
