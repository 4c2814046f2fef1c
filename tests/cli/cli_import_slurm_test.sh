#!/usr/bin/env bash
# gpuplan-cli import-slurm end to end: scontrol's nodes and sacct's jobs into a scenario that
# `validate` accepts and `run` replays; bad inputs give exit 2 with file and line, and --out
# is then not written.
# usage: cli_import_slurm_test.sh GPUPLAN_CLI PRESETS_DIR TEST_DATA_DIR
set -u
cli=$(realpath -- "$1") presets=$(realpath -- "$2") data=$(realpath -- "$3")
slurm=$data/slurm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/expect.sh"

import() { "$cli" import-slurm --presets "$presets" "$@"; }

expect 0 'usage: gpuplan-cli import-slurm --nodes NODES.txt' -- "$cli" import-slurm --help
expect 0 'import-slurm --nodes NODES.txt' -- "$cli" --help
expect 2 '--nodes NODES.txt is required' -- import --out "$work/s.json"
expect 2 '--out FILE is required' -- import --nodes "$slurm/nodes.txt"
expect 2 '--gpu-type needs NAME=VALUE, got "h100"' -- \
    import --nodes "$slurm/nodes.txt" --out "$work/s.json" --gpu-type h100

# nodes.txt's gpu06 has the ambiguous type "h100": refused with its line until --gpu-type.
expect_text 2 'nodes.txt: line 6: node gpu06: GPU type "h100" is not one catalog GPU model (it could be h100-sxm, h100-pcie, h100-nvl); name it with --gpu-type h100=MODEL' \
    -- import --nodes "$slurm/nodes.txt" --out "$work/s.json"
if [ -e "$work/s.json" ]; then fail "s.json written after a failed import"; else echo "ok: s.json not written"; fi
expect 2 'error: --gpu-type: h100=h1000: no GPU model "h1000" in the catalog' \
    -- import --nodes "$slurm/nodes.txt" --out "$work/s.json" --gpu-type h100=h1000

# Nodes alone: six GPU nodes, a week, the summary.
expect_text 0 '6 GPU nodes with 34 GPUs' \
    -- import --nodes "$slurm/nodes.txt" --out "$work/s.json" --gpu-type h100=h100-pcie
expect_text 0 'gpu02 (IDLE+DRAIN: bad gpu [root@2026-10-01T08:00:00])' \
    -- import --nodes "$slurm/nodes.txt" --out "$work/s.json" --gpu-type h100=h100-pcie
expect_text 0 'horizon 7.00 d (no jobs to span)' \
    -- import --nodes "$slurm/nodes.txt" --out "$work/s.json" --gpu-type h100=h100-pcie
expect_text 0 '2 nodes without GPUs: cpu01, cpu02' \
    -- import --nodes "$slurm/nodes.txt" --out "$work/s.json" --gpu-type h100=h100-pcie
expect 0 '^ok: .*s.json' -- "$cli" validate --presets "$presets" "$work/s.json"

# topology.conf: leaf switches are racks, the spine their pod.
expect_text 0 '6 GPU nodes with 34 GPUs in 2 pods and 4 racks' \
    -- import --nodes "$slurm/nodes.txt" --topology "$slurm/topology.conf" --out "$work/t.json" \
       --gpu-type h100=h100-pcie
expect 0 '^ok: .*t.json' -- "$cli" validate --presets "$presets" "$work/t.json"
printf 'SwitchName=a Nodes=gpu[01-02]\nSwitchName=b Nodes=gpu02\n' >"$work/twice.conf"
expect_text 2 'twice.conf: line 2: node gpu02 is under both a and b' \
    -- import --nodes "$slurm/nodes.txt" --topology "$work/twice.conf" --out "$work/bad.json" \
       --gpu-type h100=h100-pcie

# With the accounting export, into a sub-folder: the scenario names the file relative to it.
mkdir -p "$work/plans"
expect_text 0 '13 GPU jobs from' \
    -- import --nodes "$slurm/nodes.txt" --jobs "$slurm/sacct.txt" --out "$work/plans/slurm.json" \
       --gpu-type h100=h100-pcie
# The export spans 08:00 to 14:00: 6 h + a day = 30 h = 1.25 d.
expect_text 0 'horizon 1.25 d: from the first submit to the export, plus a day' \
    -- import --nodes "$slurm/nodes.txt" --jobs "$slurm/sacct.txt" --out "$work/plans/slurm.json" \
       --gpu-type h100=h100-pcie
expect_text 0 '1 CPU-only job' \
    -- import --nodes "$slurm/nodes.txt" --jobs "$slurm/sacct.txt" --out "$work/plans/slurm.json" \
       --gpu-type h100=h100-pcie
expect_text 0 'run to the end of the horizon' \
    -- import --nodes "$slurm/nodes.txt" --jobs "$slurm/sacct.txt" --out "$work/plans/slurm.json" \
       --gpu-type h100=h100-pcie
want_file=$(realpath --relative-to="$work/plans" "$slurm/sacct.txt")
if grep -qF "\"file\": \"$want_file\"" "$work/plans/slurm.json"; then
    echo "ok: the trace file is relative to the scenario ($want_file)"
else
    fail "slurm.json does not name $want_file"
fi
expect_text 0 'trace '"$want_file"': 13 GPU jobs replayed (4 finished' \
    -- "$cli" run --presets "$presets" "$work/plans/slurm.json"
expect 0 'vision' -- "$cli" run --presets "$presets" "$work/plans/slurm.json"
expect_text 0 'horizon 2.00 d (as asked)' \
    -- import --nodes "$slurm/nodes.txt" --jobs "$slurm/sacct.txt" --out "$work/plans/slurm2.json" \
       --gpu-type h100=h100-pcie --horizon-days 2

# A job asking a GPU type (ReqTRES gres/gpu:h100=8) keeps to its model: "h100" maps as the
# nodes' types do, so without --gpu-type it is refused with the line that asks it, and with
# one the trace keeps the mapping ("gpuTypes") and the run honours it.
head -3 "$slurm/nodes.txt" >"$work/nodes-sxm.txt"  # gpu01–03: nvidia_h100_80gb_hbm3 only
{
    head -1 "$slurm/sacct.txt"
    echo '200|vision|gpu|typed|gres/gpu:h100=8,gres/gpu=8|gres/gpu:h100=8,gres/gpu=8|COMPLETED|2026-10-01T08:00:00|2026-10-01T08:00:00|2026-10-01T09:00:00|120|1'
    echo '201|nlp|gpu|any|gres/gpu=8|gres/gpu=8|COMPLETED|2026-10-01T08:00:00|2026-10-01T08:00:00|2026-10-01T08:30:00|120|1'
} >"$work/typed.txt"
expect_text 2 'typed.txt: line 2: a job asks GPU type "h100" (ReqTRES), which is not one catalog GPU model (it could be h100-sxm, h100-pcie, h100-nvl); name it with --gpu-type h100=MODEL' \
    -- import --nodes "$work/nodes-sxm.txt" --jobs "$work/typed.txt" --out "$work/plans/typed.json"
expect_text 0 'jobs asking a GPU type (ReqTRES gres/gpu:TYPE) run on its model only: h100 → h100-sxm (1 job); other jobs on any model' \
    -- import --nodes "$work/nodes-sxm.txt" --jobs "$work/typed.txt" --out "$work/plans/typed.json" \
       --gpu-type h100=h100-sxm
if grep -q '"gpuTypes"' "$work/plans/typed.json" && grep -q '"h100": "h100-sxm"' "$work/plans/typed.json"; then
    echo "ok: the trace keeps the job types' mapping"
else
    fail "typed.json has no \"gpuTypes\": {\"h100\": \"h100-sxm\"}"
fi
expect 0 '^ok: .*typed.json' -- "$cli" validate --presets "$presets" "$work/plans/typed.json"
expect_text 0 'jobs_started               2' -- "$cli" run --presets "$presets" "$work/plans/typed.json"

# Bad exports: exit 2 with file and line, --out not written.
printf 'JobID|Account|Partition|Submit|Start|End|State|AllocTRES\n' >"$work/nolimit.txt"
expect_text 2 'nolimit.txt: line 1: no TimelimitRaw column' \
    -- import --nodes "$slurm/nodes.txt" --jobs "$work/nolimit.txt" --out "$work/bad.json" --gpu-type h100=h100-pcie
{
    head -3 "$slurm/sacct.txt"
    echo '9|a|gpu|2026-10-01T08:00:00|x|y|MELTED|gres/gpu=1||60|1'
} >"$work/badstate.txt"
expect_text 2 'badstate.txt: line 4:' \
    -- import --nodes "$slurm/nodes.txt" --jobs "$work/badstate.txt" --out "$work/bad.json" --gpu-type h100=h100-pcie
if [ -e "$work/bad.json" ]; then fail "bad.json written after a failed import"; else echo "ok: bad.json not written"; fi

# The builder's checks name the line too.
printf 'NodeName=a Gres=gpu:l4:1 State=IDLE\nNodeName=a Gres=gpu:l4:1 State=IDLE\n' >"$work/dup.txt"
expect_text 2 'dup.txt: line 2: node a: a second node of this name (the first is at line 1)' \
    -- import --nodes "$work/dup.txt" --out "$work/bad.json"

# Hostile: a 100 MB file is refused by size before it is read; a missing file by name.
truncate -s 100M "$work/huge.txt"
expect 2 'huge.txt: .*larger than' -- timeout 10 "$cli" import-slurm --presets "$presets" --nodes "$work/huge.txt" --out "$work/h.json"
expect 2 'missing.txt: file not found' -- import --nodes "$work/missing.txt" --out "$work/m.json"

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
