#!/usr/bin/env bash
# import-slurm on a real Slurm's own output: starts munged, slurmctld and slurmd for a one-node
# cluster (as slurm_sweep_test.sh does: a temp folder, free ports, no systemd, not root) whose
# node declares Gres=gpu:h100:8 (GresTypes=gpu, gres.conf files that are no devices), imports
# `scontrol show node --oneliner` as the cluster prints it, drains the node with a reason and
# imports again: 8 H100 GPUs, the node's CPUs and memory, Ready, then Cordoned with the reason.
# Every daemon it started is stopped and the temp folder removed, whether it passes or fails.
# No accounting database here, so no sacct: the accounting reader is tested on fixtures.
# usage: slurm_import_real_test.sh GPUPLAN_CLI PRESETS_DIR
set -euo pipefail
cli=$(realpath -- "$1") presets=$(realpath -- "$2")
mem_mb=$(($(awk '/^MemTotal:/ {print $2}' /proc/meminfo) / 1024 / 2))  # half: slurmd checks it
# Eight GPUs of type h100 on a machine without GPUs. Slurm 22.05 drops a GPU gres.conf line
# without File= ("Removing file-less GPU"), so the files are eight empty ones: slurmd logs that
# they are no devices and counts them. config_overrides: the node is what slurm.conf says,
# never drained for reporting less.
slurm_conf_extra="GresTypes=gpu
SlurmdParameters=config_overrides"
slurm_node_extra="RealMemory=$mem_mb Gres=gpu:h100:8 "
slurm_before_start() {
    mkdir -p "$T/dev"
    touch "$T"/dev/nvidia{0..7}
    echo "NodeName=$node Name=gpu Type=h100 File=$T/dev/nvidia[0-7]" >"$T/gres.conf"
}
source "$(dirname "${BASH_SOURCE[0]}")/slurm_cluster.sh"

# The node as Slurm prints it, imported.
scontrol show node --oneliner >"$T/nodes.txt" || fail "scontrol show node"
echo "scontrol: $(cat "$T/nodes.txt")"
grep -q 'Gres=gpu:h100:8' "$T/nodes.txt" || fail "no Gres=gpu:h100:8 in: $(cat "$T/nodes.txt")"
"$cli" import-slurm --presets "$presets" --nodes "$T/nodes.txt" --gpu-type h100=h100-sxm \
    --out "$T/slurm.json" >"$T/import.out" 2>&1 || fail "import-slurm: $(cat "$T/import.out")"
cat "$T/import.out"
grep -qF '1 GPU node with 8 GPUs' "$T/import.out" && echo "ok: 1 node of 8 GPUs" ||
    fail "import-slurm did not map 8 GPUs"
grep -qF "1 node of 8 × NVIDIA H100 80GB SXM5, $(nproc) CPU cores, $(awk "BEGIN {printf \"%d\", int($mem_mb / 1024)}") GiB" "$T/import.out" &&
    echo "ok: its CPUs ($(nproc)) and RealMemory ($mem_mb MB)" || fail "CPUs or memory not as configured"
if grep -q 'cordoned\|failed' "$T/import.out"; then fail "an idle node imported not Ready"; fi
"$cli" run --presets "$presets" "$T/slurm.json" >"$T/run.out" 2>&1 && echo "ok: the scenario runs" ||
    fail "run: $(cat "$T/run.out")"

# Drained with a reason: Cordoned, the reason kept.
scontrol update nodename="$node" state=drain reason="bad gpu" || fail "scontrol update"
scontrol show node --oneliner >"$T/drained.txt"
"$cli" import-slurm --presets "$presets" --nodes "$T/drained.txt" --gpu-type h100=h100-sxm \
    --out "$T/drained.json" >"$T/drained.out" 2>&1 || fail "import-slurm: $(cat "$T/drained.out")"
grep -qE "1 node cordoned: $node \\(IDLE\\+DRAIN: bad gpu \\[$user@" "$T/drained.out" &&
    echo "ok: drained: cordoned with its reason" || fail "drained node: $(cat "$T/drained.out")"
echo "0 failure(s)"
