#!/bin/bash
# The server's CPU a transaction of each part of a durable PostgreSQL step (docs/benchmarks.md,
# issue 40, seventh part): pgbench, one client, prepared statements, a chain10 step's journal texts.
# The server must run on this machine: its postmaster and children's CPU is read from /proc.
#   PGDATA=… PGPORT=… step-parts.sh SECONDS script.sql…   (after psql -f setup.sql)
cd "$(dirname "$0")"
PM=$(head -1 "$PGDATA/postmaster.pid")
cpu() {
  local t=0
  for p in $PM $(pgrep -P "$PM"); do
    s=$(cut -d')' -f2- /proc/$p/stat 2>/dev/null) || continue
    set -- $s
    t=$((t + ${12} + ${13}))
    [ "$p" = "$PM" ] && t=$((t + ${14} + ${15}))
  done
  echo $t
}
T=$1; shift
for f in "$@"; do
  c0=$(cpu)
  out=$(pgbench -h 127.0.0.1 -p "${PGPORT:-5432}" -U postgres -n -c1 -T "$T" -M prepared -f "$f" \
     -D rid=r1 -D ow=me -D "ev=$(cat events.txt)" -D "cp=$(cat checkpoints.txt)" -D "st=$(cat steps.txt)" \
     -D 'small={"count":5}' postgres 2>&1)
  c1=$(cpu)
  n=$(echo "$out" | awk '/number of transactions actually processed/ {print $NF}' | cut -d/ -f1)
  [ -z "$n" ] && { echo "$out" | tail -5; continue; }
  printf "%-18s tx=%-7s server_cpu_us_per_tx=%.1f\n" "$f" "$n" "$(echo "($c1-$c0)*1000000/$(getconf CLK_TCK)/$n" | bc -l)"
done
