#!/usr/bin/env bash
# The Kubernetes plan recipes without a cluster: installers/plan-k8s-indexed-job.yaml and
# installers/plan-k8s-merge-job.yaml parse and hold what an Indexed Job needs, and their
# containers' commands, run here as a kubelet would (k8s_kubelet.py), give the very plan.json
# of a local `gpuplan-cli plan --json`.
# usage: k8s_plan_manifest_test.sh GPUPLAN_CLI PRESETS_DIR INSTALLERS_DIR
set -euo pipefail
cli=$(realpath -- "$1") presets=$(realpath -- "$2") installers=$(realpath -- "$3")

python3 -c 'import yaml' 2>/dev/null || {
    echo "FAIL: no python3 yaml: install the Debian package python3-yaml (installers/dev.sh test does)"
    exit 1
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# What the ConfigMap holds, as the manifest's comment creates it.
mkdir -p "$work/bin" "$work/configmap" "$work/claim"
ln -s "$cli" "$work/bin/gpuplan-cli"
cp "$presets/scenarios/default.json" "$work/configmap/scenario.json"
printf '%s\n' --target 'wait_s_p95<=600' --vary '/topology/pods/0/racks/0/count=1..6' \
    --replications 3 >"$work/configmap/question.args"
(cd "$work" && GPUPLAN_PRESETS_DIR=$presets "$cli" plan configmap/scenario.json \
    --target 'wait_s_p95<=600' --vary '/topology/pods/0/racks/0/count=1..6' --replications 3 \
    --json >local.json)

PYTHONPATH="$(dirname "${BASH_SOURCE[0]}")" python3 - "$installers" "$work" "$presets" <<'PY'
import os, sys
from k8s_kubelet import Checks, check_indexed_job, load, run_pod

installers, work, presets = sys.argv[1:]
check = Checks()
job, mjob, n = check_indexed_job(check, load(installers, "plan-k8s-indexed-job.yaml"),
                                 load(installers, "plan-k8s-merge-job.yaml"))
folders = {"data": work + "/claim", "plan": work + "/configmap"}
os.makedirs(work + "/claim/out", exist_ok=True)
for i in range(n):
    code, out = run_pod(job, {"JOB_COMPLETION_INDEX": str(i)}, folders, work, presets)
    check(code == 0 and f"shard {i + 1}/{n}:" in out, f"pod {i} ran shard {i + 1}/{n}")
    if code:
        print(out)
code, out = run_pod(mjob, {}, folders, work, presets)
check(code == 0 and "merged the shards" in out, "the merge Job merged")
if code:
    print(out)
a, b = work + "/local.json", work + "/claim/out/plan.json"
same = os.path.exists(b) and open(a, "rb").read() == open(b, "rb").read()
check(same, "plan.json from the pods equals the local answer byte for byte")
print(f"{check.failures} failure(s)")
sys.exit(1 if check.failures else 0)
PY
