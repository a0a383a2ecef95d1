#!/usr/bin/env bash
# A real single-node Slurm cluster on localhost for Cascade's Slurm tests:
#   scripts/slurm-cluster.sh start|stop|status|env
# Its config, state, logs and the daemons' pids live in one folder (CASCADE_SLURM_CLUSTER_DIR,
# /tmp/cascade-slurm-cluster by default); `stop` kills only the daemons that `start` recorded.
# Clients find it by SLURM_CONF=<dir>/slurm.conf (`env` prints the line to eval). Needs Debian's
# slurm-wlm and munge (apt-get install slurm-wlm munge) and root, as slurmd does.
set -euo pipefail

DIR="${CASCADE_SLURM_CLUSTER_DIR:-/tmp/cascade-slurm-cluster}"
CPUS="${CASCADE_SLURM_CLUSTER_CPUS:-$(nproc)}"
CTL_PORT="${CASCADE_SLURM_CLUSTER_PORT:-6817}"
CONF="$DIR/slurm.conf"
SOCKET="$DIR/munge/munge.socket"

die() { echo "slurm-cluster: $*" >&2; exit 1; }

need() {
  local tool
  for tool in munged slurmctld slurmd sbatch squeue scontrol; do
    command -v "$tool" >/dev/null 2>&1 ||
      die "$tool is missing: install Debian's packages with apt-get install slurm-wlm munge"
  done
  [[ "$(id -u)" == 0 ]] || die "start needs root: slurmd runs jobs as their users"
}

write_config() {
  local memory
  memory=$(( $(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo) * 3 / 4 ))
  mkdir -p "$DIR/munge" "$DIR/state" "$DIR/spool" "$DIR/log"
  chmod 700 "$DIR/munge"
  [[ -f "$DIR/munge.key" ]] || head -c 1024 /dev/urandom > "$DIR/munge.key"
  chmod 400 "$DIR/munge.key"
  cat > "$CONF" <<CONF
# Written by scripts/slurm-cluster.sh: one node, localhost, everything in $DIR.
ClusterName=cascade
SlurmctldHost=localhost
SlurmctldPort=$CTL_PORT
SlurmdPort=$((CTL_PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$SOCKET
CredType=cred/munge
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=512
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
MinJobAge=600
KillWait=5
InactiveLimit=0
SlurmdTimeout=60
MaxArraySize=10001
NodeName=localhost CPUs=$CPUS RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
}

alive() { [[ -f "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

answers() { SLURM_CONF="$CONF" scontrol ping 2>/dev/null | grep -q 'is UP'; }

start() {
  need
  if alive "$DIR/slurmctld.pid" && answers; then
    echo "slurm-cluster: already running in $DIR"; return 0
  fi
  write_config
  munged --key-file="$DIR/munge.key" --socket="$SOCKET" --pid-file="$DIR/munged.pid" \
    --log-file="$DIR/log/munged.log" --seed-file="$DIR/munge/seed" --force
  SLURM_CONF="$CONF" slurmctld -c -f "$CONF"
  SLURM_CONF="$CONF" slurmd -N localhost -f "$CONF"
  for _ in $(seq 1 60); do
    if answers && SLURM_CONF="$CONF" sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
      echo "slurm-cluster: up in $DIR ($CPUS CPUs); export SLURM_CONF=$CONF"
      return 0
    fi
    sleep 0.5
  done
  tail -n 20 "$DIR/log/slurmctld.log" "$DIR/log/slurmd.log" >&2 || true
  stop
  die "the controller did not come up within 30 s (logs above)"
}

stop() {
  local daemon pid
  for daemon in slurmd slurmctld munged; do
    if alive "$DIR/$daemon.pid"; then
      pid="$(cat "$DIR/$daemon.pid")"
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$DIR/$daemon.pid"
  done
  echo "slurm-cluster: stopped"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) answers && echo "slurm-cluster: up ($CONF)" || { echo "slurm-cluster: down"; exit 1; } ;;
  env) echo "export SLURM_CONF=$CONF" ;;
  *) echo "usage: $0 start|stop|status|env" >&2; exit 2 ;;
esac
