#!/usr/bin/env bash
# gpuplan-cli trace end to end: the trace of a preset is JSON Perfetto reads (traceEvents with
# process and thread names, slices in microseconds), and refusals (no --out, an --out that
# cannot be written leaves nothing behind).
# usage: cli_trace_test.sh GPUPLAN_CLI PRESETS_DIR
set -u
cli=$(realpath -- "$1") presets=$(realpath -- "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/expect.sh"

trace() { "$cli" trace --presets "$presets" "$@"; }
tide=$presets/scenarios/daily-tide.json

expect 0 'usage: gpuplan-cli trace SCENARIO --out TRACE.json' -- "$cli" trace --help
expect 2 'no scenario given' -- trace
expect 2 'no --out file given' -- trace "$tide"
expect 2 'nonexistent-dir' -- trace "$tide" --out /nonexistent-dir/t.json
expect 0 '[0-9]+ slices \(job bindings × GPUs\), [0-9]+ instants, [0-9]+ counter samples' -- \
    trace "$tide" --out "$work/t.json"

# Valid JSON; a process per node (8), a name per GPU thread (64 at least), slices in
# microseconds within the week, and the counters.
if python3 - "$work/t.json" >"$work/out" 2>&1 <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
ev = t["traceEvents"]
procs = {e["pid"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
threads = [e for e in ev if e["ph"] == "M" and e["name"] == "thread_name"]
slices = [e for e in ev if e["ph"] == "X"]
assert len(procs) == 9, procs  # 8 nodes and the cluster's counters
assert len(threads) >= 64, len(threads)
assert slices and all(0 <= e["ts"] and e["ts"] + e["dur"] <= 7 * 86400 * 10**6 for e in slices)
assert {e["name"] for e in ev if e["ph"] == "C"} == {"allocation", "queue_length"}
PY
then echo "ok: trace JSON"; else fail "the trace is not what Perfetto reads"; fi
if [ -e "$work/t.json.partial" ]; then fail "a partial trace was left behind"; fi

echo "$failures failure(s)"
[ "$failures" = 0 ]
