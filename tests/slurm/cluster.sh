# shellcheck shell=bash
# A one-node Slurm cluster for a test, from Debian's slurm-wlm and munge:
# munged, slurmctld and slurmd on this host, everything (key, socket,
# state, spool, logs, slurm.conf) under one directory, its own ports, so it
# neither needs nor disturbs a system munge or Slurm. Sourced:
#   slurm_start DIR   start it (root only); 0, or 1 with the reason in
#                     $SLURM_WHY; exports SLURM_CONF for sbatch/squeue
#   slurm_stop        stop the daemons it started (by pid), also on EXIT
#   slurm_wait IDS... wait until none of the jobs is queued or running
SLURM_PIDS=()
SLURM_WHY=
SLURM_DIR=

slurm_stop() {
  local pid
  # munged runs under runuser: its own pid (from its pid file) is waited for too.
  if [[ -n $SLURM_DIR && -s $SLURM_DIR/munge/munged.pid ]]; then SLURM_PIDS+=("$(cat "$SLURM_DIR/munge/munged.pid")"); fi
  for pid in "${SLURM_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${SLURM_PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  SLURM_PIDS=()
}

slurm_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Start a daemon in the foreground of a background job: its pid is ours.
slurm_spawn() {
  local log=$1
  shift
  "$@" >>"$log" 2>&1 &
  SLURM_PIDS+=($!)
}

slurm_start() {
  local d=$1 host user mem port1 port2
  [[ $(id -u) == 0 ]] || { SLURM_WHY="not root (slurmd and munged need it)"; return 1; }
  for p in munged slurmctld slurmd sbatch squeue scontrol; do
    command -v "$p" >/dev/null || { SLURM_WHY="$p not installed (apt-get install slurm-wlm munge)"; return 1; }
  done
  id munge >/dev/null 2>&1 || { SLURM_WHY="no munge user"; return 1; }
  trap slurm_stop EXIT
  SLURM_DIR=$d
  host=$(hostname -s)
  mkdir -p "$d/munge" "$d/state" "$d/spool" "$d/log"
  chmod 755 "$d"
  # munged refuses a key others can read and a socket directory others
  # cannot enter (the clients connect to it).
  head -c 1024 /dev/urandom >"$d/munge/munge.key"
  chown -R munge:munge "$d/munge"
  chmod 711 "$d/munge"
  chmod 400 "$d/munge/munge.key"
  slurm_spawn "$d/log/munged.out" runuser -u munge -- munged -F --key-file="$d/munge/munge.key" \
    --socket="$d/munge/munge.socket" --pid-file="$d/munge/munged.pid" --seed-file="$d/munge/munged.seed" \
    --log-file="$d/munge/munged.log"
  for _ in $(seq 50); do [[ -S $d/munge/munge.socket ]] && break; sleep 0.1; done
  [[ -S $d/munge/munge.socket ]] || { SLURM_WHY="munged did not start: $(tail -n 3 "$d/log/munged.out" "$d/munge/munged.log" 2>/dev/null | tr '\n' ' ')"; slurm_stop; return 1; }
  mem=$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p')
  port1=$(slurm_free_port)
  port2=$(slurm_free_port)
  user=$(id -un)
  cat >"$d/slurm.conf" <<CONF
ClusterName=tbktest
SlurmctldHost=$host
SlurmctldPort=$port1
SlurmdPort=$port2
SlurmUser=$user
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/munge.socket
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SchedulerParameters=defer_batch
MinJobAge=600
NodeName=$host CPUs=$(nproc) RealMemory=${mem:-1024} State=UNKNOWN
PartitionName=tbk Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$d/slurm.conf
  slurm_spawn "$d/log/slurmctld.out" slurmctld -D -i -f "$SLURM_CONF"
  slurm_spawn "$d/log/slurmd.out" slurmd -D -f "$SLURM_CONF"
  for _ in $(seq 100); do
    if sinfo -h -o %t 2>/dev/null | grep -Eq '^(idle|mix|alloc)'; then return 0; fi
    sleep 0.2
  done
  SLURM_WHY="the node did not come up: $(tail -n 3 "$d/log/slurmctld.log" "$d/log/slurmd.log" "$d"/log/*.out 2>/dev/null | tr '\n' ' ' | cut -c1-400)"
  slurm_stop
  return 1
}

slurm_wait() {
  local ids
  ids=$(IFS=,; echo "$*")
  for _ in $(seq 1500); do
    [[ -z $(squeue -h -j "$ids" 2>/dev/null) ]] && return 0
    sleep 0.2
  done
  return 1
}
