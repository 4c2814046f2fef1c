#!/usr/bin/env bash
#SBATCH --job-name=gpuplan-sweep
#SBATCH --cpus-per-task=1
# A gpuplan sweep as a Slurm job array: array task i runs shard i+1 of N, where N is the
# number of array tasks, into OUTDIR/shard-(i+1); `merge` then joins the shards into OUTDIR.
#
# Submit (from a folder every node sees, since SPEC, its scenario and OUTDIR must be readable and
# writable on the compute nodes at the same paths):
#
#   jobid=$(sbatch --parsable --array=0-7 installers/sweep-slurm.sh my-sweep.json out)
#   sbatch --dependency=afterok:$jobid --kill-on-invalid-dep=yes installers/sweep-slurm.sh merge out
#
# The first line runs 8 shards (`gpuplan-cli sweep my-sweep.json --out out/shard-K --shard K/8`,
# K = 1..8); the second waits until every array task has ended well (and is cancelled, rather
# than left pending for ever, if one fails), then runs
# `gpuplan-cli sweep merge out/shard-* --out out`, which writes out/runs.csv, out/summary.csv
# and out/spec.json: the very bytes `gpuplan-cli sweep my-sweep.json --out out` writes on one
# machine. To merge by hand instead, once `squeue -j $jobid` is empty:
#
#   gpuplan-cli sweep merge out/shard-* --out out
#
# Merge refuses a missing shard (it names the runs in no shard) or one from another sweep, so a
# failed task shows there. Rerun only that task, keeping N: shard 3 of 8 is array task 2,
#
#   GPUPLAN_SWEEP_SHARDS=8 sbatch --array=2 installers/sweep-slurm.sh my-sweep.json out
#
# Arguments: SPEC OUTDIR [gpuplan-cli sweep options, e.g. --presets DIR] (a shard), or
# merge OUTDIR (the merge). The array must be 0-(N-1) (`--array=0-7%4`, at most 4 at a time,
# is fine); the files do not depend on how many tasks run at once, nor on --cpus-per-task.
#
# Threads: each task runs --threads $SLURM_CPUS_PER_TASK (1 unless you submit with
# `--cpus-per-task=C`): gpuplan-cli otherwise starts a thread per core of the node, whatever
# share of it Slurm gave the task.
#
# gpuplan-cli: $GPUPLAN_CLI if set, else the first gpuplan-cli on PATH. Not next to this
# script: sbatch runs a copy of it from slurmd's spool folder, so its own path says nothing.
# sbatch passes the submitting shell's environment to the job (--export=ALL is Slurm's default),
# so `GPUPLAN_CLI=$PWD/build/release/app/cli/gpuplan-cli sbatch ...` works when the build folder
# is on the shared file system.
#
# On the nodes: gpuplan-cli and the libraries it links (the .deb from
# `cmake --build --preset release --target package` installs it with its presets in
# /usr/share/gpuplan/presets; GPUPLAN_PRESETS_DIR or --presets DIR points elsewhere), bash, and
# the shared file system holding SPEC, the scenario it names (a relative path is taken from
# SPEC's folder) and OUTDIR. Nothing is downloaded. Every array task writes only its own
# shard folder, so tasks never write the same file.
set -euo pipefail

die() {
    echo "sweep-slurm.sh: $*" >&2
    exit 2
}

cli=${GPUPLAN_CLI:-$(command -v gpuplan-cli || true)}
[ -n "$cli" ] && [ -x "$cli" ] ||
    die "no gpuplan-cli: put it on PATH or set GPUPLAN_CLI (got \"${GPUPLAN_CLI:-}\")"

if [ "${1:-}" = merge ]; then
    [ $# -eq 2 ] || die "usage: sweep-slurm.sh merge OUTDIR"
    out=$2
    [ -d "$out" ] || die "no folder $out: did the array run?"
    # Shard folders in shard order (shard-2 before shard-10); merge does not depend on the order,
    # but its log reads better.
    mapfile -t folders < <(find "$out" -mindepth 1 -maxdepth 1 -type d -name 'shard-*' | sort -V)
    [ ${#folders[@]} -gt 0 ] || die "no shard-K folders in $out: did the array run?"
    exec "$cli" sweep merge "${folders[@]}" --out "$out"
fi

[ $# -ge 2 ] || die "usage: sbatch --array=0-(N-1) sweep-slurm.sh SPEC OUTDIR [sweep options]
       sbatch --dependency=afterok:JOBID sweep-slurm.sh merge OUTDIR"
spec=$1 out=$2
shift 2
[ -n "${SLURM_ARRAY_TASK_ID:-}" ] ||
    die "not a Slurm array task (no SLURM_ARRAY_TASK_ID): submit with sbatch --array=0-(N-1)"

task=$SLURM_ARRAY_TASK_ID
if [ -n "${GPUPLAN_SWEEP_SHARDS:-}" ]; then
    # A rerun of some tasks of an N-shard sweep: the array no longer says N.
    shards=$GPUPLAN_SWEEP_SHARDS
else
    # Shard K/N comes from the task's place in the array, which only holds for 0..N-1: an array
    # 1-8 would run a shard 9/8, and 0,2,4 would leave shards out without a word.
    shards=${SLURM_ARRAY_TASK_COUNT:-1}
    [ "${SLURM_ARRAY_TASK_MIN:-}" = 0 ] && [ "${SLURM_ARRAY_TASK_MAX:-}" = $((shards - 1)) ] ||
        die "the array must be 0-(N-1), got ${SLURM_ARRAY_TASK_MIN:-?}-${SLURM_ARRAY_TASK_MAX:-?} with" \
            "$shards tasks (set GPUPLAN_SWEEP_SHARDS=N to rerun some tasks of N)"
fi
[ "$task" -lt "$shards" ] || die "array task $task is past the $shards shards"
shard=$((task + 1))

echo "sweep-slurm.sh: shard $shard/$shards of $spec on $(hostname) into $out/shard-$shard"
exec "$cli" sweep "$spec" --out "$out/shard-$shard" --shard "$shard/$shards" \
    --threads "${SLURM_CPUS_PER_TASK:-1}" "$@"
