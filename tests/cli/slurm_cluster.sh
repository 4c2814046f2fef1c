# A one-node Slurm on this machine for the tests that need a real one (sourced by
# slurm_sweep_test.sh and slurm_import_real_test.sh after `set -euo pipefail`): munged,
# slurmctld and slurmd in a temp folder $T, on free ports, no systemd, not root. On return the
# node $node is idle and SLURM_CONF points at $conf; an EXIT trap cancels the jobs, stops every
# daemon it started and removes $T, printing the daemons' logs when the test fails.
# The caller may set, before sourcing:
#   slurm_conf_extra   lines for slurm.conf before the NodeName line (e.g. GresTypes=gpu)
#   slurm_node_extra   words for the NodeName line, each followed by a space (Gres=gpu:h100:8 )
#   slurm_before_start a function run once $T exists, before the daemons start (gres.conf)
#
# Needs Debian's slurm-wlm and munge (installers/dev.sh installs them); it fails, naming them,
# without.
# The daemons live in /usr/sbin, which a user's PATH may not hold.
export PATH="$PATH:/usr/sbin:/sbin"

fail() {
    echo "FAIL: $*"
    exit 1
}

missing=()
for tool in munged munge unmunge slurmctld slurmd sbatch squeue sinfo scancel scontrol; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
[ ${#missing[@]} -eq 0 ] ||
    fail "no ${missing[*]}: install the Debian packages slurm-wlm and munge" \
        "(apt-get install --no-install-recommends slurm-wlm munge; installers/dev.sh test does)"

user=$(id -un)
T=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-slurm.XXXXXX")
conf=$T/slurm.conf
export SLURM_CONF=$conf  # every client command (sbatch, squeue, ...) reads the private cluster
ctld_pid="" slurmd_pid="" munged_pid=""

# Stops what this test started, in an order that leaves nothing behind: jobs first (a job's
# processes outlive slurmd), then slurmd, slurmctld and munged by the PIDs kept at their start.
stop_pid() {  # stop_pid PID: TERM, up to 10 s, then KILL
    local pid=$1
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}
cleanup() {
    local code=$?
    set +e
    if [ -n "$ctld_pid" ] && kill -0 "$ctld_pid" 2>/dev/null; then
        scancel --quiet --user="$user" >/dev/null 2>&1
        for _ in $(seq 50); do
            [ -z "$(squeue -h 2>/dev/null)" ] && break
            sleep 0.2
        done
    fi
    stop_pid "$slurmd_pid"
    stop_pid "$ctld_pid"
    # Anything still carrying this cluster's SLURM_CONF (a job step slurmd left) is ours.
    for env in /proc/[0-9]*/environ; do
        pid=${env#/proc/}
        pid=${pid%/environ}
        [ "$pid" = $$ ] || [ "$pid" = "$munged_pid" ] && continue
        if grep -qzxF "SLURM_CONF=$conf" "$env" 2>/dev/null; then
            echo "stopping leftover process $pid: $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)"
            kill -KILL "$pid" 2>/dev/null
        fi
    done
    stop_pid "$munged_pid"
    if [ "$code" != 0 ]; then
        for log in "$T"/log/*; do
            [ -s "$log" ] || continue
            # A daemon's stderr repeats its log file; it only tells more when the log is empty.
            [[ $log == *.out && -s ${log%.out}.log ]] && continue
            echo "---- ${log#"$T"/} (last lines)"
            tail -n 15 "$log"
        done
    fi
    rm -rf "$T"
    exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$T/log" "$T/state" "$T/spool"

# A port nothing listens on (bash's /dev/tcp connects only where something does), so the test
# neither meets a Slurm already on this machine nor a second copy of itself under ctest -j.
free_port() {
    local port
    for _ in $(seq 50); do
        port=$((20000 + RANDOM % 40000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return
        fi
    done
    fail "no free TCP port found"
}
ctld_port=$(free_port)
slurmd_port=$(free_port)
while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port); done

# munge: a private key and socket. munged wants every folder above its socket open to all for
# execute and the socket's own not writable by others ("Socket is inaccessible"): hence 711 on
# the temp folder (mktemp makes it 700) and on its munge folder. In the foreground it logs to
# stderr.
chmod 711 "$T"
mkdir -m 711 "$T/munge"
socket=$T/munge/munge.socket.2
[ ${#socket} -lt 100 ] || fail "the munge socket path $socket is too long for a Unix socket (set TMPDIR)"
dd if=/dev/urandom bs=1 count=1024 of="$T/munge/munge.key" status=none
chmod 0400 "$T/munge/munge.key"
# --origin: the address put in credentials, given so that munged need not resolve this host's
# name (a bare root may not list it in /etc/hosts). --force: run as root when the test does.
force=()
[ "$(id -u)" = 0 ] && force=(--force)
munged --foreground "${force[@]}" --origin=127.0.0.1 --key-file="$T/munge/munge.key" \
    --socket="$socket" --pid-file="$T/munge/munged.pid" --log-file="$T/log/munged.log" \
    --seed-file="$T/munge/munged.seed" >>"$T/log/munged.log" 2>&1 &
munged_pid=$!
for _ in $(seq 50); do
    [ -S "$socket" ] && break
    kill -0 "$munged_pid" 2>/dev/null || fail "munged stopped at start"
    sleep 0.1
done
[ -S "$socket" ] || fail "munged made no socket in 5 s"
# A credential round trip before the daemons rely on it: a failure here is munge's, said so.
if ! round_trip=$(munge -n --socket="$socket" | unmunge --socket="$socket" 2>&1); then
    fail "munge cannot encode and decode a credential on $socket: $round_trip"
fi
echo "ok: munged on $socket"

# One node, this machine. slurmctld only runs where SlurmctldHost names the host it is on
# (hostname -s); the node registers under a fixed name at 127.0.0.1, whatever the host resolves
# to. No systemd and no cgroups here: proctrack/linuxproc and task/none follow jobs by their
# process tree, and without accounting there is no slurmdbd. CR_Core lets the array tasks run
# side by side (the default, memory as a resource too, runs them one at a time).
host=$(hostname -s)
node=gpuplan-node
cat >"$conf" <<EOF
ClusterName=gpuplan-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0
ReturnToService=2
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
${slurm_conf_extra:-}
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$(nproc) ${slurm_node_extra:-}State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES State=UP
EOF

# The caller's files beside slurm.conf (gres.conf, ...), now that $T exists.
if declare -F slurm_before_start >/dev/null; then slurm_before_start; fi

# -D: in the foreground, so $! is the daemon; -i: no state from an earlier run.
slurmctld -D -i -f "$conf" >"$T/log/slurmctld.out" 2>&1 &
ctld_pid=$!
slurmd -D -f "$conf" -N "$node" >"$T/log/slurmd.out" 2>&1 &
slurmd_pid=$!
state=""
for _ in $(seq 120); do  # 60 s
    state=$(sinfo -h -n "$node" -o %t 2>/dev/null || true)
    [ "$state" = idle ] && break
    kill -0 "$ctld_pid" 2>/dev/null || fail "slurmctld stopped at start"
    kill -0 "$slurmd_pid" 2>/dev/null || fail "slurmd stopped at start"
    sleep 0.5
done
[ "$state" = idle ] || fail "node $node not idle after 60 s (sinfo says \"$state\")"
echo "ok: slurmctld (port $ctld_port) and slurmd (port $slurmd_port): $node idle"

# Waits until the queue is empty (the submitted jobs ended: no accounting, so no sacct), at
# most 90 s, then says so or fails.
wait_for_empty_queue() {
    for _ in $(seq 180); do
        [ -z "$(squeue -h 2>/dev/null)" ] && break
        sleep 0.5
    done
    [ -z "$(squeue -h)" ] && echo "ok: queue empty" || fail "jobs still queued after 90 s: $(squeue)"
}
