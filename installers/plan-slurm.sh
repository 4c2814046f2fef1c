#!/usr/bin/env bash
#SBATCH --job-name=gpuplan-plan
#SBATCH --cpus-per-task=1
# A gpuplan plan as a Slurm job array: array task i runs shard i+1 of N (N = the array's
# tasks) of every run the plan's search could ask for, into OUTDIR/plan-shard-(i+1)-of-N.json;
# `merge` then finishes the search from the N files, without simulating, and writes
# OUTDIR/plan.json: the answer `gpuplan-cli plan SCENARIO ... --json` gives on one machine.
#
# Submit (from a folder every node sees: SCENARIO and OUTDIR at the same paths everywhere):
#
#   jobid=$(sbatch --parsable --array=0-7 installers/plan-slurm.sh fleet.json out \
#       --target 'wait_s_p95<=7200' --vary '/topology/pods/0/racks/0/count=1..40')
#   sbatch --dependency=afterok:$jobid --kill-on-invalid-dep=yes installers/plan-slurm.sh merge out
#
# The shards run the whole grid (every candidate × --replications), which the search on one
# machine only samples: spread over an array that is wall-clock time saved for core-hours
# spent. The merge refuses a missing shard, one of another question, scenario, catalog or
# gpuplan build, or one that did not finish; rerun only that task, keeping N:
#
#   GPUPLAN_PLAN_SHARDS=8 sbatch --array=2 installers/plan-slurm.sh fleet.json out ...
#
# Arguments: SCENARIO OUTDIR [gpuplan-cli plan options: --target, --vary, --objective,
# --replications, --presets ...] (a shard), or merge OUTDIR (the merge). The array must be
# 0-(N-1). Each task runs --threads $SLURM_CPUS_PER_TASK (1 unless submitted with
# --cpus-per-task=C). gpuplan-cli: $GPUPLAN_CLI if set, else the first on PATH (sbatch runs a
# copy of this script from slurmd's spool folder, so its own path says nothing).
set -euo pipefail

die() {
    echo "plan-slurm.sh: $*" >&2
    exit 2
}

cli=${GPUPLAN_CLI:-$(command -v gpuplan-cli || true)}
[ -n "$cli" ] && [ -x "$cli" ] ||
    die "no gpuplan-cli: put it on PATH or set GPUPLAN_CLI (got \"${GPUPLAN_CLI:-}\")"

if [ "${1:-}" = merge ]; then
    [ $# -eq 2 ] || die "usage: plan-slurm.sh merge OUTDIR"
    out=$2
    [ -d "$out" ] || die "no folder $out: did the array run?"
    # Written whole or not at all: a reader never sees half an answer.
    "$cli" plan merge "$out" --json >"$out/plan.json.part"
    mv "$out/plan.json.part" "$out/plan.json"
    echo "plan-slurm.sh: merged the shards of $out into $out/plan.json"
    exit 0
fi

[ $# -ge 2 ] || die "usage: sbatch --array=0-(N-1) plan-slurm.sh SCENARIO OUTDIR [plan options]
       sbatch --dependency=afterok:JOBID plan-slurm.sh merge OUTDIR"
scenario=$1 out=$2
shift 2
[ -n "${SLURM_ARRAY_TASK_ID:-}" ] ||
    die "not a Slurm array task (no SLURM_ARRAY_TASK_ID): submit with sbatch --array=0-(N-1)"
task=$SLURM_ARRAY_TASK_ID
if [ -n "${GPUPLAN_PLAN_SHARDS:-}" ]; then
    shards=$GPUPLAN_PLAN_SHARDS  # a rerun of some tasks: the array no longer says N
else
    shards=${SLURM_ARRAY_TASK_COUNT:-1}
    [ "${SLURM_ARRAY_TASK_MIN:-}" = 0 ] && [ "${SLURM_ARRAY_TASK_MAX:-}" = $((shards - 1)) ] ||
        die "the array must be 0-(N-1), got ${SLURM_ARRAY_TASK_MIN:-?}-${SLURM_ARRAY_TASK_MAX:-?}" \
            "with $shards tasks (set GPUPLAN_PLAN_SHARDS=N to rerun some tasks of N)"
fi
[ "$task" -lt "$shards" ] || die "array task $task is past the $shards shards"
shard=$((task + 1))

echo "plan-slurm.sh: shard $shard/$shards of $scenario on $(hostname) into $out"
exec "$cli" plan "$scenario" --shard "$shard/$shards" --out "$out" \
    --threads "${SLURM_CPUS_PER_TASK:-1}" "$@"
