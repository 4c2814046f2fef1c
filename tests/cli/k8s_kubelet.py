# What the Kubernetes recipe tests share (k8s_sweep_manifest_test.sh, k8s_plan_manifest_test.sh):
# reading the manifests, checking what an Indexed Job needs, and running a container's command
# here as a kubelet would (its $(NAME) / $$ expansion, the volumes as folders).
import os
import re
import subprocess

import yaml


class Checks:
    def __init__(self):
        self.failures = 0

    def __call__(self, ok, what):
        print(("ok: " if ok else "FAIL: ") + what)
        self.failures += not ok


def load(installers, name):
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


def run_pod(job, extra_env, folders, work, presets):
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


def check_indexed_job(check, indexed, merge):
    """The shape an Indexed Job recipe needs; returns (job, merge job, shard count)."""
    kinds = [d["kind"] for d in indexed]
    check(kinds == ["PersistentVolumeClaim", "Job"], f"indexed-job file: a claim and a Job ({kinds})")
    check([d["kind"] for d in merge] == ["Job"], "merge file: one Job")
    claim, job = indexed
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
    return job, mjob, n
