#!/usr/bin/env bash
# gpuplan-cli plan end to end: the answer's JSON keys, the same answer on one thread or two and
# from three shards merged, an infeasible question answered with the closest candidate, and
# refusals (an unknown KPI or team, a pointer that is not an integer or a string, an inverted
# range, an objective the scenario cannot report, a search over the run budget, a shard
# missing).
# usage: cli_plan_test.sh GPUPLAN_CLI PRESETS_DIR
set -u
cli=$(realpath -- "$1") presets=$(realpath -- "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/expect.sh"

default=$presets/scenarios/default.json
racks=/topology/pods/0/racks/0/count=1..8
plan() { "$cli" plan --presets "$presets" "$@"; }
question=(--target 'wait_s_p95<=600' --target 'team:applied:wait_s_p95<=7200' --vary "$racks")

expect 0 'usage: gpuplan-cli plan SCENARIO --target EXPR' -- "$cli" plan --help
expect 0 'Plan: the cheapest candidate that meets every target' -- plan "$default" "${question[@]}"
expect 0 '"feasible": true' -- plan "$default" "${question[@]}" --json --threads 1
cp "$work/out" "$work/one.json"
if python3 - "$work/one.json" "$racks" <<'PY'; then echo "ok: the answer's keys"; else fail "plan --json keys"; fi
import json, sys
a = json.load(open(sys.argv[1]))
spec = sys.argv[2]
assert a["feasible"] is True
assert isinstance(a["plan"][spec], int) and 0 <= a["plan"][spec] <= 8
assert a["set"]["/topology/pods/0/racks/0/count"] == a["plan"][spec]
assert a["objective"]["name"] == "cost" and a["objective"]["kpi"] == "cost_usd"
lo, hi = a["objective"]["ci95"]
assert lo <= a["objective"]["value"] <= hi
for expr in ("wait_s_p95<=600", "team:applied:wait_s_p95<=7200"):
    t = a["targets"][expr]
    assert t["met"] is True and t["ci95"][1] <= float(expr.split("<=")[1]), t
assert a["evaluations"] >= 2 * a["candidates"]
assert a["baseline"]["plan"][spec] == 4
assert a["frontier"] and all({"plan", "objective", "targets"} <= set(f) for f in a["frontier"])
costs = [f["objective"]["value"] for f in a["frontier"]]
assert costs == sorted(costs)
assert any(f["plan"] == a["plan"] for f in a["frontier"])
PY
expect 0 '"feasible": true' -- plan "$default" "${question[@]}" --json --threads 2
cmp -s "$work/out" "$work/one.json" && echo "ok: two threads, the same answer" ||
    fail "plan --threads 2 answered otherwise than --threads 1"

# Three shards into one folder, merged: the answer one machine gives, byte for byte.
for k in 1 2 3; do
    expect 0 "shard $k/3: 1[34] runs" -- plan "$default" "${question[@]}" --shard $k/3 \
        --out "$work/shards" --threads 1
done
expect 0 '"feasible": true' -- "$cli" plan merge "$work/shards" --json
cmp -s "$work/out" "$work/one.json" && echo "ok: merged shards, the same answer" ||
    fail "plan merge answered otherwise than one machine"
rm "$work/shards/plan-shard-2-of-3.json"
expect 2 'the shards of 3 lack 2' -- "$cli" plan merge "$work/shards"
expect_text 2 'must be between 1 and 100000, got 0 (plan candidate: /topology/pods/0/racks/0/count = 0)' -- \
    plan "$default" --target 'wait_s_p95<=600' --vary '/topology/pods/0/racks/0/count=0..8'
expect 2 '--shard and --out go together' -- plan "$default" "${question[@]}" --shard 1/2

# No candidate meets it: the closest, and by how much, exit 0.
expect 0 '"feasible": false' -- plan "$default" --target 'jobs_completed>=100000' \
    --vary "$racks" --json
grep -q '"miss": ' "$work/out" && echo "ok: the miss is named" || fail "no miss"
expect 0 'No candidate within the bounds meets every target' -- plan "$default" \
    --target 'jobs_completed>=100000' --vary "$racks"

# Refusals: exit 2, naming what is wrong.
expect_text 2 'the runs report no KPI "wait_p95"' -- plan "$default" --target 'wait_p95<=60' \
    --vary "$racks"
expect_text 2 'no team "nobody" (the teams: research, applied, product, data-science)' -- \
    plan "$default" --target 'team:nobody:wait_s_p95<=60' --vary "$racks"
expect_text 2 'a range sets an integer, and /name in' -- plan "$default" \
    --target 'wait_s_p95<=60' --vary '/name=1..3'
expect_text 2 'a choice sets a string' -- plan "$default" --target 'wait_s_p95<=60' \
    --vary '/topology/pods/0/racks/0/count=a|b'
expect_text 2 'the range is inverted (8 > 2)' -- plan "$default" --target 'wait_s_p95<=60' \
    --vary '/topology/pods/0/racks/0/count=8..2'
expect_text 2 'sets nothing at /topology/pods/7' -- plan "$default" --target 'wait_s_p95<=60' \
    --vary '/topology/pods/7/count=1..3'
expect_text 2 '--objective takes cost, gpus or power' -- plan "$default" \
    --target 'wait_s_p95<=60' --vary "$racks" --objective speed
expect_text 2 'the runs report no KPI "peak_power_kw"' -- plan "$default" \
    --target 'wait_s_p95<=60' --vary "$racks" --objective power
python3 - "$default" "$work/unpriced.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
del d["pricing"]
json.dump(d, open(sys.argv[2], "w"))
PY
expect_text 2 'has no prices (/pricing)' -- plan "$work/unpriced.json" \
    --target 'wait_s_p95<=60' --vary "$racks" --objective cost
expect 0 '"name": "gpus"' -- plan "$work/unpriced.json" --target 'wait_s_p95<=6000' \
    --vary "$racks" --json
expect 2 "the plan's search would make up to [0-9]+ runs .* candidates × 5 replications" -- \
    plan "$default" --target 'wait_s_p95<=60' --vary "$racks" --budget-ops 5e7
expect_text 2 'no --target given' -- plan "$default" --vary "$racks"
expect_text 2 'a seed is not a change to plan' -- plan "$default" --target 'wait_s_p95<=60' \
    --vary '/seed=1..9'
expect_text 2 "job class pretrain asks 72 GB per GPU, and dgx-a100's GPUs hold 40 GB" -- \
    plan "$default" --target 'wait_s_p95<=60' --vary "$racks" \
    --vary '/topology/pods/0/racks/0/nodes/0/nodeType=dgx-h100|dgx-a100'
python3 - "$default" "$work/capped.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["jobClasses"][0]["maxJobs"] = 5
json.dump(d, open(sys.argv[2], "w"))
PY
# 300,000 values × 5 replications: 1,500,000 runs, more than a shard file holds.
expect_text 2 'split into at least 2 shards' -- plan "$work/capped.json" \
    --target 'wait_s_p95<=60' --vary '/jobClasses/0/maxJobs=1..300000' --shard 1/1 \
    --out "$work/big"

echo "$failures failure(s)"
[ "$failures" = 0 ]
