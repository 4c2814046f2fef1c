#!/usr/bin/env bash
# gpuplan-cli end to end: exit codes (0 ok, 2 bad input), messages and outputs.
# usage: cli_test.sh GPUPLAN_CLI PRESETS_DIR TEST_DATA_DIR
set -u
cli=$1 presets=$2 data=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

expect() {  # expect CODE PATTERN -- command...
    local code=$1 pattern=$2
    shift 3
    "$@" >"$work/out" 2>&1
    local got=$?
    if [ "$got" != "$code" ] || ! grep -qE -- "$pattern" "$work/out"; then
        echo "FAIL: $* -> exit $got (want $code), output:"
        sed 's/^/    /' "$work/out" | head -20
        echo "    (wanted /$pattern/)"
        failures=$((failures + 1))
    else
        echo "ok: $*"
    fi
}

expect 0 '^gpuplan-cli [0-9]+\.[0-9]+\.[0-9]+$' -- "$cli" --version
expect 0 'commands:' -- "$cli" --help
expect 0 'usage: gpuplan-cli run SCENARIO' -- "$cli" run --help
expect 0 'usage: gpuplan-cli validate' -- "$cli" validate --help
expect 0 'usage: gpuplan-cli bench' -- "$cli" bench --help
expect 2 'unknown command "frobnicate"' -- "$cli" frobnicate
expect 2 'no scenario given' -- "$cli" run
expect 2 'unknown option --bogus' -- "$cli" run "$presets/scenarios/default.json" --bogus
expect 2 '--seed needs a non-negative integer' -- "$cli" run "$presets/scenarios/default.json" --seed x
expect 2 '--out needs a value' -- "$cli" run "$presets/scenarios/default.json" --out --csv x
expect 2 '--csv: cannot create' -- "$cli" run "$presets/scenarios/default.json" --csv /proc/nope

expect 0 '^ok: .*32 nodes, 256 GPUs' -- "$cli" validate "$presets/scenarios/default.json"
expect 2 'negative-count.json: /topology/pods/0/racks/0/nodes/0/count: must be between 1 and 200000, got -4' \
    -- "$cli" validate "$data/malformed/negative-count.json"
expect 2 'truncated.json: line [0-9]+, column [0-9]+: invalid JSON: the file ends too early' \
    -- "$cli" validate "$data/malformed/truncated.json"
expect 2 'file not found' -- "$cli" validate "$work/missing.json"

# run: KPI table, JSON with the DESIGN.md names, CSVs; --seed changes the fingerprint.
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

# bench runs and reports the benchmark's figures (the quick one only: timing is not tested).
expect 0 '"name":"default_scenario".*"events_per_s"' -- "$cli" bench --json --only default_scenario --repeat 1

echo "$failures failure(s)"
[ "$failures" = 0 ]
