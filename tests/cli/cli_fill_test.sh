#!/usr/bin/env bash
# gpuplan-cli fill and study: strict options, exit 2 with file and line for bad lists, the
# JSON and CSV outputs, determinism, and study results that do not depend on --jobs.
# Fixtures: tests/data/openb/fill-*.csv (2 GPU nodes of 2 T4 and a CPU-only node; 5 pods)
# and tests/data/openb/fill-study/ (two small pod lists and a file that is not one).
# usage: cli_fill_test.sh GPUPLAN_CLI PRESETS_DIR TEST_DATA_DIR
set -u
cli=$(realpath -- "$1") data=$(realpath -- "$3")
nodes=$data/openb/fill-nodes.csv
pods=$data/openb/fill-pods.csv
study=$data/openb/fill-study
bad=$data/malformed
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/expect.sh"

fill() { "$cli" fill --nodes "$nodes" --pods "$pods" "$@"; }

# 1. Help and strict options.
expect 0 'usage: gpuplan-cli fill --nodes FILE' -- "$cli" fill --help
expect 0 'usage: gpuplan-cli study --nodes FILE' -- "$cli" study --help
expect 0 '  fill  ' -- "$cli" --help
expect 2 '--nodes FILE is required' -- "$cli" fill --pods "$pods" --policy fgd --seed 1
expect 2 '--pods FILE is required' -- "$cli" fill --nodes "$nodes" --policy fgd --seed 1
expect 2 '--policy is required' -- fill --seed 1
expect 2 '--seed is required' -- fill --policy fgd
expect 2 'unknown option --policyx' -- fill --policyx fgd --seed 1
expect 2 'unexpected argument extra' -- fill --policy fgd --seed 1 extra
expect 2 '--policy takes fgd, bestfit, dotprod, packing, clustering or random, got "FGD"' \
    -- fill --policy FGD --seed 1
expect 2 '--seed needs a whole number from 0 to 18446744073709551615, got "-1"' \
    -- fill --policy fgd --seed -1
expect 2 '--seed needs a whole number' -- fill --policy fgd --seed 1e3
for tune in -1 11 abc nan inf " 1" 1x; do
    expect 2 "--tune needs a number from 0 to 10, got \"$tune\"" -- fill --policy fgd --seed 1 --tune "$tune"
done
expect 2 '--json takes no value' -- fill --policy fgd --seed 1 --json=yes
expect 2 '--tune needs a value' -- fill --policy fgd --seed 1 --tune
# A bad --out is refused before the run.
expect 2 '--out: folder ".*/missing" does not exist' -- fill --policy fgd --seed 1 --out "$work/missing/c.csv"

# 2. Bad lists: exit 2 with the file, the line and what is wrong.
expect 2 'openb-nodes-negative-cpu.csv: line 2: cpu_milli -1000 is negative' \
    -- "$cli" fill --nodes "$bad/openb-nodes-negative-cpu.csv" --pods "$pods" --policy fgd --seed 1
expect 2 'openb-pods-not-a-number.csv: line 2: cpu_milli "12k" is not a whole number' \
    -- "$cli" fill --nodes "$nodes" --pods "$bad/openb-pods-not-a-number.csv" --policy fgd --seed 1
expect 2 'missing.csv: file not found' -- "$cli" fill --nodes "$work/missing.csv" --pods "$pods" --policy fgd --seed 1
printf 'sn,cpu_milli,memory_mib,gpu,model\ncpu-0,32000,1024,0,\n' >"$work/cpu-nodes.csv"
expect 2 'cpu-nodes.csv: the node list has no GPU node' \
    -- "$cli" fill --nodes "$work/cpu-nodes.csv" --pods "$pods" --policy fgd --seed 1
printf 'sn,cpu_milli,memory_mib,gpu,model\nn0,0,1024,2,T4\n' >"$work/zero-cpu.csv"
expect 2 'zero-cpu.csv: GPU node n0 has cpu_milli 0; the fill needs both on every GPU node' \
    -- "$cli" fill --nodes "$work/zero-cpu.csv" --pods "$pods" --policy fgd --seed 1

# 3. Outputs. --tune 0: the five pods, shuffled, arrive once each: 5 curve rows.
expect 0 '^\{"alloc_pct_at_100": (null|[0-9]+\.[0-9]{4}), "alloc_pct_final": [0-9]+\.[0-9]{4}, "frag_ratio_pct_at_90": (null|[0-9]+\.[0-9]{4}), "seconds": [0-9]+\.[0-9]{4}\}$' \
    -- fill --policy fgd --seed 42 --json
for policy in fgd bestfit dotprod packing clustering random; do
    expect 0 '^  allocation at 100 % arrived ' -- fill --policy $policy --seed 7 --tune 0 --out "$work/$policy.csv"
    if [ "$(wc -l <"$work/$policy.csv")" != 6 ] ||
        [ "$(head -1 "$work/$policy.csv")" != "arrival,pod,arrived_pct,alloc_pct,frag_ratio_pct,frag_amount_pct,outcome,node,gpus" ] ||
        ! grep -qE '^5,p[0-4],117\.5000,' "$work/$policy.csv"; then
        fail "$policy: curve CSV: want a header and 5 rows ending at 117.5 % arrived"
    fi
done
# The same seed gives the same curve; the shares of 500 and 700 never sit on the CPU node.
fill --policy fgd --seed 7 --tune 0 --out "$work/again.csv" >/dev/null
cmp -s "$work/fgd.csv" "$work/again.csv" || fail "fill: same seed, different curves"
grep -q cpu-node "$work"/*.csv && fail "fill: a pod went to the CPU-only node"
# Resampled to 130 % of 4 GPUs (5,200 milli): drawing stops at the first pod whose per-GPU
# milli (≤ 1,000 = 25 %) would pass 130 %, so the arrivals end above 105 %; a 2-GPU pod taken
# at ≤ 4,200 milli ends them at ≤ 6,200 milli = 155 %.
fill --policy bestfit --seed 3 --out "$work/tuned.csv" >/dev/null
awk -F, 'NR > 1 { last = $3 } END { exit !(last > 105 && last <= 155) }' "$work/tuned.csv" ||
    fail "fill --tune 1.3: arrivals should reach about 130 %"

# 4. Study: 2 pod lists × 6 policies × 3 seeds = 36 runs; readme.txt is not a pod list.
expect 0 'study: 36/36 runs' -- "$cli" study --nodes "$nodes" --pods-dir "$study" --seeds 1-3 --jobs 1 --out-dir "$work/s1"
# A cell is "mean (min–max)", or "-" when some seed's arrivals skip 99…101 % (tiny fleets).
expect 0 '^\| openb_pod_list_whole \| (-|[0-9.]+ \([0-9.]+–[0-9.]+\)) \|' -- cat "$work/s1/study_summary.md"
expect 0 '^\| pod list \| FGD \| BestFit \| GpuPacking \| GpuClustering \| DotProd \| Random \|$' -- cat "$work/s1/study_summary.md"
[ "$(wc -l <"$work/s1/study_runs.csv")" = 37 ] || fail "study_runs.csv: want a header and 36 rows"
# Two threads: the same runs, in the same order, with the same numbers (seconds aside).
"$cli" study --nodes "$nodes" --pods-dir "$study" --seeds 1-3 --jobs 2 --out-dir "$work/s2" >/dev/null 2>&1 ||
    fail "study --jobs 2 failed"
cmp -s <(cut -d, -f1-9 "$work/s1/study_runs.csv") <(cut -d, -f1-9 "$work/s2/study_runs.csv") ||
    fail "study: --jobs 1 and --jobs 2 differ"
cmp -s "$work/s1/study_summary.md" "$work/s2/study_summary.md" || fail "study: summaries differ"
expect 0 '^\| pod list \| FGD \| Random \|$' -- "$cli" study --nodes "$nodes" --pods-dir "$study" --seeds 5 --policies fgd,random
expect 2 '--seeds takes A-B \(A ≤ B, at most 1000 seeds\) or one seed, got "5-3"' \
    -- "$cli" study --nodes "$nodes" --pods-dir "$study" --seeds 5-3
expect 2 'got "1-2000"' -- "$cli" study --nodes "$nodes" --pods-dir "$study" --seeds 1-2000
expect 2 '--policies: unknown policy "foo"' -- "$cli" study --nodes "$nodes" --pods-dir "$study" --seeds 1 --policies fgd,foo
expect 2 '--policies: fgd given twice' -- "$cli" study --nodes "$nodes" --pods-dir "$study" --seeds 1 --policies fgd,fgd
expect 2 '--jobs needs a whole number from 1 to 256, got "0"' \
    -- "$cli" study --nodes "$nodes" --pods-dir "$study" --seeds 1 --jobs 0
expect 2 '--seeds is required' -- "$cli" study --nodes "$nodes" --pods-dir "$study"
expect 2 '--pods-dir: ".*/nowhere" is not a folder' -- "$cli" study --nodes "$nodes" --pods-dir "$work/nowhere" --seeds 1
mkdir -p "$work/empty" "$work/broken"
expect 2 '--pods-dir: no openb_pod_list_\*.csv in' -- "$cli" study --nodes "$nodes" --pods-dir "$work/empty" --seeds 1
cp "$study"/openb_pod_list_*.csv "$work/broken/"
cp "$bad/openb-pods-wrong-field-count.csv" "$work/broken/openb_pod_list_zz.csv"
expect 2 'openb_pod_list_zz.csv: line [0-9]+: ' -- "$cli" study --nodes "$nodes" --pods-dir "$work/broken" --seeds 1

[ "$failures" = 0 ] && echo "all passed" || echo "$failures failure(s)"
exit $((failures > 0))
