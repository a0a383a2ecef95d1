#!/usr/bin/env bash
# A real single-node Slurm cluster on localhost for Cascade's Slurm tests:
#   scripts/slurm-cluster.sh start|stop|status|env
# Its config, state, logs and the daemons' pids live in one folder (CASCADE_SLURM_CLUSTER_DIR,
# /tmp/cascade-slurm-cluster by default); `stop` kills only the daemons that `start` recorded.
# Clients find it by SLURM_CONF=<dir>/slurm.conf (`env` prints the line to eval). Needs Debian's
# slurm-wlm and munge (apt-get install slurm-wlm munge) and root, as slurmd does.
# CASCADE_SLURM_CLUSTER_ACCOUNTING=1 also runs MariaDB and slurmdbd, so sacct works, and samples
# steps' memory (sacct's MaxRSS; a step over its --mem is killed) (needs apt-get install slurmdbd
# mariadb-server). CASCADE_SLURM_CLUSTER_PORT (6817; it uses four ports from there) and
# CASCADE_SLURM_CLUSTER_MIN_JOB_AGE (600 s) let a second cluster run beside.
set -euo pipefail

DIR="${CASCADE_SLURM_CLUSTER_DIR:-/tmp/cascade-slurm-cluster}"
CPUS="${CASCADE_SLURM_CLUSTER_CPUS:-$(nproc)}"
CTL_PORT="${CASCADE_SLURM_CLUSTER_PORT:-6817}"
CONF="$DIR/slurm.conf"
SOCKET="$DIR/munge/munge.socket"
ACCOUNTING="${CASCADE_SLURM_CLUSTER_ACCOUNTING:-0}"
MIN_JOB_AGE="${CASCADE_SLURM_CLUSTER_MIN_JOB_AGE:-600}"
DBD_PORT=$((CTL_PORT + 2))
DB_PORT=$((CTL_PORT + 3))

die() { echo "slurm-cluster: $*" >&2; exit 1; }

need() {
  local tool
  for tool in munged slurmctld slurmd sbatch squeue scontrol; do
    command -v "$tool" >/dev/null 2>&1 ||
      die "$tool is missing: install Debian's packages with apt-get install slurm-wlm munge"
  done
  [[ "$(id -u)" == 0 ]] || die "start needs root: slurmd runs jobs as their users"
  if [[ "$ACCOUNTING" == 1 ]]; then
    for tool in slurmdbd mariadbd mariadb-install-db sacctmgr; do
      command -v "$tool" >/dev/null 2>&1 ||
        die "$tool is missing: accounting needs apt-get install slurmdbd mariadb-server"
    done
  fi
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
$(accounting_lines)
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=512
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
MinJobAge=$MIN_JOB_AGE
KillWait=5
InactiveLimit=0
SlurmdTimeout=60
MaxArraySize=10001
NodeName=localhost CPUs=$CPUS RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
}

accounting_lines() {
  if [[ "$ACCOUNTING" == 1 ]]; then
    # Steps' memory sampled each second, so sacct has MaxRSS; a step over its --mem is killed.
    printf 'AccountingStorageType=accounting_storage/slurmdbd\nAccountingStorageHost=localhost\nAccountingStoragePort=%s\n' "$DBD_PORT"
    printf 'JobAcctGatherType=jobacct_gather/linux\nJobAcctGatherFrequency=task=1\nJobAcctGatherParams=OverMemoryKill'
  else
    printf 'AccountingStorageType=accounting_storage/none\nJobAcctGatherType=jobacct_gather/none'
  fi
}

# MariaDB on 127.0.0.1:$DB_PORT with its files in $DIR/mysql, and slurmdbd over it.
start_accounting() {
  [[ -d "$DIR/mysql/mysql" ]] ||
    mariadb-install-db --user=root --datadir="$DIR/mysql" --auth-root-authentication-method=normal >"$DIR/log/mariadb-install.log" 2>&1
  mariadbd --user=root --datadir="$DIR/mysql" --socket="$DIR/mysql.sock" --port="$DB_PORT" \
    --bind-address=127.0.0.1 --pid-file="$DIR/mariadbd.pid" --log-error="$DIR/log/mariadb.log" &
  for _ in $(seq 1 60); do [[ -S "$DIR/mysql.sock" ]] && break; sleep 0.5; done
  mariadb --socket="$DIR/mysql.sock" -uroot -e "
    CREATE DATABASE IF NOT EXISTS slurm_acct_db;
    CREATE USER IF NOT EXISTS 'slurm'@'localhost' IDENTIFIED BY 'cascade';
    CREATE USER IF NOT EXISTS 'slurm'@'127.0.0.1' IDENTIFIED BY 'cascade';
    GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost';
    GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';" || die "MariaDB did not start (see $DIR/log/mariadb.log)"
  # sacctmgr and the slurmdbd link ignore AuthInfo's socket: give them munged at its usual place.
  if [[ ! -e /run/munge/munge.socket.2 ]]; then
    mkdir -p /run/munge && ln -s "$SOCKET" /run/munge/munge.socket.2 && touch "$DIR/munge-link"
  fi
  cat > "$DIR/slurmdbd.conf" <<DBD
AuthType=auth/munge
AuthInfo=socket=$SOCKET
DbdHost=localhost
DbdPort=$DBD_PORT
SlurmUser=root
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$DB_PORT
StorageUser=slurm
StoragePass=cascade
StorageLoc=slurm_acct_db
PidFile=$DIR/slurmdbd.pid
LogFile=$DIR/log/slurmdbd.log
DBD
  chmod 600 "$DIR/slurmdbd.conf"
  SLURM_CONF="$CONF" slurmdbd
  for _ in $(seq 1 60); do
    SLURM_CONF="$CONF" sacctmgr -n list cluster >/dev/null 2>&1 && break
    sleep 0.5
  done
  SLURM_CONF="$CONF" sacctmgr -n list cluster format=cluster | grep -q cascade ||
    SLURM_CONF="$CONF" sacctmgr -i add cluster cascade >/dev/null
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
  [[ "$ACCOUNTING" == 1 ]] && start_accounting
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
  for daemon in slurmd slurmctld slurmdbd mariadbd munged; do
    if alive "$DIR/$daemon.pid"; then
      pid="$(cat "$DIR/$daemon.pid")"
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$DIR/$daemon.pid"
  done
  if [[ -f "$DIR/munge-link" ]]; then
    rm -f /run/munge/munge.socket.2 "$DIR/munge-link"
  fi
  echo "slurm-cluster: stopped"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) answers && echo "slurm-cluster: up ($CONF)" || { echo "slurm-cluster: down"; exit 1; } ;;
  env) echo "export SLURM_CONF=$CONF" ;;
  *) echo "usage: $0 start|stop|status|env" >&2; exit 2 ;;
esac
