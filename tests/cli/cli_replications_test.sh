#!/usr/bin/env bash
# gpuplan-cli run --replications and compare end to end: the table, --out with the means and
# their intervals, the CSVs, a scenario compared with itself (every difference exactly 0,
# nothing significant), a real change found significant, and refusals.
# usage: cli_replications_test.sh GPUPLAN_CLI PRESETS_DIR
set -u
cli=$(realpath -- "$1") presets=$(realpath -- "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/expect.sh"

run() { "$cli" run --presets "$presets" "$@"; }
default=$presets/scenarios/default.json

expect 0 'replications' -- "$cli" run --help
expect 0 'usage: gpuplan-cli compare BASELINE CANDIDATE' -- "$cli" compare --help
expect 2 'replications' -- run "$default" --replications 0
expect 2 'do not go together' -- run "$default" --replications 3 --seed 5
expect 2 'compare needs two scenarios' -- "$cli" compare --presets "$presets" "$default"
expect 0 'allocation_mean +[0-9.]+ % +[0-9.]+ % +\[[0-9.]+ %, [0-9.]+ %\]' -- \
    run "$default" --replications 4 --threads 2 --out "$work/r.json" --csv "$work/csv"

# --out: the means, their intervals around them, four runs with the scenario's seed first.
if python3 - "$work/r.json" "$default" >"$work/out" 2>&1 <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
seed = json.load(open(sys.argv[2]))["seed"]
assert r["replications"] == 4
assert r["runs"][0]["seed"] == seed and len({x["seed"] for x in r["runs"]}) == 4
for name, mean in r["kpis"].items():
    low, high = r["kpis_ci95"][name]
    if mean is not None and low is not None:
        assert low <= mean <= high, (name, low, mean, high)
assert len(r["series"]["allocation"]) == len(r["series"]["time_s"])
PY
then echo "ok: replications JSON"; else fail "the replications' JSON is wrong"; fi
for f in kpis_ci95.csv replications.csv jobs.csv series.csv; do
    [ -s "$work/csv/$f" ] && echo "ok: $f" || fail "no $f"
done
[ "$(wc -l <"$work/csv/replications.csv")" = 5 ] && echo "ok: a row per run" ||
    fail "replications.csv has not 4 runs"

# The same answer on one thread.
run "$default" --replications 4 --threads 1 --out "$work/r1.json" >/dev/null 2>&1
cmp -s "$work/r.json" "$work/r1.json" && echo "ok: threads change nothing" ||
    fail "1 and 2 threads differ"

# A scenario against itself: every difference is 0 and none is significant.
expect 0 'allocation_mean' -- "$cli" compare --presets "$presets" "$default" "$default" \
    --replications 3
if grep -q 'significant' "$work/out"; then fail "a scenario differs from itself"; else
    echo "ok: nothing differs from itself"; fi
# Half the nodes in every rack: allocation rises, significantly.
python3 - "$default" "$work/half.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
for pod in s["topology"]["pods"]:
    for rack in pod["racks"]:
        for group in rack["nodes"]:
            group["count"] = max(1, group["count"] // 2)
json.dump(s, open(sys.argv[2], "w"))
PY
expect 0 'allocation_mean .* significant' -- "$cli" compare --presets "$presets" "$default" \
    "$work/half.json" --replications 4

echo "$failures failure(s)"
[ "$failures" = 0 ]
