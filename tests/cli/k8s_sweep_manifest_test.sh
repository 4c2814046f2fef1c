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

python3 - "$installers" "$work" "$presets" <<'PY'
import os, re, subprocess, sys
import yaml

installers, work, presets = sys.argv[1:]
failures = 0

def check(ok, what):
    global failures
    print(("ok: " if ok else "FAIL: ") + what)
    failures += not ok

def load(name):
    with open(os.path.join(installers, name)) as f:
        return list(yaml.safe_load_all(f))

def expand(text, env):
    """The kubelet's expansion of command and args: $(NAME) from the container's env when
    defined (else left as written), $$ a literal $."""
    def one(m):
        if m.group(0) == "$$":
            return "$"
        return env.get(m.group(1), m.group(0))
    return re.sub(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)", one, text)

def run_pod(job, extra_env, folders):
    pod = job["spec"]["template"]["spec"]
    (c,) = pod["containers"]
    env = {e["name"]: e["value"] for e in c.get("env", [])}
    env.update(extra_env)
    argv = [expand(a, env) for a in c.get("command", []) + c.get("args", [])]
    # Each volume mount becomes a folder here: its mount path is rewritten in the command.
    for m in c.get("volumeMounts", []):
        argv = [a.replace(m["mountPath"] + "/", folders[m["name"]] + "/") for a in argv]
    full = dict(os.environ, PATH=work + "/bin:" + os.environ["PATH"],
                GPUPLAN_PRESETS_DIR=presets, HOSTNAME=job["metadata"]["name"], **env)
    r = subprocess.run(argv, env=full, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr

sweep = load("sweep-k8s-indexed-job.yaml")
merge = load("sweep-k8s-merge-job.yaml")
kinds = [d["kind"] for d in sweep]
check(kinds == ["PersistentVolumeClaim", "Job"], f"indexed-job file: a claim and a Job ({kinds})")
check([d["kind"] for d in merge] == ["Job"], "merge file: one Job")
claim, job = sweep
(mjob,) = merge
spec = job["spec"]
pod = spec["template"]["spec"]
(c,) = pod["containers"]
env = {e["name"]: e["value"] for e in c.get("env", [])}
n = spec.get("completions")
check(spec.get("completionMode") == "Indexed", "completionMode: Indexed")
check(isinstance(n, int) and n > 0 and env.get("SHARDS") == str(n),
      f"completions ({n}) equal SHARDS ({env.get('SHARDS')})")
check(isinstance(spec.get("parallelism"), int), "parallelism set")
check(pod.get("restartPolicy") == "Never", "restartPolicy: Never")
check(env.get("THREADS") == str(c["resources"]["requests"]["cpu"]),
      "THREADS equals the CPU request")
check("ReadWriteMany" in claim["spec"]["accessModes"], "the claim is ReadWriteMany")
def claims(j):
    return {v["name"]: v["persistentVolumeClaim"]["claimName"]
            for v in j["spec"]["template"]["spec"]["volumes"] if "persistentVolumeClaim" in v}
check(set(claims(job).values()) == {claim["metadata"]["name"]} == set(claims(mjob).values()),
      "the Job and the merge mount the claim")
check(c["image"] == mjob["spec"]["template"]["spec"]["containers"][0]["image"],
      "one image for both")

folders = {"data": work + "/claim", "sweep": work + "/configmap"}
for i in range(n):
    code, out = run_pod(job, {"JOB_COMPLETION_INDEX": str(i)}, folders)
    check(code == 0 and f"shard {i + 1}/{n}" in out, f"pod {i} ran shard {i + 1}/{n}")
    if code:
        print(out)
code, out = run_pod(mjob, {}, folders)
check(code == 0 and f"merged {n} shards: 6 runs of 3 points" in out, "the merge Job merged")
if code:
    print(out)
for f in ["runs.csv", "summary.csv", "spec.json"]:
    a, b = work + "/local/" + f, work + "/claim/out/" + f
    same = os.path.exists(b) and open(a, "rb").read() == open(b, "rb").read()
    check(same, f"{f} from the pods equals the local run's byte for byte")
print(f"{failures} failure(s)")
sys.exit(1 if failures else 0)
PY
