#!/usr/bin/env bash
# A sweep on a real Slurm: starts munged, slurmctld and slurmd for a one-node cluster on this
# machine (everything in a temp folder, on free ports, no systemd), submits a small sweep as a
# job array with installers/sweep-slurm.sh (3 shards) and its merge as a job depending on the
# array, waits for both, and checks the merged runs.csv, summary.csv and spec.json equal a local
# `gpuplan-cli sweep` of the same spec byte for byte. Every daemon it started is stopped and the
# temp folder removed, whether it passes or fails.
#
# Needs Debian's slurm-wlm and munge (installers/dev.sh installs them); it fails, naming them,
# without. Root is not needed: the daemons and the jobs all run as the user running the test
# (SlurmUser and SlurmdUser are that user; a slurmd not run by root can only start that user's
# jobs, which is all the test submits).
# usage: slurm_sweep_test.sh GPUPLAN_CLI PRESETS_DIR SWEEP_SLURM_SH
set -euo pipefail
cli=$(realpath -- "$1") presets=$(realpath -- "$2") script=$(realpath -- "$3")
source "$(dirname "${BASH_SOURCE[0]}")/slurm_cluster.sh"

# The default scenario, 2 demand multipliers × 2 replications: 4 runs over 3 shards.
cat >"$T/sweep.json" <<JSON
{"format": "gpuplan-sweep", "formatVersion": 1, "scenario": "$presets/scenarios/default.json",
 "replications": 2,
 "parameters": [{"pointer": "/demandMultiplier", "values": [0.5, 1.5]}]}
JSON
"$cli" sweep "$T/sweep.json" --out "$T/local" --presets "$presets" >"$T/log/local.out" 2>&1 ||
    fail "local sweep: $(cat "$T/log/local.out")"

# The recipe as the script's comment gives it. sbatch hands the environment (GPUPLAN_CLI) to
# the jobs; --kill-on-invalid-dep cancels the merge if a task fails, so the queue still empties.
export GPUPLAN_CLI=$cli
array=$(sbatch --parsable --array=0-2 --chdir="$T" --output="$T/log/task-%a.out" \
    "$script" "$T/sweep.json" "$T/out" --presets "$presets") || fail "sbatch of the array refused"
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes --chdir="$T" \
    --output="$T/log/merge.out" "$script" merge "$T/out") || fail "sbatch of the merge refused"
echo "ok: submitted array job $array (3 tasks) and merge job $merge"

wait_for_empty_queue

for k in 1 2 3; do
    [ -s "$T/out/shard-$k/runs.csv" ] && echo "ok: shard $k/3 ran (task $((k - 1)))" ||
        fail "no $T/out/shard-$k/runs.csv: array task $((k - 1)) did not finish"
done
grep -q 'merged 3 shards: 4 runs of 2 points' "$T/log/merge.out" && echo "ok: merge job merged" ||
    fail "merge job: $(cat "$T/log/merge.out" 2>/dev/null)"
for f in runs.csv summary.csv spec.json; do
    cmp -s "$T/local/$f" "$T/out/$f" && echo "ok: $f from Slurm equals the local run's byte for byte" ||
        fail "$f merged from Slurm differs from the local run's"
done
[ "$(wc -l <"$T/out/runs.csv")" = 5 ] && echo "ok: 4 runs" || fail "runs.csv rows"
echo "0 failure(s)"
