#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, from Debian's slurm-wlm and munge, for running
# magic-search hunts as job arrays (and for the test that does).
#
#   magic-search/slurm/cluster.sh start DIR   # configuration, state and logs in DIR
#   export SLURM_CONF=DIR/slurm.conf          # then sbatch, squeue, scontrol as usual
#   magic-search/slurm/cluster.sh stop DIR
#
# Needs root (the daemons run as root here) and: apt-get install slurm-wlm munge.
# Exits 3, saying why, where Slurm cannot start (missing packages, not root, no node).
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
cannot() { echo "Slurm cannot start here: $*" >&2; exit 3; }

[[ $# -eq 2 ]] || usage
action=$1
mkdir -p "$2"
dir=$(cd "$2" && pwd)
export SLURM_CONF=$dir/slurm.conf

start() {
    for command in munged munge slurmctld slurmd sinfo sbatch scontrol; do
        command -v "$command" >/dev/null || cannot "no $command (apt-get install slurm-wlm munge)"
    done
    [[ $(id -u) -eq 0 ]] || cannot "the daemons need root"
    mkdir -p "$dir/state" "$dir/spool" "$dir/log"
    local host
    host=$(hostname -s)
    cat > "$SLURM_CONF" <<CONF
ClusterName=bitforge
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
MpiDefault=none
KillWait=10
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
    # munge authenticates the daemons to each other: start it unless one already runs.
    if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
        [[ -s /etc/munge/munge.key ]] || cannot "no /etc/munge/munge.key (reinstall munge)"
        mkdir -p /run/munge
        munged --force --log-file="$dir/log/munged.log" 2>"$dir/log/munged.err" ||
            cannot "munged does not start: $(cat "$dir/log/munged.err")"
        touch "$dir/munged.started"
    fi
    slurmctld || cannot "slurmctld does not start (see $dir/log/slurmctld.log)"
    slurmd || cannot "slurmd does not start (see $dir/log/slurmd.log)"
    for _ in $(seq 1 60); do
        if [[ $(sinfo -h -o %T 2>/dev/null) == idle ]]; then
            echo "Slurm is up: export SLURM_CONF=$SLURM_CONF"
            return
        fi
        sleep 0.5
    done
    stop
    cannot "the node did not become idle in 30 s (see $dir/log)"
}

stop() {
    scancel --quiet --full "--user=$(id -un)" 2>/dev/null || true
    for daemon in slurmd slurmctld; do
        if [[ -s $dir/$daemon.pid ]]; then
            kill "$(cat "$dir/$daemon.pid")" 2>/dev/null || true
        fi
    done
    for daemon in slurmd slurmctld; do
        for _ in $(seq 1 20); do
            [[ -s $dir/$daemon.pid ]] && kill -0 "$(cat "$dir/$daemon.pid")" 2>/dev/null || break
            sleep 0.25
        done
    done
    if [[ -e $dir/munged.started ]] && [[ -s /run/munge/munged.pid ]]; then
        kill "$(cat /run/munge/munged.pid)" 2>/dev/null || true
        rm -f "$dir/munged.started"
    fi
    echo "Slurm stopped"
}

case $action in
    start) start ;;
    stop) stop ;;
    *) usage ;;
esac
