# shellcheck shell=bash
# The fixed target: nginx, one worker, keep-alive, a 100-byte 200 response over http on
# $PORT and https on $HTTPS_PORT, pinned to $TARGET_CPU, its config and logs in a temp dir. Sourced by bench/run.sh.

NGINX_PID=""
NGINX_DIR=""

# nginx_bin prints the path of the nginx binary.
nginx_bin() { command -v nginx || echo /usr/sbin/nginx; }

# target_start writes the config from bench/conf/nginx.conf.in and starts nginx.
target_start() {
  NGINX_DIR=$(mktemp -d "${TMPDIR:-/tmp}/loadlens-bench-nginx.XXXXXX")
  mkdir -p "$NGINX_DIR"/{body,proxy,fastcgi,uwsgi,scgi}
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$NGINX_DIR/key.pem" -out "$NGINX_DIR/cert.pem" \
    >/dev/null 2>&1 || die "openssl could not make a certificate"
  sed -e "s#@DIR@#$NGINX_DIR#g" -e "s#@PORT@#$PORT#g" -e "s#@HTTPS_PORT@#$HTTPS_PORT#g" -e "s#@NOFILE@#$NOFILE#g" \
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

# observed_start starts node_exporter on 127.0.0.1:$NODE_PORT, pinned to $TARGET_CPU: the one
# endpoint loadlens's open-model row scrapes every second (observe:), as a real run does.
# METRICS_URL stays empty when there is no node_exporter.
OBSERVED_PID=""; METRICS_URL=""
observed_start() {
  local bin _
  bin=$(command -v prometheus-node-exporter || command -v node_exporter) || {
    log "no node_exporter: loadlens's open-model row runs without observe:"; return 0; }
  taskset -c "$TARGET_CPU" "$bin" --web.listen-address="127.0.0.1:$NODE_PORT" >/dev/null 2>&1 &
  OBSERVED_PID=$!
  for _ in $(seq 50); do
    if curl -fsS -o /dev/null "http://127.0.0.1:$NODE_PORT/metrics" 2>/dev/null; then
      METRICS_URL="http://127.0.0.1:$NODE_PORT/metrics"; return 0
    fi
    kill -0 "$OBSERVED_PID" 2>/dev/null || break
    sleep 0.1
  done
  log "node_exporter did not start on 127.0.0.1:$NODE_PORT: loadlens's open-model row runs without observe:"
}

# observed_stop stops the node_exporter observed_start started.
observed_stop() {
  if [ -n "$OBSERVED_PID" ] && kill -0 "$OBSERVED_PID" 2>/dev/null; then
    kill "$OBSERVED_PID" 2>/dev/null
    wait "$OBSERVED_PID" 2>/dev/null || true
  fi
  OBSERVED_PID=""
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
# prints the seconds it waited, then the load before the run: the 1-minute load average and
# how busy each of the target's and the generator's cores was (%, softirq included) in the
# last 1-second sample.
wait_quiet() {
  local waited=0 busy=0 b0=0 b1=0 sample
  while :; do
    sample=$( { cpu_ticks all; cpu_ticks "$TARGET_CPU"; cpu_ticks "$GEN_CPU"; sleep 1
                cpu_ticks all; cpu_ticks "$TARGET_CPU"; cpu_ticks "$GEN_CPU"; } |
      awk -v hz="$(getconf CLK_TCK)" '{ t[NR] = $1 + $2 } END { printf "%d %d %d\n",
        100 * (t[4] - t[1]) / hz, 100 * (t[5] - t[2]) / hz, 100 * (t[6] - t[3]) / hz }')
    read -r busy b0 b1 <<<"$sample"
    [ "$busy" -lt 25 ] && break
    waited=$((waited + 1))
    [ "$waited" -ge "$QUIET_WAIT" ] && break
  done
  echo "$waited $(cut -d' ' -f1 /proc/loadavg) $b0 $b1"
}
