#!/usr/bin/env bash
# The Kubernetes sweep recipes without a cluster: installers/sweep-k8s-indexed-job.yaml and
# installers/sweep-k8s-merge-job.yaml parse (python3-yaml), hold what an Indexed Job needs
# (completionMode Indexed, completions equal to SHARDS, THREADS equal to the CPU request, one
# claim for the shards and the merge), and their containers' commands, run here as a kubelet
# would (its $(NAME) / $$ expansion, the volumes as folders, JOB_COMPLETION_INDEX 0..N-1), give
# the very runs.csv, summary.csv and spec.json of a local `gpuplan-cli sweep`.
# usage: k8s_sweep_manifest_test.sh GPUPLAN_CLI PRESETS_DIR INSTALLERS_DIR
set -euo pipefail
cli=$(realpath -- "$1") presets=$(realpath -- "$2") installers=$(realpath -- "$3")

python3 -c 'import yaml' 2>/dev/null || {
    echo "FAIL: no python3 yaml: install the Debian package python3-yaml (installers/dev.sh test does)"
    exit 1
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# What the ConfigMap holds, as the manifest's comment creates it: the spec names its scenario
# relative to itself.
mkdir -p "$work/bin" "$work/configmap" "$work/claim"
ln -s "$cli" "$work/bin/gpuplan-cli"
cp "$presets/scenarios/default.json" "$work/configmap/scenario.json"
cat >"$work/configmap/spec.json" <<'JSON'
{"format": "gpuplan-sweep", "formatVersion": 1, "scenario": "scenario.json",
 "replications": 2,
 "parameters": [{"pointer": "/demandMultiplier", "values": [0.5, 1.0, 1.5]}]}
JSON
(cd "$work" && GPUPLAN_PRESETS_DIR=$presets "$cli" sweep configmap/spec.json --out local >/dev/null)

PYTHONPATH="$(dirname "${BASH_SOURCE[0]}")" python3 - "$installers" "$work" "$presets" <<'PY'
import os, sys
from k8s_kubelet import Checks, check_indexed_job, load, run_pod

installers, work, presets = sys.argv[1:]
check = Checks()
job, mjob, n = check_indexed_job(check, load(installers, "sweep-k8s-indexed-job.yaml"),
                                 load(installers, "sweep-k8s-merge-job.yaml"))
folders = {"data": work + "/claim", "sweep": work + "/configmap"}
for i in range(n):
    code, out = run_pod(job, {"JOB_COMPLETION_INDEX": str(i)}, folders, work, presets)
    check(code == 0 and f"shard {i + 1}/{n}" in out, f"pod {i} ran shard {i + 1}/{n}")
    if code:
        print(out)
code, out = run_pod(mjob, {}, folders, work, presets)
check(code == 0 and f"merged {n} shards: 6 runs of 3 points" in out, "the merge Job merged")
if code:
    print(out)
for f in ["runs.csv", "summary.csv", "spec.json"]:
    a, b = work + "/local/" + f, work + "/claim/out/" + f
    same = os.path.exists(b) and open(a, "rb").read() == open(b, "rb").read()
    check(same, f"{f} from the pods equals the local run's byte for byte")
print(f"{check.failures} failure(s)")
sys.exit(1 if check.failures else 0)
PY
