#!/usr/bin/env bash
# gpuplan-cli lesson and forecast: an instructor's view without the GUI. Every lesson's claim
# holds when run (exit 0); a lesson whose claim does not hold exits 1; bad arguments exit 2.
# usage: cli_lesson_test.sh GPUPLAN_CLI PRESETS_DIR
set -u
cli=$(realpath -- "$1") presets=$(realpath -- "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/expect.sh"

lesson() { "$cli" lesson "$@" --presets "$presets"; }

expect 0 'usage: gpuplan-cli lesson list' -- "$cli" lesson --help
expect 2 'say list or run ID' -- "$cli" lesson
expect 2 'no lesson "9.9"' -- lesson run 9.9
expect_text 0 '3.3   Pack vs spread, and fragmentation' -- lesson list
# Every lesson: its claims hold in the runs the CLI makes.
for id in $("$cli" lesson list --presets "$presets" | awk '/^  [0-9]/ {print $1}'); do
    expect_text 0 'holds' -- lesson run "$id"
done
# A claim the runs do not show: exit 1 and say which.
mkdir -p "$work/lessons"
cp -r "$presets/lessons/scenarios" "$work/lessons/"
sed 's/"before": 0, "after": 5, "tolerance": 1.5/"before": 0, "after": 20, "tolerance": 1.5/' \
    "$presets/lessons/3.3-pack-vs-spread.json" > "$work/lessons/3.3.json"
expect_text 1 'DOES NOT HOLD: lesson 3.3, step 1, job big-train' -- \
    "$cli" lesson run 3.3 --lessons "$work/lessons" --presets "$presets"
# A malformed lesson file: exit 2 with its file and place.
sed 's/"tolerance": 1.5/"tolerance": 9/' "$presets/lessons/3.3-pack-vs-spread.json" \
    > "$work/lessons/3.3.json"
expect 2 '3.3.json: /steps/0/effects/0/tolerance: a tolerance of 9 does not tell 0 from 5' -- \
    "$cli" lesson list --lessons "$work/lessons" --presets "$presets"

# forecast: the default preset's week as the history; prices given or the scenario's. The
# reservation names its model; the fluid approximation is labelled with its bias.
expect 0 '^reserve [0-9.]+ GPUs \([0-9]+ servers of [0-9.]+\): overflow model' -- \
    "$cli" forecast "$presets/scenarios/default.json" --presets "$presets"
expect 0 '^fluid approximation .*: [0-9.]+ GPUs, where demand is above R in 62 % of the forecast hours; it expects \$[0-9]+/h there, [0-9.]+ % below' -- \
    "$cli" forecast "$presets/scenarios/default.json" --presets "$presets"
expect 0 '\(\$1.00 reserved, \$2.00 on demand\)' -- \
    "$cli" forecast "$presets/scenarios/default.json" --presets "$presets" \
    --reserved-usd 1 --on-demand-usd 2
expect 0 'in 50 % of the forecast hours' -- \
    "$cli" forecast "$presets/scenarios/default.json" --presets "$presets" \
    --reserved-usd 1 --on-demand-usd 2
# --simulate: the history's simulated cost curve beside both models.
expect 0 '^simulated on the history \([0-9]+ levels.*\): cheapest at [0-9]+ GPUs \([0-9]+ nodes\), \$[0-9]+/h; on the same hours the overflow model says [0-9]+ GPUs \(\$[0-9]+/h by it, \$[0-9]+/h simulated there\), the fluid approximation [0-9]+ GPUs' -- \
    "$cli" forecast "$presets/scenarios/default.json" --presets "$presets" --simulate
expect 2 'unknown option|takes no value|--simulate' -- \
    "$cli" forecast "$presets/scenarios/default.json" --presets "$presets" --simulate=yes
expect 2 'at least two seasons of history' -- \
    "$cli" forecast "$presets/scenarios/default.json" --presets "$presets" --season week
expect 2 'give both --reserved-usd and --on-demand-usd' -- \
    "$cli" forecast "$presets/scenarios/default.json" --presets "$presets" --reserved-usd 1

[ "$failures" = 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "all lesson and forecast checks passed"
