#!/usr/bin/env bash
# gpuplan-cli sweep end to end: a grid with replications, its files, the same bytes from three
# shards merged as from one machine, --find, and refusals (a bad shard, a missing shard,
# another sweep's shard, a value the scenario may not hold).
# usage: cli_sweep_test.sh GPUPLAN_CLI PRESETS_DIR
set -u
cli=$(realpath -- "$1") presets=$(realpath -- "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/expect.sh"

sweep() { "$cli" sweep --presets "$presets" "$@"; }
cat >"$work/grid.json" <<JSON
{"format": "gpuplan-sweep", "formatVersion": 1, "scenario": "$presets/scenarios/default.json",
 "replications": 2,
 "parameters": [{"pointer": "/demandMultiplier", "values": [0.5, 1.5]},
                {"pointer": "/scheduler/placement", "values": ["pack", "spread"]}]}
JSON

expect 0 'usage: gpuplan-cli sweep SPEC.json --out DIR' -- "$cli" sweep --help
expect 2 'no --out folder given' -- sweep "$work/grid.json"
expect 2 '--shard takes K/N' -- sweep "$work/grid.json" --out "$work/x" --shard 4/3
expect 0 '8 runs \(4 points × 2 replications\)' -- sweep "$work/grid.json" --out "$work/one"
for k in 1 2 3; do
    expect 0 "shard $k/3" -- sweep "$work/grid.json" --out "$work/s$k" --shard $k/3 --threads 1
done
expect 0 'merged 3 shards: 8 runs of 4 points' -- \
    "$cli" sweep merge "$work/s1" "$work/s2" "$work/s3" --out "$work/merged"
for f in runs.csv summary.csv spec.json; do
    cmp -s "$work/one/$f" "$work/merged/$f" && echo "ok: $f merged byte for byte" ||
        fail "merged $f differs from one machine's"
done
[ "$(wc -l <"$work/one/runs.csv")" = 9 ] && echo "ok: a row per run" || fail "runs.csv rows"
[ "$(wc -l <"$work/one/summary.csv")" = 5 ] && echo "ok: a row per point" || fail "summary rows"
head -1 "$work/one/summary.csv" | grep -q 'allocation_mean_mean,allocation_mean_ci95_low' &&
    echo "ok: summary columns" || fail "summary.csv lacks a KPI's mean and interval"
expect 2 'in no shard' -- "$cli" sweep merge "$work/s1" "$work/s3" --out "$work/m2"

# A value the scenario may not hold fails before any run, naming the point.
sed 's/"values": \[0.5, 1.5\]/"values": [0.5, -1]/' "$work/grid.json" >"$work/bad.json"
expect 2 'demandMultiplier.*point 2' -- sweep "$work/bad.json" --out "$work/bad"

# --find: the smallest rack count of pod-a keeping the mean p95 wait at most 2 h.
cat >"$work/find.json" <<JSON
{"format": "gpuplan-sweep", "formatVersion": 1, "scenario": "$presets/scenarios/default.json",
 "replications": 2,
 "parameters": [{"pointer": "/topology/pods/0/racks/0/count", "values": [1, 2, 3, 4, 5, 6, 7, 8]}],
 "find": {"kpi": "wait_s_p95", "atMost": 7200}}
JSON
expect 0 'smallest: /topology/pods/0/racks/0/count = [0-9]+' -- sweep "$work/find.json" \
    --out "$work/find" --find
expect 0 'probed [1-4] of 8 points' -- sweep "$work/find.json" --out "$work/find" --find

echo "$failures failure(s)"
[ "$failures" = 0 ]
