#!/usr/bin/env bash
# gpuplan-cli import-k8s end to end: import a small Kubernetes fleet (tests/data/k8s), run it;
# bad input gives exit 2 with file and JSON pointer, and --out is not written.
# usage: cli_import_k8s_test.sh GPUPLAN_CLI PRESETS_DIR TEST_DATA_DIR
set -u
cli=$(realpath -- "$1") presets=$(realpath -- "$2") data=$(realpath -- "$3")
k8s=$data/k8s
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/expect.sh"

import() { "$cli" import-k8s --presets "$presets" "$@"; }

expect 0 'usage: gpuplan-cli import-k8s NODES.json' -- "$cli" import-k8s --help
expect 2 'no nodes file given' -- import --out "$work/s.json"
expect 2 '--out FILE is required' -- import "$k8s/nodes.json"
expect 2 '--topology-labels needs POD_LABEL,RACK_LABEL' -- \
    import "$k8s/nodes.json" --out "$work/s.json" --topology-labels zone
expect 2 '--gpu-product needs NAME=VALUE' -- \
    import "$k8s/nodes.json" --out "$work/s.json" --gpu-product h100

# The fixture: 6 GPU nodes (4 × 8 H100 + 2 A100 + 1 L4 = 35 GPUs), the running pods pinned.
expect_text 0 '6 GPU nodes with 35 GPUs in 2 pods and 3 racks' -- \
    import "$k8s/nodes.json" --pods "$k8s/pods.json" --out "$work/s.json" --horizon-days 1
expect_text 0 'GPU pods: 4 running, pinned to their nodes at t = 0; 1 pending' -- \
    import "$k8s/nodes.json" --pods "$k8s/pods.json" --out "$work/s.json" --horizon-days 1
expect_text 0 '2 nodes without GPUs: cpu-0, mi300-0' -- \
    import "$k8s/nodes.json" --pods "$k8s/pods.json" --out "$work/s.json" --horizon-days 1
expect '0' '^ok: .*s.json' -- "$cli" validate --presets "$presets" "$work/s.json"
# 4 running pods start at once; the pending fine-tune too (a Ready H100 node has room).
expect_text 0 'jobs_started               5' -- "$cli" run --presets "$presets" "$work/s.json"

# A node in MIG's mixed strategy keeps every instance it reports: 8 H100 with 8 × 3g.40gb,
# 4 × 2g.20gb and 14 × 1g.10gb get a layout per GPU (4 GPUs 3g + 2g + 1g, 2 with 3g + 3 × 1g,
# 2 with 3g + 2 × 1g: tests/engine/test_mig_geometry.cpp works it out), written as
# "migLayouts"; the scenario validates and all 26 instances serve pods at once.
cat >"$work/mixed.json" <<'JSON'
{"kind": "List", "items": [{"kind": "Node",
  "metadata": {"name": "h100-mixed", "labels": {"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3",
    "nvidia.com/gpu.count": "8", "nvidia.com/mig.strategy": "mixed"}},
  "status": {"allocatable": {"cpu": "96", "memory": "1Ti", "nvidia.com/gpu": "0",
    "nvidia.com/mig-3g.40gb": "8", "nvidia.com/mig-2g.20gb": "4", "nvidia.com/mig-1g.10gb": "14"}}}]}
JSON
expect_text 0 '1 node with MIG: h100-mixed (4 GPUs: 3g.40gb, 2g.20gb, 1g.10gb; 2 GPUs: 3g.40gb, 1g.10gb, 1g.10gb, 1g.10gb; 2 GPUs: 3g.40gb, 1g.10gb, 1g.10gb)' \
    -- import "$work/mixed.json" --out "$work/mixed-s.json"
if grep -q '"migLayouts"' "$work/mixed-s.json" && ! grep -q 'left out' "$work/out" 2>/dev/null; then
    echo "ok: the mixed node is written with a layout per GPU"
else
    fail "mixed-s.json has no \"migLayouts\""
fi
expect 0 '^ok: .*mixed-s.json' -- "$cli" validate --presets "$presets" "$work/mixed-s.json"
# Counts no layout holds (3 × 7g on 2 GPUs) are left out by name, not silently.
sed -e 's/"nvidia.com\/gpu.count": "8"/"nvidia.com\/gpu.count": "2"/' \
    -e 's/"nvidia.com\/mig-3g.40gb": "8", "nvidia.com\/mig-2g.20gb": "4", "nvidia.com\/mig-1g.10gb": "14"/"nvidia.com\/mig-7g.80gb": "3"/' \
    "$work/mixed.json" >"$work/toomany.json"
expect_text 0 'h100-mixed: 1 MIG instance (1 × 7g.80gb) left out: no layout of its 2 GPUs holds them with the others' \
    -- import "$work/toomany.json" --out "$work/toomany-s.json"

# End to end: the imported fleet's run in the planning meeting's PDF (when this gpuplan-cli
# has the application's report; a build without it says so).
if "$cli" report "$work/s.json" --presets "$presets" --out "$work/r.pdf" >"$work/out" 2>&1; then
    if pdftotext -layout "$work/r.pdf" - | grep -q 'Imported: nodes'; then
        echo "ok: the imported fleet's report names it"
    else
        fail "the report of the imported fleet lacks its name"
    fi
elif grep -q 'built without the application' "$work/out"; then
    echo "ok: no report in this build (GPUPLAN_BUILD_APP=OFF)"
else
    fail "report of the imported fleet: $(cat "$work/out")"
fi

# Bad input: exit 2 with the file and the pointer; --out keeps what it held.
cp "$work/s.json" "$work/before.json"
sed 's/"cpu": "191450m"/"cpu": "lots"/' "$k8s/nodes.json" > "$work/bad-cpu.json"
expect_text 2 'bad-cpu.json: /items/0/status/allocatable/cpu: "lots" is not a Kubernetes quantity' \
    -- import "$work/bad-cpu.json" --out "$work/s.json"
sed 's/NVIDIA-L4-SHARED/NVIDIA-RTX-PRO-6000/' "$k8s/nodes.json" > "$work/bad-model.json"
expect_text 2 'node gpu-l4-ts: GPU product "NVIDIA-RTX-PRO-6000" is not in the catalog' \
    -- import "$work/bad-model.json" --out "$work/s.json"
expect_text 0 '1 node of 1 × NVIDIA L40S' -- \
    import "$work/bad-model.json" --out "$work/other.json" --gpu-product NVIDIA-RTX-PRO-6000=l40s
expect_text 2 'pods.json: /items/0/kind: expected a Node, got "Pod"' \
    -- import "$k8s/pods.json" --out "$work/s.json"
head -c 300 "$k8s/nodes.json" > "$work/cut.json"
expect 2 'cut.json: line [0-9]+, column [0-9]+' -- import "$work/cut.json" --out "$work/s.json"
if cmp -s "$work/s.json" "$work/before.json"; then
    echo "ok: a refused import leaves --out as it was"
else
    fail "a refused import changed --out"
fi

[ "$failures" = 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "all import-k8s checks passed"
