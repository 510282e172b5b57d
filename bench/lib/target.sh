# shellcheck shell=bash
# The fixed target: nginx, one worker, keep-alive, a 100-byte 200 response, pinned to
# $TARGET_CPU, its config and logs in a temp dir. Sourced by bench/run.sh.

NGINX_PID=""
NGINX_DIR=""

# nginx_bin prints the path of the nginx binary.
nginx_bin() { command -v nginx || echo /usr/sbin/nginx; }

# target_start writes the config from bench/conf/nginx.conf.in and starts nginx.
target_start() {
  NGINX_DIR=$(mktemp -d "${TMPDIR:-/tmp}/loadlens-bench-nginx.XXXXXX")
  mkdir -p "$NGINX_DIR"/{body,proxy,fastcgi,uwsgi,scgi}
  sed -e "s#@DIR@#$NGINX_DIR#g" -e "s#@PORT@#$PORT#g" -e "s#@NOFILE@#$NOFILE#g" \
    "$BENCH/conf/nginx.conf.in" >"$NGINX_DIR/nginx.conf"
  taskset -c "$TARGET_CPU" "$(nginx_bin)" -c "$NGINX_DIR/nginx.conf" -e "$NGINX_DIR/error.log" \
    >"$NGINX_DIR/stdout" 2>&1 &
  NGINX_PID=$!
  local _
  for _ in $(seq 50); do
    if curl -fsS -o /dev/null "$URL" 2>/dev/null; then
      log "nginx $NGINX_PID on $URL (CPU $TARGET_CPU), config in $NGINX_DIR"; return 0
    fi
    kill -0 "$NGINX_PID" 2>/dev/null || break
    sleep 0.1
  done
  cat "$NGINX_DIR/error.log" "$NGINX_DIR/stdout" >&2 2>/dev/null
  die "nginx did not start on $URL (is port $PORT taken? set PORT=...)"
}

# target_alive restarts nginx when it died between two runs.
target_alive() {
  if ! kill -0 "$NGINX_PID" 2>/dev/null || ! curl -fsS -o /dev/null "$URL" 2>/dev/null; then
    log "nginx is not answering; restarting it"
    target_stop
    target_start
  fi
}

# target_stop stops the nginx this script started.
target_stop() {
  if [ -n "$NGINX_PID" ] && kill -0 "$NGINX_PID" 2>/dev/null; then
    kill "$NGINX_PID" 2>/dev/null
    wait "$NGINX_PID" 2>/dev/null || true
  fi
  NGINX_PID=""
  [ -n "$NGINX_DIR" ] && rm -rf "$NGINX_DIR"
  NGINX_DIR=""
}

# proc_cpu_ticks PID prints utime+stime of PID in clock ticks (0 when it is gone).
proc_cpu_ticks() {
  awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat" 2>/dev/null || echo 0
}

# cpu_ticks CPU prints three clock-tick counters of one CPU ("all" sums every CPU): time
# that tasks and hard interrupts used (user, nice, system, irq), softirq time (on loopback,
# much of the network stack; not charged to any process), and steal (the hypervisor ran
# something else: a disturbance).
cpu_ticks() {
  local name=cpu$1
  [ "$1" = all ] && name=cpu
  awk -v n="$name" '$1==n { print $2+$3+$4+$7, $8, $9 }' /proc/stat
}

# wait_quiet waits (up to $QUIET_WAIT seconds) until the machine's other work uses less than
# a quarter of a core, so a run does not start in the middle of someone else's build. It
# prints the seconds it waited.
wait_quiet() {
  local waited=0 busy
  while [ "$waited" -lt "$QUIET_WAIT" ]; do
    busy=$( { cpu_ticks all; sleep 1; cpu_ticks all; } | awk -v hz="$(getconf CLK_TCK)" \
      'NR==1 { a = $1 } NR==2 { print int(100 * ($1 - a) / hz) }')
    [ "$busy" -lt 25 ] && break
    waited=$((waited + 1))
  done
  echo "$waited"
}
