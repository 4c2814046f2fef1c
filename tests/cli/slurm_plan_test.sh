#!/usr/bin/env bash
# A plan on a real Slurm: a one-node cluster on this machine (slurm_cluster.sh), the plan's
# shards as a job array with installers/plan-slurm.sh (3 tasks) and its merge as a job
# depending on the array; the merged plan.json equals a local `gpuplan-cli plan --json` byte
# for byte. Needs Debian's slurm-wlm and munge (installers/dev.sh installs them), not root.
# usage: slurm_plan_test.sh GPUPLAN_CLI PRESETS_DIR PLAN_SLURM_SH
set -euo pipefail
cli=$(realpath -- "$1") presets=$(realpath -- "$2") script=$(realpath -- "$3")
source "$(dirname "${BASH_SOURCE[0]}")/slurm_cluster.sh"

question=(--target 'wait_s_p95<=600' --vary '/topology/pods/0/racks/0/count=1..6'
    --replications 3 --presets "$presets")
"$cli" plan "$presets/scenarios/default.json" "${question[@]}" --json >"$T/local.json" \
    2>"$T/log/local.err" || fail "local plan: $(cat "$T/log/local.err")"

export GPUPLAN_CLI=$cli
array=$(sbatch --parsable --array=0-2 --chdir="$T" --output="$T/log/task-%a.out" \
    "$script" "$presets/scenarios/default.json" "$T/out" "${question[@]}") ||
    fail "sbatch of the array refused"
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes --chdir="$T" \
    --output="$T/log/merge.out" "$script" merge "$T/out") || fail "sbatch of the merge refused"
echo "ok: submitted array job $array (3 tasks) and merge job $merge"

wait_for_empty_queue
for k in 1 2 3; do
    [ -s "$T/out/plan-shard-$k-of-3.json" ] && echo "ok: shard $k/3 ran (task $((k - 1)))" ||
        fail "no plan-shard-$k-of-3.json: array task $((k - 1)) did not finish: $(cat "$T/log/task-$((k - 1)).out" 2>/dev/null)"
done
cmp -s "$T/local.json" "$T/out/plan.json" &&
    echo "ok: plan.json from Slurm equals the local answer byte for byte" ||
    fail "plan.json merged from Slurm differs from the local answer: $(cat "$T/log/merge.out" 2>/dev/null)"
echo "0 failure(s)"
