#!/usr/bin/env bash
# A hunt run as a Slurm job array on a one-node cluster (cluster.sh), interrupted the ways a
# real cluster interrupts it, then merged and compared with one local run:
#
#   1. start the cluster; submit `hunt rook a1 --bits 11` over 2^34 candidates as 8 array tasks
#      (one thread each, a checkpoint every 200 ms);
#   2. preempt tasks 0 and 1 mid-run (`scontrol requeue`: SIGTERM, the hunt saves and exits,
#      the task goes back to the queue) and let them resume;
#   3. kill task 4's process mid-run (SIGKILL, as a crash: at most 200 ms of work lost),
#      requeue it and let it resume from its last checkpoint;
#   4. wait for every task, print `magic-search status`, `merge` the 8 files, run the same hunt
#      locally in one process and compare the two results (the time spent left out).
#
# Usage: magic-search/slurm/hunt-array.sh MAGIC_SEARCH_BINARY WORK_DIR
# Exits 0 when the merged result equals the local one, 1 when it does not or a step fails,
# 3 when Slurm cannot start here (see cluster.sh).
set -euo pipefail

[[ $# -eq 2 ]] || { echo "usage: $0 MAGIC_SEARCH_BINARY WORK_DIR" >&2; exit 2; }
bin=$(realpath "$1")
mkdir -p "$2"
work=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
tasks=8
hunt=(hunt rook a1 --bits 11 --range 2^52..0x10000400000000 --checkpoint-every 200ms)

log() { echo "[$(date +%H:%M:%S)] $*"; }
fail() { log "FAILED: $*"; exit 1; }

"$here/cluster.sh" start "$work/cluster" || exit $?
export SLURM_CONF=$work/cluster/slurm.conf
trap '"$here/cluster.sh" stop "$work/cluster" >/dev/null' EXIT

id=$(sbatch --parsable --array=0-$((tasks - 1)) --requeue --open-mode=append \
    --chdir="$work" --output="$work/task-%a.out" --job-name=hunt-a1 \
    --wrap "exec $bin ${hunt[*]} --threads 1 --chunk \$SLURM_ARRAY_TASK_ID/$tasks --checkpoint $work/a1-\$SLURM_ARRAY_TASK_ID.hunt")
log "submitted job array $id: $tasks tasks of: magic-search ${hunt[*]} --threads 1"

# Waits (at most two minutes) until task $1's checkpoint shows progress.
wait_for_progress() {
    local file=$work/a1-$1.hunt
    for _ in $(seq 1 480); do
        if [[ -s $file ]] && ! "$bin" status "$file" 2>/dev/null | grep -q "covered: 0x0 "; then
            return
        fi
        sleep 0.25
    done
    fail "task $1 made no progress in two minutes"
}

# Releases a requeued task at once: Slurm holds a requeued job for two minutes (its begin
# time), set only once the job has left the node, so wait for that hold, then lift it.
release() {
    for _ in $(seq 1 240); do
        case $(squeue -h -j "${id}_$1" -o '%T %r' 2>/dev/null) in
            "PENDING BeginTime") scontrol update "JobId=${id}_$1" StartTime=now ;;
            RUNNING* | "PENDING Resources" | "PENDING Priority") return ;;
        esac
        sleep 0.25
    done
    fail "task $1 was not released from its requeue hold"
}

task_state() { squeue -h -j "${id}_$1" -o %T 2>/dev/null || true; }

# Tasks 0 and 1 start together (one CPU each): both are preempted once both have saved some
# progress, well before either ends (each takes seconds).
wait_for_progress 0
wait_for_progress 1
for task in 0 1; do
    log "preempting task $task: $("$bin" status "$work/a1-$task.hunt" | grep covered:)"
    scontrol requeue "${id}_$task"
done
release 0
release 1

wait_for_progress 4
pid=$(pgrep -f -- "--chunk 4/$tasks" | head -n 1) || fail "no process for task 4"
log "killing task 4's process $pid (SIGKILL): $("$bin" status "$work/a1-4.hunt" | grep covered:)"
kill -KILL "$pid"
for _ in $(seq 1 120); do
    [[ $(task_state 4) == RUNNING ]] || break
    sleep 0.25
done
scontrol requeue "${id}_4"
release 4
log "task 4 requeued"

for _ in $(seq 1 1200); do
    [[ -z $(squeue -h -j "$id" 2>/dev/null) ]] && break
    sleep 0.5
done
[[ -z $(squeue -h -j "$id") ]] || fail "tasks still queued after ten minutes: $(squeue -h -j "$id")"
log "every task has ended"

for task in $(seq 0 $((tasks - 1))); do
    starts=$(grep -c '^target:' "$work/task-$task.out" || true)
    resumed=$(grep '^resumed:' "$work/task-$task.out" | tr '\n' ' ' || true)
    log "task $task: started $starts times${resumed:+; $resumed}"
done
for task in 0 1 4; do
    grep -q '^resumed:' "$work/task-$task.out" || fail "task $task did not resume from its checkpoint"
done

"$bin" status "$work"/a1-*.hunt
"$bin" merge "$work"/a1-*.hunt --out "$work/merged.hunt" --force > "$work/merge.out" ||
    fail "merge: $(cat "$work/merge.out")"
log "merged: $(grep -E '^(result|found):' "$work/merge.out" | head -n 1)"
"$bin" "${hunt[@]}" --threads 2 --checkpoint "$work/local.hunt" > "$work/local.out" 2>/dev/null ||
    fail "the local run: $(cat "$work/local.out")"
log "local run: $(grep '^covered:' "$work/local.out")"
strip() { grep -v -e '^#' -e '^elapsed-ms' "$1"; }
if ! diff <(strip "$work/merged.hunt") <(strip "$work/local.hunt") > "$work/diff.out"; then
    fail "the merged result differs from the local run: $(cat "$work/diff.out")"
fi
log "the merged result equals the local run's"
