#!/usr/bin/env bash
# gpuplan-cli's command line, strictly: options matched by their exact name, numbers
# range-checked, outputs checked before the run, impossible pins refused by validate.
# usage: cli_options_test.sh GPUPLAN_CLI PRESETS_DIR TEST_DATA_DIR
set -u
cli=$1 presets=$2 data=$3
scenario=$presets/scenarios/default.json
work=$(mktemp -d)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/expect.sh"

# An output error is reported before the run: exit 2 with the reason and no KPI table
# (today's fault: the whole run, its table, then exit 1).
expect_before_run() {  # expect_before_run PATTERN -- command...
    local pattern=$1
    shift
    expect 2 "$pattern" "$@"
    if grep -qE '^(allocation_mean|fingerprint) ' "$work/out"; then
        fail "$* ran the simulation before refusing its output"
    fi
}

# 1. Options are matched exactly: a longer name is an unknown option, not a prefix match.
expect 2 'unknown option --outx' -- "$cli" run "$scenario" --outx "$work/r.json"
expect 2 'unknown option --seedfoo' -- "$cli" run "$scenario" --seedfoo 3
expect 2 'unknown option --csvdir' -- "$cli" run "$scenario" --csvdir "$work/csv"
expect 2 'unknown option --bytes' -- "$cli" run "$scenario" --bytes team
expect 2 'unknown option --seeds' -- "$cli" why "$scenario" --at 1h --seeds 3
expect 2 'unknown option --jsonx' -- "$cli" why "$scenario" --at 1h --jsonx
expect 2 '--json takes no value' -- "$cli" why "$scenario" --at 1h --json=yes
expect 2 'unknown option --only-x' -- "$cli" bench --only-x default_scenario
expect 2 'unknown option --repeats' -- "$cli" bench --repeats 3
expect 2 'unknown option --jsonl' -- "$cli" bench --jsonl
expect 2 'unexpected argument extra' -- "$cli" bench extra
expect 2 'unknown option --presetsx' -- "$cli" validate "$scenario" --presetsx "$presets"
expect 2 'unknown option -x' -- "$cli" validate "$scenario" -x
# --flag VALUE and --flag=VALUE are the same option.
a=$("$cli" run "$scenario" --seed 7 | grep fingerprint)
b=$("$cli" run "$scenario" --seed=7 | grep fingerprint)
[ -n "$a" ] && [ "$a" = "$b" ] || { echo "FAIL: --seed=7 and --seed 7 differ: '$a' / '$b'"; failures=$((failures + 1)); }
expect 0 'allocation_mean' -- "$cli" run "$scenario" --out="$work/eq.json" --csv="$work/eqcsv"
[ -s "$work/eq.json" ] && [ -s "$work/eqcsv/jobs.csv" ] || { echo "FAIL: --out=/--csv= wrote nothing"; failures=$((failures + 1)); }
expect 0 '^pending at 36h' -- "$cli" why "$scenario" --at=36h --seed=3

# 2. Numbers are whole, unsigned and in range; the error names the option, value and range.
for v in -1 1e3 99999999999999999999 "" +5 " 5" 0x10 7.0; do
    expect_text 2 "--seed needs a whole number from 0 to 18446744073709551615, got \"$v\"" \
        -- "$cli" run "$scenario" --seed "$v"
done
expect 2 '--seed needs a whole number from 0 to 18446744073709551615, got ""' -- "$cli" run "$scenario" --seed=
expect 2 '--seed needs a whole number from 0 to 18446744073709551615, got "-1"' -- "$cli" why "$scenario" --at 1h --seed -1
expect 0 'fingerprint' -- "$cli" run "$scenario" --seed 18446744073709551615
for v in 0 5x 1001 -1 ""; do
    expect_text 2 "--repeat needs a whole number from 1 to 1000, got \"$v\"" -- "$cli" bench --repeat "$v"
done

# 3. Outputs are checked before the run: exit 2 with the reason, no simulation.
touch "$work/afile"
mkdir -p "$work/folder"
expect_before_run '--out: folder ".*/missing" does not exist' -- "$cli" run "$scenario" --out "$work/missing/r.json"
expect_before_run '--out: ".*/folder" is a folder; give a file name' -- "$cli" run "$scenario" --out "$work/folder"
expect_before_run '--out: ".*/folder/" is a folder' -- "$cli" run "$scenario" --out "$work/folder/"
expect_before_run '--out needs a file name, got ""' -- "$cli" run "$scenario" --out ""
expect_before_run '--out needs a file name, got ""' -- "$cli" run "$scenario" --out=
expect_before_run '--out: ".*/afile" is not a folder' -- "$cli" run "$scenario" --out "$work/afile/r.json"
expect_before_run '--out: folder "/proc/nope" does not exist' -- "$cli" run "$scenario" --out /proc/nope/r.json
expect_before_run '--csv needs a folder, got ""' -- "$cli" run "$scenario" --csv ""
expect_before_run '--csv: ".*/afile" is not a folder' -- "$cli" run "$scenario" --csv "$work/afile"
expect_before_run '--csv: cannot create ".*/afile/sub"' -- "$cli" run "$scenario" --csv "$work/afile/sub"
expect_before_run '--csv: cannot create "/proc/nope"' -- "$cli" run "$scenario" --csv /proc/nope
if [ "$(id -u)" != 0 ]; then
    mkdir "$work/readonly" && chmod 555 "$work/readonly"
    expect_before_run '--out: cannot write into ".*/readonly": Permission denied' -- "$cli" run "$scenario" --out "$work/readonly/r.json"
    expect_before_run '--csv: cannot write into ".*/readonly": Permission denied' -- "$cli" run "$scenario" --csv "$work/readonly"
else
    echo "skip: read-only folder checks (root may write into any folder)"
fi
# A scenario that does not load leaves no --csv folder behind.
expect 2 'truncated.json: line' -- "$cli" run "$data/malformed/truncated.json" --csv "$work/notmade"
[ ! -e "$work/notmade" ] || { echo "FAIL: --csv folder created for a scenario that did not load"; failures=$((failures + 1)); }
# A bare file name is written into the current folder, atomically.
(cd "$work/folder" && "$cli" run "$scenario" --out r.json >/dev/null 2>&1) && [ -s "$work/folder/r.json" ] \
    || { echo "FAIL: --out r.json did not write into the current folder"; failures=$((failures + 1)); }

# 4. Impossible pins are refused when the scenario is read, naming the job and the reason.
expect 2 'pin-too-many-gpus-for-node.json: /jobs/0: job "too-big" can never run on node ".*": it asks 16 GPUs per pod and the node has 8' \
    -- "$cli" validate "$data/malformed/pin-too-many-gpus-for-node.json"
expect 2 'pin-wrong-gpu-model.json: /jobs/0: job "wrong-model" can never run on rack "pod-rack0": it asks GPU model a100-80gb-sxm and no node there has it' \
    -- "$cli" validate "$data/malformed/pin-wrong-gpu-model.json"
expect 2 'pin-gang-larger-than-rack.json: /jobClasses/0: job class "gang" can never run on rack "pod-rack0": .*asks 64 GPUs \(8 pods of 8\).* holds 2 such pods \(16 GPUs\)' \
    -- "$cli" validate "$data/malformed/pin-gang-larger-than-rack.json"

# A replication count on the command line meets the same rules as the file's "replications":
# 10,000 is out of range, named as the option; 1,000 runs of the default week (about 2.5e8
# work units: each run after the first keeps no pending lists) exceed a budget of 1e8 and are
# refused before any run, saying which part costs it.
expect 2 'default.json: --replications: must be between 1 and 1000 \(with --replications 10000\)' \
    -- "$cli" run "$presets/scenarios/default.json" --replications 10000
expect 2 'default.json: --replications: .*\(with --replications 10000\)' \
    -- "$cli" compare "$presets/scenarios/default.json" "$presets/scenarios/default.json" --replications 10000
expect 2 'default.json: /: the run would take about .* work units \(budget 1e\+08.*/replications: 1,?000 runs.*\(with --replications 1000\)' \
    -- "$cli" run "$presets/scenarios/default.json" --replications 1000 --budget-ops 1e8

[ "$failures" = 0 ] && echo "all passed" || echo "$failures failure(s)"
exit $((failures > 0))
