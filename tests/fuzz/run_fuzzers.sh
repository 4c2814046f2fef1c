#!/usr/bin/env bash
# Builds the libFuzzer targets (cmake preset "asan": clang 14, ASan + UBSan, coverage) and runs
# each one. Corpora and findings are kept in build/fuzz.
#
#   tests/fuzz/run_fuzzers.sh                  the CI smoke run: a fixed number of runs per target
#                                              from a fixed seed, about 15 s each (at most ~20 s),
#                                              as many at once as the machine has cores
#   tests/fuzz/run_fuzzers.sh --long SECONDS   a campaign: each target for SECONDS, its corpus
#                                              kept in build/fuzz/corpus/<target> between runs
#
# Exits non-zero when a target crashes, hangs (-timeout), exceeds -rss_limit_mb or reports a
# sanitizer error. The reproducer is then in build/fuzz/findings/<target>/; keep small ones in
# tests/fuzz/found/<target>/ with the stack and report them.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

long_s=""
case "${1:-}" in
    "") ;;
    --long)
        long_s=${2:-}
        if ! [[ "$long_s" =~ ^[1-9][0-9]*$ ]]; then
            echo "run_fuzzers.sh: --long needs a number of seconds per target" >&2
            exit 2
        fi
        ;;
    *)
        echo "usage: tests/fuzz/run_fuzzers.sh [--long SECONDS]" >&2
        exit 2
        ;;
esac

targets=(fuzz_scenario fuzz_trace fuzz_openb fuzz_kueue fuzz_fleet_import fuzz_slurm fuzz_lesson
         fuzz_sweep)
cmake --preset asan >/dev/null
cmake --build --preset asan --target "${targets[@]}"

binaries=build/asan/tests/fuzz
build=build/fuzz
fuzz_dir=tests/fuzz
shipped_data=presets/data

# Seed corpora, rebuilt every time from what the repository holds (of the shipped openb and
# Philly data only the first lines, copied into the build folder).
seed_corpus() {  # seed_corpus TARGET → prints the seed folder
    local dir=$build/corpus-seed/$1
    rm -rf "$dir"
    mkdir -p "$dir"
    case "$1" in
        fuzz_scenario)
            cp presets/scenarios/*.json tests/data/*.json tests/data/malformed/* "$dir"/
            ;;
        fuzz_openb)
            # The first byte picks the reader: odd = node list, even = pod list.
            local csv
            for csv in tests/data/openb/*.csv tests/data/malformed/openb-*.csv; do
                case "$(basename "$csv")" in
                    *node*) { printf '\001'; cat "$csv"; } >"$dir/$(basename "$csv")" ;;
                    *) { printf '\000'; cat "$csv"; } >"$dir/$(basename "$csv")" ;;
                esac
            done
            for csv in "$shipped_data"/openb/openb_pod_list_default.csv; do
                [ -f "$csv" ] && { printf '\000'; head -n 60 "$csv"; } >"$dir/shipped-pods.csv"
            done
            ;;
        fuzz_kueue)
            cp tests/data/kueue/*.yaml "$dir"/
            ;;
        fuzz_lesson)
            # The preset lessons (read as if in presets/lessons) and the refused ones.
            cp presets/lessons/*.json "$dir"/
            local lesson
            for lesson in tests/data/lessons/*.json; do
                cp "$lesson" "$dir/test-$(basename "$lesson")"
            done
            ;;
        fuzz_sweep)
            # Read as if in tests/data/sweeps: "../valid-*.json" are the test scenarios.
            cp tests/data/sweeps/*.json "$fuzz_dir"/corpus/sweep/*.json "$dir"/
            ;;
        fuzz_fleet_import)
            # Nodes alone, and nodes NUL pods.
            cp tests/data/k8s/nodes.json "$dir"/nodes.json
            { cat tests/data/k8s/nodes.json; printf '\000'; cat tests/data/k8s/pods.json; } \
                >"$dir"/nodes-and-pods.json
            ;;
        fuzz_slurm)
            # The first byte picks the reader: 0 scontrol nodes, 1 sacct, 2 topology.conf.
            cp "$fuzz_dir"/corpus/slurm/* "$dir"/
            ;;
        fuzz_trace)
            cp "$fuzz_dir"/corpus/trace/* "$dir"/
            local csv
            for csv in "$shipped_data"/philly/*.csv; do
                [ -f "$csv" ] && head -n 200 "$csv" >"$dir/shipped-$(basename "$csv")"
            done
            ;;
    esac
    echo "$dir"
}

# Runs per target in the smoke run, measured on this 2-core machine while other builds ran:
# ~2,500 scenario inputs/s, ~7,000 trace inputs/s, ~2,000 Kueue manifests/s and ~3,000-5,000
# Slurm files/s from these seeds (two targets at once: ~1,100 Kueue manifests/s), so ~16 s,
# ~14 s, ~18 s and ~15 s. An accepted Kueue import is also run. Lessons and sweeps were timed
# beside the Kueue target on a busier machine: a lesson input costs ~2.4 Kueue inputs and more
# early on (the seeds are whole lessons, most of them run), a sweep input ~0.27, so 6,000 and
# 80,000 runs take ~10-15 s. -max_total_time stops a slower machine.
declare -A smoke_runs=([fuzz_scenario]=40000 [fuzz_trace]=100000 [fuzz_openb]=20000
                       [fuzz_kueue]=20000 [fuzz_fleet_import]=20000 [fuzz_slurm]=60000
                       [fuzz_lesson]=6000 [fuzz_sweep]=80000)
declare -A smoke_guard_s=([fuzz_scenario]=30 [fuzz_trace]=20 [fuzz_openb]=20 [fuzz_kueue]=20
                          [fuzz_fleet_import]=20 [fuzz_slurm]=20 [fuzz_lesson]=20
                          [fuzz_sweep]=20)
declare -A dictionary=([fuzz_scenario]=scenario.dict [fuzz_trace]=trace.dict [fuzz_openb]=openb.dict
                       [fuzz_kueue]=kueue.dict [fuzz_fleet_import]=fleet_import.dict
                       [fuzz_slurm]=slurm.dict [fuzz_lesson]=lesson.dict [fuzz_sweep]=sweep.dict)

# One target: its seeds, its run, its verdict (exit status 1 when it found something).
run_target() {  # run_target TARGET
    local target=$1 seeds findings corpus log start
    seeds=$(seed_corpus "$target")
    findings=$build/findings/$target
    mkdir -p "$findings"
    local args=(-dict="$fuzz_dir/${dictionary[$target]}" -rss_limit_mb=2048 -timeout=10
                -artifact_prefix="$findings/" -print_final_stats=1)
    if [ -n "$long_s" ]; then
        corpus=$build/corpus/$target  # grows across campaigns
        args+=(-max_total_time="$long_s")
    else
        corpus=$build/corpus-smoke/$target  # fresh each time, so a smoke run repeats itself
        rm -rf "$corpus"
        args+=(-seed=1 -runs="${smoke_runs[$target]}" -max_total_time="${smoke_guard_s[$target]}")
    fi
    mkdir -p "$corpus"
    log=$build/$target.log
    echo "run_fuzzers.sh: $target ${args[*]} $corpus $seeds (log: $log)"
    start=$(date +%s)
    if "$binaries/$target" "${args[@]}" "$corpus" "$seeds" >"$log" 2>&1; then
        echo "run_fuzzers.sh: $target ok: $(grep -o 'Done [0-9]* runs' "$log" | tail -1)" \
            "in $(($(date +%s) - start)) s"
    else
        echo "run_fuzzers.sh: $target FAILED; the end of $log:" >&2
        tail -n 40 "$log" >&2
        echo "run_fuzzers.sh: reproducer(s) in $findings/; replay one with" \
            "$binaries/$target FILE" >&2
        return 1
    fi
}

# As many targets at once as the machine has cores (each is one process with one thread).
parallel=$(nproc 2>/dev/null || echo 1)
status=0
running=0
for target in "${targets[@]}"; do
    if [ "$running" -ge "$parallel" ]; then
        wait -n || status=1
        running=$((running - 1))
    fi
    run_target "$target" &
    running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
    wait -n || status=1
    running=$((running - 1))
done
exit $status
