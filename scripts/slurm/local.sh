#!/usr/bin/env bash
# scripts/slurm/local.sh start|stop|restart|status - a single-host SLURM 22.05 cluster for
# Allot's development and CI (Debian 12, run as root; adapted from ../shared/slurm/start-slurm.sh).
#
# start   installs Debian's SLURM packages if missing, then starts munge (own key and socket),
#         slurmdbd on the local MariaDB (root, no password; database $ALLOT_SLURM_DB), slurmctld,
#         N slurmd on 127.0.0.1 (nodes n1..nN with G fake GPUs each) and slurmrestd (JWT), with a
#         job_submit.lua that holds every new job (only root may release it), and registers the
#         cluster in sacctmgr. No accounts: `allot slurm sync-accounts` writes the budget tree.
#         Writes $ALLOT_SLURM_DIR/env.sh (SLURM_CONF, SLURM_REST_URL...): source it. Seconds.
# stop    cancels jobs, stops every process it started (and their children), drops the
#         accounting database and removes the directory.
# status  prints the nodes and their states; exits 1 when the cluster is not running.
#
# Knobs (defaults differ from start-slurm.sh's so both can run on one machine):
#   ALLOT_SLURM_DIR=/tmp/allot-slurm  ALLOT_SLURM_NODES=4  ALLOT_SLURM_GPUS=8
#   ALLOT_SLURM_CLUSTER=allot         ALLOT_SLURM_DB=allot_slurm_acct
#   ALLOT_SLURM_CTLD_PORT=26817       ALLOT_SLURM_DBD_PORT=26819  ALLOT_SLURM_REST_PORT=26820
#   ALLOT_SLURM_SLURMD_PORT=27000 (node i listens on this + i)
#   ALLOT_SLURM_MYSQL_PORT=3306 (the local MariaDB that slurmdbd stores accounting in)
set -euo pipefail

DIR=${ALLOT_SLURM_DIR:-/tmp/allot-slurm}
NODES=${ALLOT_SLURM_NODES:-4}
GPUS=${ALLOT_SLURM_GPUS:-8}
CLUSTER=${ALLOT_SLURM_CLUSTER:-allot}
DB=${ALLOT_SLURM_DB:-allot_slurm_acct}
CTLD_PORT=${ALLOT_SLURM_CTLD_PORT:-26817}
DBD_PORT=${ALLOT_SLURM_DBD_PORT:-26819}
REST_PORT=${ALLOT_SLURM_REST_PORT:-26820}
SLURMD_PORT=${ALLOT_SLURM_SLURMD_PORT:-27000}
MYSQL_PORT=${ALLOT_SLURM_MYSQL_PORT:-3306}
PACKAGES="slurmctld slurmd slurm-client munge slurmdbd slurmrestd slurm-wlm-mysql-plugin slurm-wlm-jwt-plugin"
SQL=(mysql -h127.0.0.1 -P"$MYSQL_PORT" -uroot --connect-timeout=3)
SOCKET=$DIR/munge/munge.socket
export SLURM_CONF=$DIR/etc/slurm.conf
T0=$EPOCHREALTIME

# --- helpers ---------------------------------------------------------------------------------

log() { printf '[slurm %5.1fs] %s\n' "$(awk "BEGIN{print $EPOCHREALTIME-$T0}")" "$*" >&2; }
die() {
  log "ERROR: $*"
  tail -n 5 "$DIR"/log/*.log >&2 || true
  exit 1
}
# A process is up when it exists and is not a zombie (they are reaped late here).
is_up() {
  local s
  s=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${s#Z}" = "$s" ]
}
is_alive() { [ -s "$1" ] && is_up "$(cat "$1")"; }
# wait_for SECONDS COMMAND...: retries COMMAND every 0.1 s until it succeeds.
wait_for() {
  local deadline=$(($(date +%s) + $1))
  shift
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s)" -lt $deadline ] || return 1
    sleep 0.1
  done
}
is_ctld_up() { scontrol ping | grep -q UP; }
is_nothing_running() { [ -z "$(squeue -h -t R,CG -o %i)" ]; }
are_nodes_idle() { [ "$(sinfo -h -N -t idle -o %N | sort -u | wc -l)" -eq "$NODES" ]; }
is_rest_up() {
  local token
  token=$(scontrol token username=root lifespan=60 | cut -d= -f2)
  curl -sf -o /dev/null -H "X-SLURM-USER-NAME: root" -H "X-SLURM-USER-TOKEN: $token" \
    "http://127.0.0.1:$REST_PORT/slurm/v0.0.38/ping"
}
# Daemons started here carry ALLOT_SLURM_DAEMON=$DIR in their environment; prints their pids and
# those of all their descendants (slurmstepd, job processes).
our_pids() {
  local p marked=""
  for p in /proc/[0-9]*; do
    { tr '\0' '\n' <"$p/environ"; } 2>/dev/null | grep -qx "ALLOT_SLURM_DAEMON=$DIR" &&
      marked="$marked ${p#/proc/}"
  done
  ps -eo pid=,ppid= | awk -v m="$marked" -v self=$$ '
    BEGIN { n = split(m, a, " "); for (i = 1; i <= n; i++) k[a[i]] = 1 }
    { parent[$1] = $2 }
    END {
      do { c = 0; for (p in parent) if (!(p in k) && (parent[p] in k)) { k[p] = 1; c = 1 } } while (c)
      for (p in k) if (p != self) print p
    }'
}
# stop_pidfiles PIDFILE...: SIGTERM, up to 15 s to exit, then SIGKILL.
stop_pidfiles() {
  local f p pids="" i
  for f in "$@"; do
    is_alive "$f" && pids="$pids $(cat "$f")"
    rm -f "$f"
  done
  [ -n "$pids" ] || return 0
  kill $pids 2>/dev/null || true
  for ((i = 0; i < 150; i++)); do
    for p in $pids; do is_up "$p" && { sleep 0.1 && continue 2; }; done
    break
  done
  for p in $pids; do is_up "$p" && kill -9 "$p" 2>/dev/null; done
  true
}
as_daemon() { ALLOT_SLURM_DAEMON=$DIR "$@"; }

# --- start -----------------------------------------------------------------------------------

install_packages() {
  local p missing=""
  for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
  done
  [ -n "$missing" ] || return 0
  log "installing$missing"
  export DEBIAN_FRONTEND=noninteractive
  { apt-get install -y -q --no-install-recommends $missing ||
    { apt-get update -q && apt-get install -y -q --no-install-recommends $missing; }; } \
    >"$DIR/apt.log" 2>&1 || die "apt-get: see $DIR/apt.log"
}

start_munge() {
  chmod 755 "$DIR/munge"
  mungekey -c -k "$DIR/munge/munge.key" -f >/dev/null 2>&1
  as_daemon munged -f --num-threads=10 -S "$SOCKET" --key-file="$DIR/munge/munge.key" \
    --pid-file="$DIR/run/munged.pid" --log-file="$DIR/log/munged.log" \
    --seed-file="$DIR/munge/seed" || die munged
  wait_for 10 sh -c "munge -n -S $SOCKET | unmunge -S $SOCKET" || die "munge is not answering"
}

write_slurm_conf() {
  local i
  cat >"$SLURM_CONF" <<EOF
ClusterName=$CLUSTER
SlurmctldHost=localhost
SlurmctldPort=$CTLD_PORT
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$SOCKET
AuthAltTypes=auth/jwt
AuthAltParameters=jwt_key=$DIR/etc/jwt.key
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool/%n
SlurmctldPidFile=$DIR/run/slurmctld.pid
SlurmdPidFile=$DIR/run/slurmd-%n.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd-%n.log
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
SlurmdParameters=config_overrides
ReturnToService=2
SlurmdTimeout=20
KillWait=5
MinJobAge=600
JobSubmitPlugins=lua
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
AccountingStoragePort=$DBD_PORT
AccountingStoragePass=$SOCKET
AccountingStorageEnforce=associations,limits,qos
AccountingStorageTRES=gres/gpu
EOF
  for ((i = 1; i <= NODES; i++)); do
    mkdir -p "$DIR/spool/n$i"
    echo "NodeName=n$i NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((SLURMD_PORT + i)) CPUs=32 RealMemory=64000 Gres=gpu:$GPUS"
  done >>"$SLURM_CONF"
  echo "PartitionName=gpu Nodes=ALL Default=YES MaxTime=INFINITE State=UP" >>"$SLURM_CONF"
}

write_gres_conf() {
  local i
  # gres/gpu needs device files: symlinks to /dev/null pass (regular files do not).
  for ((i = 0; i < GPUS; i++)); do ln -s /dev/null "$DIR/dev/gpu$i"; done
  printf 'AutoDetect=off\nNodeName=n[1-%s] Name=gpu File=%s/dev/gpu[0-%s]\n' \
    "$NODES" "$DIR" $((GPUS - 1)) >"$DIR/etc/gres.conf"
}

write_job_submit_lua() {
  cat >"$DIR/etc/job_submit.lua" <<'EOF'
function slurm_job_submit(job_desc, part_list, submit_uid)
   job_desc.priority = 0            -- every new job is held until the Allot bridge releases it
   return slurm.SUCCESS
end
function slurm_job_modify(job_desc, job_rec, part_list, modify_uid)
   if modify_uid ~= 0 and job_desc.priority ~= nil and job_desc.priority ~= slurm.NO_VAL then
      -- only root (the bridge) may release / reprioritise. SLURM 23.02+ shows the user this
      -- line; 22.05 only logs it, and the user sees "Access/permission denied" (not slurm.ERROR's
      -- "Unspecified error")
      slurm.log_user("Allot holds this job until its turn: only the Allot bridge may release it or change its priority. Its Comment (scontrol show job) says why it waits.")
      return slurm.ESLURM_ACCESS_DENIED or slurm.ERROR
   end
   return slurm.SUCCESS
end
EOF
}

write_slurmdbd_conf() {
  # No StoragePass line: an empty value is a parse error.
  cat >"$DIR/etc/slurmdbd.conf" <<EOF
AuthType=auth/munge
AuthInfo=socket=$SOCKET
AuthAltTypes=auth/jwt
AuthAltParameters=jwt_key=$DIR/etc/jwt.key
DbdHost=localhost
DbdPort=$DBD_PORT
SlurmUser=root
LogFile=$DIR/log/slurmdbd.log
PidFile=$DIR/run/slurmdbd.pid
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$MYSQL_PORT
StorageUser=root
StorageLoc=$DB
EOF
  chmod 600 "$DIR/etc/slurmdbd.conf"
}

start_slurmdbd() {
  "${SQL[@]}" -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB" || die "cannot create $DB"
  echo "$DB" >"$DIR/run/db"
  as_daemon slurmdbd && wait_for 30 sacctmgr -n list cluster || die slurmdbd
  sacctmgr -i add cluster "$CLUSTER" >/dev/null || die "sacctmgr add cluster $CLUSTER"
}

start_slurmctld_and_nodes() {
  local i
  as_daemon slurmctld && wait_for 30 is_ctld_up || die slurmctld
  for ((i = 1; i <= NODES; i++)); do as_daemon slurmd -N "n$i" || die "slurmd n$i"; done
  wait_for 60 are_nodes_idle || die "nodes not idle"
}

start_slurmrestd() {
  # A simple command in the background (no shell function), so $! is slurmrestd's own pid.
  (SLURM_JWT=daemon ALLOT_SLURM_DAEMON=$DIR setsid slurmrestd -u nobody -a rest_auth/jwt \
    -s openapi/v0.0.38,openapi/dbv0.0.38 "127.0.0.1:$REST_PORT" \
    >"$DIR/log/slurmrestd.log" 2>&1 </dev/null &
    echo $! >"$DIR/run/slurmrestd.pid")
  wait_for 15 is_rest_up || die slurmrestd
}

write_env_file() {
  cat >"$DIR/env.sh" <<EOF
export SLURM_CONF=$SLURM_CONF
export SLURM_REST_URL=http://127.0.0.1:$REST_PORT
export ALLOT_SLURM_DIR=$DIR
export ALLOT_SLURM_CLUSTER=$CLUSTER
EOF
}

start() {
  if is_alive "$DIR/run/slurmctld.pid" && is_ctld_up && are_nodes_idle; then
    log "already running: source $DIR/env.sh"
    return 0
  fi
  stop
  mkdir -p "$DIR"
  install_packages
  "${SQL[@]}" -e 'SELECT 1' >/dev/null 2>&1 || die "no MariaDB on 127.0.0.1:$MYSQL_PORT (root, no password)"
  rm -rf "$DIR"/{etc,state,spool,log,run,munge,dev,env.sh}
  mkdir -p "$DIR"/{etc,state,log,run,munge,dev}
  start_munge
  head -c 32 /dev/urandom >"$DIR/etc/jwt.key"
  chmod 600 "$DIR/etc/jwt.key"
  write_slurm_conf
  write_gres_conf
  write_job_submit_lua
  write_slurmdbd_conf
  log "configs written in $DIR/etc"
  start_slurmdbd
  log "slurmdbd up (database $DB, cluster $CLUSTER)"
  start_slurmctld_and_nodes
  log "slurmctld (port $CTLD_PORT) + $NODES nodes x $GPUS GPUs idle"
  start_slurmrestd
  write_env_file
  log "ready: source $DIR/env.sh"
}

# --- stop and status -------------------------------------------------------------------------

stop() {
  [ -d "$DIR" ] || return 0
  if is_alive "$DIR/run/slurmctld.pid"; then
    squeue -h -o %i | xargs -r scancel || true
    wait_for 15 is_nothing_running || true
  fi
  local left p
  left=$(our_pids)
  stop_pidfiles "$DIR/run/slurmrestd.pid" "$DIR"/run/slurmd-*.pid
  stop_pidfiles "$DIR/run/slurmctld.pid"
  stop_pidfiles "$DIR/run/slurmdbd.pid" "$DIR/run/munged.pid"
  for p in $left; do is_up "$p" && kill -9 "$p" 2>/dev/null; done
  if [ -f "$DIR/run/db" ]; then
    "${SQL[@]}" -e "DROP DATABASE IF EXISTS $(cat "$DIR/run/db")" || true
  fi
  rm -rf "$DIR"
  log "stopped, $DIR removed"
}

status() {
  if ! { is_alive "$DIR/run/slurmctld.pid" && is_ctld_up; } 2>/dev/null; then
    echo "local SLURM ($DIR) is not running: npm run slurm:up" >&2
    return 1
  fi
  echo "local SLURM: cluster $CLUSTER, slurmctld on port $CTLD_PORT; source $DIR/env.sh"
  sinfo -N -o '%N %T %G' | column -t
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  restart) stop && start ;;
  status) status ;;
  *)
    echo "usage: $0 start|stop|restart|status" >&2
    exit 2
    ;;
esac
