#!/usr/bin/env bash
# gpuplan-cli end to end: exit codes (0 ok, 2 bad input), messages and outputs.
# usage: cli_test.sh GPUPLAN_CLI PRESETS_DIR TEST_DATA_DIR
set -u
cli=$1 presets=$2 data=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/expect.sh"

expect 0 '^gpuplan-cli [0-9]+\.[0-9]+\.[0-9]+$' -- "$cli" --version
expect 0 'commands:' -- "$cli" --help
expect 0 'usage: gpuplan-cli run SCENARIO' -- "$cli" run --help
expect 0 'usage: gpuplan-cli validate' -- "$cli" validate --help
expect 0 'usage: gpuplan-cli bench' -- "$cli" bench --help
expect 2 'unknown command "frobnicate"' -- "$cli" frobnicate
expect 2 'no scenario given' -- "$cli" run
expect 2 'unknown option --bogus' -- "$cli" run "$presets/scenarios/default.json" --bogus
expect 2 '--seed needs a whole number from 0 to [0-9]+, got "x"' -- "$cli" run "$presets/scenarios/default.json" --seed x
expect 2 '--out needs a value' -- "$cli" run "$presets/scenarios/default.json" --out --csv x
expect 2 '--csv: cannot create' -- "$cli" run "$presets/scenarios/default.json" --csv /proc/nope

expect 0 '^ok: .*32 nodes, 256 GPUs' -- "$cli" validate "$presets/scenarios/default.json"
expect 2 'negative-count.json: /topology/pods/0/racks/0/nodes/0/count: must be between 1 and 200000, got -4' \
    -- "$cli" validate "$data/malformed/negative-count.json"
expect 2 'truncated.json: line [0-9]+, column [0-9]+: invalid JSON: the file ends too early' \
    -- "$cli" validate "$data/malformed/truncated.json"
expect 2 'file not found' -- "$cli" validate "$work/missing.json"
# The run budget: validate prints the estimate; a scenario over the budget is refused by every
# command before anything runs, naming what costs most.
expect 0 '^estimated run: about [0-9]+ jobs, [0-9]+ events' -- "$cli" validate "$presets/scenarios/default.json"
expect 2 'default.json: /: the run would take about .* work units \(budget 1e\+03.*most of it from /' \
    -- "$cli" validate "$presets/scenarios/default.json" --budget-ops 1000
expect 2 'the run would need about .* GB of memory' -- "$cli" run "$presets/scenarios/default.json" --budget-gb 0.0001
expect 2 '--budget-gb needs a number above 0' -- "$cli" validate "$presets/scenarios/default.json" --budget-gb 0
expect 2 '--budget-ops needs a number above 0' -- "$cli" run "$presets/scenarios/default.json" --budget-ops=lots

# run: KPI table, JSON with the KPI names, CSVs; --seed changes the fingerprint.
expect 0 'allocation_mean' -- "$cli" run "$presets/scenarios/default.json" --out "$work/r.json" --csv "$work/csv"
for key in '"kpis"' '"series"' '"fingerprint"' '"allocation_mean"' '"wait_s_p95"' '"goodput"' \
           '"pending_gpus{reservation}"' '"stranded_gpus"' '"time_s"'; do
    grep -q -- "$key" "$work/r.json" || { echo "FAIL: results.json lacks $key"; failures=$((failures + 1)); }
done
for f in series.csv allocation.csv pending_gpus_workload.csv jobs.csv; do
    [ -s "$work/csv/$f" ] || { echo "FAIL: --csv did not write $f"; failures=$((failures + 1)); }
done
head -1 "$work/csv/allocation.csv" | grep -qx 'time_s,allocation' || { echo "FAIL: allocation.csv header"; failures=$((failures + 1)); }
a=$("$cli" run "$presets/scenarios/default.json" | grep fingerprint)
b=$("$cli" run "$presets/scenarios/default.json" | grep fingerprint)
c=$("$cli" run "$presets/scenarios/default.json" --seed 7 | grep fingerprint)
[ "$a" = "$b" ] || { echo "FAIL: same seed, different fingerprint"; failures=$((failures + 1)); }
[ "$a" != "$c" ] || { echo "FAIL: --seed did not change the fingerprint"; failures=$((failures + 1)); }

# run --by: KPIs per team / class; --out has the descriptions and the groups; jobs.csv columns.
expect 0 '^product +[0-9.]+ %' -- "$cli" run "$presets/scenarios/default.json" --by team
expect 0 '^notebook' -- "$cli" run "$presets/scenarios/default.json" --by class
expect 2 '--by takes team or class, got "pod"' -- "$cli" run "$presets/scenarios/default.json" --by pod
expect 0 'jobs_waiting_at_end +[0-9]+ +Jobs queued when the run ends' -- "$cli" run "$presets/scenarios/default.json"
for key in '"kpi_descriptions"' '"by_team"' '"by_class"' '"gpus_waiting_at_end"' 'lower bound'; do
    grep -q -- "$key" "$work/r.json" || { echo "FAIL: results.json lacks $key"; failures=$((failures + 1)); }
done
head -1 "$work/csv/jobs.csv" | grep -qx 'job,name,class,team,gpus,gpus_per_pod,priority,submit_s,duration_s,startup_s,start_s,end_s,wait_s,status,slowdown,evictions,nodes,pending_layer,pending_reason,pending_token,lost_work_s,checkpoint_interval_s,preemptions,longest_wait_s,thrashing,starved,cost_usd,max_gpus,resizes' \
    || { echo "FAIL: jobs.csv header: $(head -1 "$work/csv/jobs.csv")"; failures=$((failures + 1)); }

# why: the pending list at T, as the application shows it; bad T and unknown jobs exit 2.
expect 0 'usage: gpuplan-cli why SCENARIO --at T' -- "$cli" why --help
expect 0 'why SCENARIO --at T' -- "$cli" --help
expect 0 '^pending at 36h \(129600 s\): [0-9]+ job\(s\)' -- "$cli" why "$presets/scenarios/default.json" --at 36h
expect 0 '"time_s": 129600' -- "$cli" why "$presets/scenarios/default.json" --at 1.5d --json
# GPU-equivalents, not requests: one 3g.40gb instance waits, 3/7 of a GPU.
expect 0 '^pending at 1h \(3600 s\): 1 job\(s\) asking 0.43 GPUs' -- "$cli" why "$data/why-mig.json" --at 1h
expect 0 '^waits +t +0.43 ' -- "$cli" why "$data/why-mig.json" --at 1h
expect 0 '"gpu_equivalents": 0.42857142857142855' -- "$cli" why "$data/why-mig.json" --at 1h --json
expect 2 '--at T is required' -- "$cli" why "$presets/scenarios/default.json"
expect 2 '--at: "soon" is not a time' -- "$cli" why "$presets/scenarios/default.json" --at soon
# The whole text is the time: no hex, no spaces, no trailing junk; a tiny exponent is 0 s.
expect 2 '--at: "0x10" is not a time' -- "$cli" why "$presets/scenarios/default.json" --at 0x10
expect 2 '--at: " 5h" is not a time' -- "$cli" why "$presets/scenarios/default.json" --at " 5h"
expect 2 '--at: "5h " is not a time' -- "$cli" why "$presets/scenarios/default.json" --at "5h "
expect 2 '--at: "1e400" is not a time' -- "$cli" why "$presets/scenarios/default.json" --at 1e400
expect 2 '--at: "nan" is not a time' -- "$cli" why "$presets/scenarios/default.json" --at nan
expect 0 '^pending at 5e-400 \(0 s\)' -- "$cli" why "$presets/scenarios/default.json" --at 5e-400
expect 0 '^pending at 1.5e1min \(900 s\)' -- "$cli" why "$presets/scenarios/default.json" --at 1.5e1min
expect 2 '--at 8d is outside the run: give 0 to 604800 s' -- "$cli" why "$presets/scenarios/default.json" --at 8d
expect 2 '--at -5 is outside the run' -- "$cli" why "$presets/scenarios/default.json" --at=-5
expect 2 'no job named "nope"' -- "$cli" why "$presets/scenarios/default.json" --at 1h --job nope
# One 8-GPU node held by "long" (8 GPUs, 0–8,000 s, past the 7,200 s horizon): "waiter" (4 GPUs) is submitted at 650,
# between the samples at 600 and 1,200, and never starts. At 1,550 it has waited 900 s =
# 15 min; at 700 it is listed though no sample has seen it yet; at the end it is waiting.
cat >"$work/overloaded.json" <<'JSON'
{"format": "gpuplan-scenario", "formatVersion": 1, "name": "overloaded", "horizonS": 7200,
 "sampleIntervalS": 600,
 "topology": {"pods": [{"name": "pod", "count": 1, "racks": [{"name": "rack", "count": 1,
   "nodes": [{"name": "node", "count": 1, "nodeType": "dgx-h100"}]}]}]},
 "teams": [{"name": "t"}],
 "jobs": [{"name": "long", "team": "t", "gpus": 8, "durationS": 8000, "submitS": 0},
          {"name": "waiter", "team": "t", "gpus": 4, "durationS": 600, "submitS": 650}]}
JSON
expect 0 '^waiter +t +4 scheduling +15\.0 min  0/1 nodes are available' -- "$cli" why "$work/overloaded.json" --at 1550 --job waiter
expect 0 '"job": "waiter"' -- "$cli" why "$work/overloaded.json" --at 700 --json
expect 0 'jobs_waiting_at_end +1 ' -- "$cli" run "$work/overloaded.json"
# Waits 0 (long) and 7,200 − 650 = 6,550 s (waiter, censored): p95 = the 2nd = 109.2 min.
expect 0 'wait_s_p95 +109\.2 min' -- "$cli" run "$work/overloaded.json"

# bench runs and reports the benchmark's figures (the quick one only: timing is not tested).
expect 0 '"name":"default_scenario".*"events_per_s"' -- "$cli" bench --json --only default_scenario --repeat 1

echo "$failures failure(s)"
[ "$failures" = 0 ]
