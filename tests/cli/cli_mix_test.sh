#!/usr/bin/env bash
# gpuplan-cli mix end to end: the reserved-level table and its --json (levels from 0 rising,
# the optimum the cheapest level), and refusals (no prices, options out of range).
# usage: cli_mix_test.sh GPUPLAN_CLI PRESETS_DIR
set -u
cli=$(realpath -- "$1") presets=$(realpath -- "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/expect.sh"

mix() { "$cli" mix --presets "$presets" "$@"; }
default=$presets/scenarios/default.json

expect 0 'usage: gpuplan-cli mix SCENARIO' -- "$cli" mix --help
expect 2 'no scenario given' -- mix
expect 2 '--levels needs a whole number from 2 to 1000, got "1"' -- mix "$default" --levels 1
expect 2 '--spot-share takes a number from 0 to 1, got "1.5"' -- mix "$default" --spot-share 1.5
expect 0 '^optimum: [0-9]+ reserved GPUs \([0-9]+ nodes\), \$[0-9.]+$' -- mix "$default" --levels 5
expect 0 '^\* ' -- mix "$default" --levels 5

# Without prices: refused, naming the file and the way out.
python3 - "$default" "$work/unpriced.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s.pop("pricing", None)
json.dump(s, open(sys.argv[2], "w"))
PY
expect 2 'unpriced.json has no prices: give it a "pricing" or use --pricebook NAME' -- mix "$work/unpriced.json"
expect 0 '^optimum:' -- mix "$work/unpriced.json" --pricebook lambda --levels 3

# --json: a cost and node counts per level, the peak and the optimum; levels rise from 0 to the
# peak; the optimum is the least.
mix "$default" --levels 9 --json >"$work/mix.json" 2>"$work/out"
if python3 - "$work/mix.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
levels, cost = d["levels"], d["cost_usd"]
assert len(levels) == len(cost) >= 2, "one cost per level"
assert levels[0] == 0 and levels == sorted(levels), "levels rise from 0"
assert levels[-1] >= d["peak_demand_gpus"], "the last level holds the peak"
assert d["optimum_cost_usd"] == min(cost), "the optimum is the cheapest"
assert d["optimum_reserved_gpus"] == levels[cost.index(min(cost))]
assert len(d["reserved_nodes"]) == len(levels) and len(d["spot_nodes"]) == len(levels)
PY
then echo "ok: mix --json"; else fail "mix --json is not what it should be"; fi

echo "$failures failure(s)"
[ "$failures" = 0 ]
