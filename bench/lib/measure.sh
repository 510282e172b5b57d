# shellcheck shell=bash
# One measured run of one generator: its command line per measurement, the run itself
# (pinned, timed, bounded), and the parsing of the tool's own output into key/value
# metrics appended to $RAW. Sourced by bench/run.sh.

# Measurements (see bench/README.md): closed, open, idle (memory). The durations can be
# shortened from the environment for a smoke test of the script; the numbers in
# RESULTS.md come from the defaults. The idle test's VUs and duration are in
# bench/loadlens/idle.yaml too.
CLOSED_VUS=50; : "${CLOSED_DUR:=10}"
OPEN_RATE=5000; : "${OPEN_DUR:=10}"
IDLE_VUS=10000; IDLE_DUR=15
# Issue 22's many-VU closed model: MANY_VUS VUs, each a GET then 1 s of think, MANY_DUR
# seconds (bench/loadlens/many.yaml; its peak RSS is the memory table's too), and loadlens
# alone at MANY5K_VUS (the drift target). Its open model near one core: OPEN40K_RATE
# requests/s for OPEN40K_DUR seconds (oha beside it with OPEN40K_CONNS connections).
: "${MANY_VUS:=10000}" "${MANY_DUR:=30}" "${MANY5K_VUS:=5000}"; MANY_THINK=1
: "${OPEN40K_RATE:=40000}" "${OPEN40K_DUR:=10}" "${OPEN40K_CONNS:=200}"
# The collapse test (issue 11 §2): open-model rates beyond one core, with the default VU
# pool and with --max-vus 100. The scale test: loadlens's memory at these idle VU counts.
: "${COLLAPSE_DUR:=10}"; COLLAPSE_RATES=(10000 20000); COLLAPSE_CAP=100
: "${SCALE_VUS:=1000 10000 100000}"; : "${SCALE_DUR:=15}"
# loadlens refuses more VUs than its open-files limit allows sockets for (20,000 here, less a
# reserve): above this many, the scale test runs the VUs as segments in separate processes.
: "${SCALE_PER_PROC:=16667}"
# The dashboard's feed as a real run has it: loadlens's default rows serve the dashboard on
# this port and a curl reads its event stream (DASH_CLIENT=0: no reader).
: "${DASH_PORT:=18099}" "${DASH_CLIENT:=1}"
# loadlens's open-model row scrapes node_exporter on this port every second (observe:).
: "${NODE_PORT:=18100}"
# bench/proto.sh (issue 24): gRPC unary calls, WebSocket messages and HTTP/2 requests, each
# PROTO_VUS connections for PROTO_DUR seconds; the targets' ports (bench/lib/proto.sh).
: "${PROTO_VUS:=50}" "${PROTO_DUR:=10}"
: "${GRPC_PORT:=18200}" "${WS_PORT:=18201}" "${H2_PORT:=18202}"
# The gRPC call all three tools make (grpc-go's interop TestService) and its .proto files.
GRPC_METHOD=grpc.testing.TestService/UnaryCall
GRPC_MESSAGE='{"response_size":100,"payload":{"body":"aGVsbG8gd29ybGQ="}}'
: "${PROTOS_DIR:=$(dirname "${BENCH:-.}")/internal/protocol/grpc/testdata}"
# h2load-mux: the same 50 streams in flight multiplexed, 10 on each of 5 connections.
H2_MUX_CONNS=5; H2_MUX_STREAMS=10

# tool_cmd MEAS TOOL DIR fills CMD (an array) with the command for one run, or sets
# UNSUPPORTED to the reason the tool cannot take part in MEAS.
tool_cmd() {
  local meas=$1 tool=$2 dir=$3
  CMD=(); UNSUPPORTED=""
  local B=$TOOLS/bin LL=$LOADLENS
  [ "$tool" = loadlens-base ] && LL=${LOADLENS_BASE:-}
  case "$meas/$tool" in
  closed/wrk)    CMD=("$B_WRK" -t1 -c"$CLOSED_VUS" -d"${CLOSED_DUR}s" --latency "$URL") ;;
  closed/oha)    CMD=("$B/oha" -c "$CLOSED_VUS" -z "${CLOSED_DUR}s" --no-tui "${OHA_JSON[@]}" "$URL") ;;
  closed/hey)    CMD=("$B/hey" -c "$CLOSED_VUS" -z "${CLOSED_DUR}s" "$URL") ;;
  closed/vegeta) CMD=(sh -c "echo 'GET $URL' | '$B/vegeta' attack -rate=0 -max-workers=$CLOSED_VUS -workers=$CLOSED_VUS -duration=${CLOSED_DUR}s | '$B/vegeta' report -type=json") ;;
  closed/k6)     CMD=("$B/k6" run -q --no-color --vus "$CLOSED_VUS" --duration "${CLOSED_DUR}s"
                      --summary-export "$dir/summary.json" --summary-trend-stats 'med,p(99),p(99.9)'
                      -e "TARGET=$URL" "$BENCH/k6/closed.js") ;;
  closed/loadlens|closed/loadlens-base) CMD=("$LL" run "$URL" --vus "$CLOSED_VUS" --duration "${CLOSED_DUR}s" --quiet
                      --summary-json "$dir/summary.json" --results "$dir/results" "${DASH_FLAGS[@]}") ;;
  closed/loadlens-off) CMD=("$LOADLENS" run "$URL" --vus "$CLOSED_VUS" --duration "${CLOSED_DUR}s" --quiet
                      --summary-json "$dir/summary.json" --results "$dir/results" "${LOADLENS_OFF_FLAGS[@]}") ;;

  open/wrk)      UNSUPPORTED="wrk has no open model (a fixed request rate needs wrk2, which Debian does not package)" ;;
  open/oha)      CMD=("$B/oha" -c "$CLOSED_VUS" -z "${OPEN_DUR}s" -q "$OPEN_RATE" --no-tui "${OHA_JSON[@]}" "$URL") ;;
  open/hey)      CMD=("$B/hey" -c "$CLOSED_VUS" -q "$((OPEN_RATE / CLOSED_VUS))" -z "${OPEN_DUR}s" "$URL") ;;
  open/vegeta)   CMD=(sh -c "echo 'GET $URL' | '$B/vegeta' attack -rate=$OPEN_RATE -duration=${OPEN_DUR}s | '$B/vegeta' report -type=json") ;;
  open/k6)       CMD=("$B/k6" run -q --no-color --summary-export "$dir/summary.json"
                      --summary-trend-stats 'med,p(99),p(99.9)' -e "TARGET=$URL" -e "RATE=$OPEN_RATE"
                      -e "DURATION=${OPEN_DUR}s" "$BENCH/k6/open.js") ;;
  open/loadlens|open/loadlens-base)
                 if [ -n "$METRICS_URL" ]; then
                   CMD=("$LL" run "$BENCH/loadlens/open.yaml" -e "TARGET=http://127.0.0.1:$PORT" -e "METRICS=$METRICS_URL"
                      -e "DUR=${OPEN_DUR}s" --quiet --summary-json "$dir/summary.json" --results "$dir/results" "${DASH_FLAGS[@]}")
                 else
                   CMD=("$LL" run "$URL" --rate "$OPEN_RATE" --duration "${OPEN_DUR}s" --quiet
                      --summary-json "$dir/summary.json" --results "$dir/results" "${DASH_FLAGS[@]}")
                 fi ;;

  https/wrk)     CMD=("$B_WRK" -t1 -c"$CLOSED_VUS" -d"${CLOSED_DUR}s" --latency "$HTTPS_URL") ;;
  https/oha)     CMD=("$B/oha" -c "$CLOSED_VUS" -z "${CLOSED_DUR}s" --no-tui --insecure "${OHA_JSON[@]}" "$HTTPS_URL") ;;
  https/k6)      CMD=(env K6_INSECURE_SKIP_TLS_VERIFY=true "$B/k6" run -q --no-color --vus "$CLOSED_VUS" --duration "${CLOSED_DUR}s"
                      --summary-export "$dir/summary.json" --summary-trend-stats 'med,p(99),p(99.9)'
                      -e "TARGET=$HTTPS_URL" "$BENCH/k6/closed.js") ;;
  https/loadlens|https/loadlens-base) CMD=("$LL" run "$HTTPS_URL" --vus "$CLOSED_VUS" --duration "${CLOSED_DUR}s" --insecure --quiet
                      --summary-json "$dir/summary.json" --results "$dir/results" "${DASH_FLAGS[@]}") ;;

  collapse/loadlens-*) local rate=${tool#loadlens-}; rate=${rate%%-*}; rate=$((${rate%k} * 1000))
                      CMD=("$LOADLENS" run "$URL" --rate "$rate" --duration "${COLLAPSE_DUR}s" --quiet
                      --summary-json "$dir/summary.json" --results "$dir/results")
                      [[ $tool == *-cap ]] && CMD+=(--max-vus "$COLLAPSE_CAP") ;;

  scale/loadlens-*) local vus=${tool#loadlens-} segs
                      mkdir -p "$dir" && sed "s/^    vus: 1000\$/    vus: $vus/" "$BENCH/loadlens/scale.yaml" >"$dir/scale.yaml"
                      CMD=("$LOADLENS" run "$dir/scale.yaml" -e "TARGET=http://127.0.0.1:$PORT" -e "DUR=${SCALE_DUR}s" --quiet)
                      # More VUs than one process may hold sockets for: segments of one test,
                      # each its own process (their peak RSS summed, base RSS and all).
                      segs=$(( (vus + SCALE_PER_PROC - 1) / SCALE_PER_PROC ))
                      if [ "$segs" -gt 1 ]; then CMD=(bash "$BENCH/lib/segments.sh" "$segs" "$dir/segs" "${CMD[@]}")
                      else CMD+=(--summary-json "$dir/summary.json" --results "$dir/results"); fi ;;

  idle/wrk)      CMD=("$B_WRK" -t1 -c"$IDLE_VUS" -d"${IDLE_DUR}s" -s "$BENCH/wrk/think.lua" "$URL") ;;
  idle/oha)      CMD=("$B/oha" -c "$IDLE_VUS" -q "$IDLE_VUS" -z "${IDLE_DUR}s" --no-tui "${OHA_JSON[@]}" "$URL") ;;
  idle/hey)      CMD=("$B/hey" -c "$IDLE_VUS" -q 1 -z "${IDLE_DUR}s" "$URL") ;;
  idle/vegeta)   UNSUPPORTED="vegeta has no VUs or think time: its open model keeps no idle connections to measure" ;;
  idle/k6)       CMD=("$B/k6" run -q --no-color --summary-export "$dir/summary.json"
                      --summary-trend-stats 'med,p(99)' -e "TARGET=$URL" -e "VUS=$IDLE_VUS"
                      -e "DURATION=${IDLE_DUR}s" "$BENCH/k6/idle.js") ;;
  idle/loadlens|idle/loadlens-base) CMD=("$LL" run "$BENCH/loadlens/idle.yaml" -e "TARGET=http://127.0.0.1:$PORT"
                      --quiet --summary-json "$dir/summary.json" --results "$dir/results") ;;

  # many: the closed model with think (wrk's Lua delay(), k6's sleep, loadlens's think); oha has
  # no think time: -q MANY_VUS over MANY_VUS connections is the same rate as an open model.
  many/wrk)      CMD=("$B_WRK" -t1 -c"$MANY_VUS" -d"${MANY_DUR}s" -s "$BENCH/wrk/think.lua" --latency "$URL") ;;
  many/oha)      CMD=("$B/oha" -c "$MANY_VUS" -q "$MANY_VUS" -z "${MANY_DUR}s" --no-tui "${OHA_JSON[@]}" "$URL") ;;
  many/hey)      UNSUPPORTED="hey has no think time (its -q is a rate per worker)" ;;
  many/vegeta)   UNSUPPORTED="vegeta has no VUs or think time" ;;
  many/k6)       CMD=("$B/k6" run -q --no-color --summary-export "$dir/summary.json"
                      --summary-trend-stats 'avg,med,p(99)' -e "TARGET=$URL" -e "VUS=$MANY_VUS"
                      -e "DURATION=${MANY_DUR}s" "$BENCH/k6/idle.js") ;;
  many/loadlens|many/loadlens-base|many5k/loadlens|many5k/loadlens-base)
                 local vus=$MANY_VUS; [ "$meas" = many5k ] && vus=$MANY5K_VUS
                 CMD=("$LL" run "$BENCH/loadlens/many.yaml" -e "TARGET=http://127.0.0.1:$PORT" --vus "$vus"
                      --duration "${MANY_DUR}s" --quiet --summary-json "$dir/summary.json" --results "$dir/results"
                      "${DASH_FLAGS[@]}") ;;
  many5k/*)      UNSUPPORTED="loadlens alone (issue 22's drift target)" ;;

  open40k/loadlens|open40k/loadlens-base)
                 CMD=("$LL" run "$URL" --rate "$OPEN40K_RATE" --duration "${OPEN40K_DUR}s" --quiet
                      --summary-json "$dir/summary.json" --results "$dir/results" "${DASH_FLAGS[@]}") ;;
  # oha paces its sends at -q over a fixed pool; --latency-correction (when this oha has it)
  # times each request from its scheduled start, as loadlens's open model does.
  open40k/oha)   CMD=("$B/oha" -c "$OPEN40K_CONNS" -z "${OPEN40K_DUR}s" -q "$OPEN40K_RATE" "${OHA_LATCORR[@]}"
                      --no-tui "${OHA_JSON[@]}" "$URL") ;;
  open40k/wrk)   UNSUPPORTED="wrk has no open model" ;;
  open40k/k6)    UNSUPPORTED="k6 makes about 12,000 requests per CPU-second (measurement 1): 40,000/s is past one core for it" ;;
  open40k/*)     UNSUPPORTED="not run at 40,000/s (oha is the open-model peer here)" ;;
  *) proto_cmd "$meas" "$tool" "$dir" ;;
  esac
}

# proto_cmd MEAS TOOL DIR fills CMD for bench/proto.sh's measurements (grpc, ws, h2), as
# tool_cmd does: PROTO_VUS connections, one call, message or request in flight on each (and
# h2load-mux, the same streams multiplexed), PROTO_DUR seconds.
proto_cmd() {
  local meas=$1 tool=$2 dir=$3 B=$TOOLS/bin LL=$LOADLENS
  [ "$tool" = loadlens-base ] && LL=$LOADLENS_BASE
  local k6=("$B/k6" run -q --no-color --vus "$PROTO_VUS" --duration "${PROTO_DUR}s"
    --summary-export "$dir/summary.json" --summary-trend-stats 'med,p(99)')
  local ll=(--vus "$PROTO_VUS" --duration "${PROTO_DUR}s" --quiet --summary-json "$dir/summary.json" --results "$dir/results")
  [ "$tool" = loadlens-off ] && ll+=("${LOADLENS_OFF_FLAGS[@]}") || ll+=("${DASH_FLAGS[@]}")
  case "$meas/$tool" in
  grpc/ghz)      CMD=("$B/ghz" --insecure --import-paths "$PROTOS_DIR" --proto "$PROTOS_DIR/grpc/testing/test.proto"
                      --call "$GRPC_METHOD" -d "$GRPC_MESSAGE" -c "$PROTO_VUS" --connections "$PROTO_VUS"
                      -z "${PROTO_DUR}s" -O json -o "$dir/ghz.json" "127.0.0.1:$GRPC_PORT") ;;
  grpc/k6)       CMD=("${k6[@]}" -e "TARGET=127.0.0.1:$GRPC_PORT" -e "PROTOS=$PROTOS_DIR" "$BENCH/k6/grpc.js") ;;
  grpc/loadlens|grpc/loadlens-off|grpc/loadlens-base)
                 mkdir -p "$dir" && sed -e "s/127\.0\.0\.1:18200/127.0.0.1:$GRPC_PORT/" \
                   -e "s#\[\.\./\.\./internal/protocol/grpc/testdata\]#[$PROTOS_DIR]#" "$BENCH/loadlens/grpc.yaml" >"$dir/grpc.yaml"
                 CMD=("$LL" run "$dir/grpc.yaml" "${ll[@]}") ;;
  ws/k6)         CMD=("${k6[@]}" -e "TARGET=ws://127.0.0.1:$WS_PORT/" "$BENCH/k6/ws.js") ;;
  ws/loadlens-off) UNSUPPORTED="--no-metrics counts sessions, not their messages" ;;
  ws/loadlens|ws/loadlens-base)
                 CMD=("$LL" run "$BENCH/loadlens/ws.yaml" -e "TARGET=http://127.0.0.1:$WS_PORT" "${ll[@]}") ;;
  h2/h2load)     CMD=(h2load -c "$PROTO_VUS" -m 1 -D "$PROTO_DUR" "https://127.0.0.1:$H2_PORT/index.html") ;;
  h2/h2load-mux) CMD=(h2load -c "$H2_MUX_CONNS" -m "$H2_MUX_STREAMS" -D "$PROTO_DUR" "https://127.0.0.1:$H2_PORT/index.html") ;;
  h2/k6)         CMD=(env K6_INSECURE_SKIP_TLS_VERIFY=true "${k6[@]}" -e "TARGET=https://127.0.0.1:$H2_PORT/index.html"
                      "$BENCH/k6/closed.js") ;;
  h2/loadlens|h2/loadlens-off|h2/loadlens-base)
                 CMD=("$LL" run "$BENCH/loadlens/h2.yaml" -e "TARGET=https://127.0.0.1:$H2_PORT" "${ll[@]}") ;;
  *) UNSUPPORTED="not part of this measurement" ;;
  esac
}

# duration_of MEAS prints the load duration of MEAS in seconds.
duration_of() {
  case $1 in closed|https) echo "$CLOSED_DUR" ;; open) echo "$OPEN_DUR" ;; idle) echo "$IDLE_DUR" ;;
  many|many5k) echo "$MANY_DUR" ;; open40k) echo "$OPEN40K_DUR" ;;
  collapse) echo "$COLLAPSE_DUR" ;; scale) echo "$SCALE_DUR" ;; grpc|ws|h2) echo "$PROTO_DUR" ;; esac
}

# emit MEAS TOOL ROUND KEY VALUE appends one raw number (NA when empty) to the run's file.
emit() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "${5:-NA}" >>"$RUN_RAW"; }

# other_of DIR prints how much of a core other processes used during the run in DIR.
other_of() { awk -F'\t' '$4=="other_cpu_pct"{printf "%d\n", $5}' "$1/raw.tsv"; }

# measure MEAS TOOL ROUND runs one generator once, and again (at most twice more) while
# others disturbed it (other processes above $DISTURBED % of a core during the run;
# REDO_DISTURBED=0 turns it off), keeping the least disturbed try, and appends its numbers
# to $RAW: "redone" counts the extra tries, "disturbed" marks a run that stayed disturbed.
measure() {
  local meas=$1 tool=$2 round=$3
  local dir="$OUT/runs/$meas/$tool/r$round" try best other tries=1
  run_one "$meas" "$tool" "$round" "$dir"
  [ -f "$dir/raw.tsv" ] || return 0
  best=$(other_of "$dir")
  for try in 2 3; do
    [ "${REDO_DISTURBED:-1}" != 0 ] && [ "${best:-0}" -gt "$DISTURBED" ] || break
    # REDO_UNTIL (a Unix time) bounds the whole run: past it, disturbed runs are kept as they are.
    if [ "${REDO_UNTIL:-0}" != 0 ] && [ "$(date +%s)" -ge "$REDO_UNTIL" ]; then
      log "  disturbed (other processes used $best % of a core), but past REDO_UNTIL: kept"; break
    fi
    log "  disturbed (other processes used $best % of a core): try $try"
    rm -rf "$dir.try" && mv "$dir" "$dir.try"
    run_one "$meas" "$tool" "$round" "$dir"
    tries=$try
    other=$(other_of "$dir")
    if [ "${other:-0}" -ge "$best" ]; then
      rm -rf "$dir" && mv "$dir.try" "$dir"
    else
      best=$other
    fi
    rm -rf "$dir.try"
  done
  if [ "$tries" -gt 1 ]; then
    printf '%s\t%s\t%s\t%s\t%s\n' "$meas" "$tool" "$round" redone "$((tries - 1))" >>"$dir/raw.tsv"
  fi
  if [ "${best:-0}" -gt "$DISTURBED" ]; then
    printf '%s\t%s\t%s\t%s\t%s\n' "$meas" "$tool" "$round" disturbed "$best" >>"$dir/raw.tsv"
  fi
  cat "$dir/raw.tsv" >>"$RAW"
  [ -f "$dir/parse-failures.tsv" ] && cat "$dir/parse-failures.tsv" >>"$OUT/parse-failures.tsv"
  return 0
}

# dash_reader URL SECONDS reads the dashboard's event stream at URL once loadlens serves it,
# as an open browser tab does, for at most SECONDS (pinned to the target's core).
dash_reader() {
  local _ rc
  for _ in $(seq 100); do
    taskset -c "$TARGET_CPU" curl -sN --max-time "$2" -o /dev/null "$1"; rc=$?
    [ "$rc" != 7 ] && return 0   # 7: nothing listens yet
    sleep 0.05
  done
}

# run_one MEAS TOOL ROUND DIR runs one generator once and records its numbers in DIR.
run_one() {
  local meas=$1 tool=$2 round=$3 dir=$4
  RUN_DIR=$dir; RUN_RAW=$dir/raw.tsv
  rm -rf "$dir" && mkdir -p "$dir"
  tool_cmd "$meas" "$tool" "$dir"
  [ -n "$UNSUPPORTED" ] && return 0
  local dur limit
  dur=$(duration_of "$meas"); limit=$((dur + 90))
  target_alive
  local waited load1 busy0 busy1
  read -r waited load1 busy0 busy1 < <(wait_quiet)
  emit "$meas" "$tool" "$round" quiet_wait_s "$waited"
  emit "$meas" "$tool" "$round" load1_before "$load1"
  emit "$meas" "$tool" "$round" busy_target_core_before_pct "$busy0"
  emit "$meas" "$tool" "$round" busy_gen_core_before_pct "$busy1"
  printf '%q ' "${CMD[@]}" >"$dir/cmd"
  local reader=""
  if [ "$DASH_CLIENT" = 1 ] && [[ " ${CMD[*]} " == *" --dashboard-addr "* ]]; then
    dash_reader "http://127.0.0.1:$DASH_PORT/events" "$limit" & reader=$!
  fi
  local c0 c1 call n0 t0 t1
  c0=$(cpu_ticks "$TARGET_CPU"); c1=$(cpu_ticks "$GEN_CPU"); call=$(cpu_ticks all)
  n0=$(proc_cpu_ticks "$NGINX_PID"); t0=$(date +%s.%N)
  (cd "$dir" && K6_NO_USAGE_REPORT=true taskset -c "$GEN_CPU" /usr/bin/time -o "$dir/time" -f '%e %U %S %M' \
    timeout -k 5 "$limit" "${CMD[@]}" >"$dir/stdout" 2>"$dir/stderr" </dev/null)
  local rc=$?
  t1=$(date +%s.%N)
  if [ -n "$reader" ]; then kill "$reader" 2>/dev/null; wait "$reader" 2>/dev/null; fi
  local c0b c1b callb n1
  c0b=$(cpu_ticks "$TARGET_CPU"); c1b=$(cpu_ticks "$GEN_CPU"); callb=$(cpu_ticks all)
  n1=$(proc_cpu_ticks "$NGINX_PID")
  local wall user sys rss
  read -r wall user sys rss < <(tail -1 "$dir/time")
  emit "$meas" "$tool" "$round" exit "$rc"
  emit "$meas" "$tool" "$round" wall_s "$wall"
  emit "$meas" "$tool" "$round" user_s "$user"
  emit "$meas" "$tool" "$round" sys_s "$sys"
  emit "$meas" "$tool" "$round" rss_kib "$rss"
  awk -v t0c="$c0" -v t1c="$c0b" -v g0="$c1" -v g1="$c1b" -v a0="$call" -v a1="$callb" \
      -v n="$((n1 - n0))" -v u="$user" -v s="$sys" -v hz="$(getconf CLK_TCK)" -v w0="$t0" -v w1="$t1" \
      -v m="$meas" -v t="$tool" -v r="$round" 'BEGIN {
    w = w1 - w0; OFS = "\t"; gen = u + s; ng = n / hz
    split(t0c, T0, " "); split(t1c, T1, " "); split(g0, G0, " "); split(g1, G1, " ")
    split(a0, A0, " "); split(a1, A1, " ")
    pct = 100 / w
    print m, t, r, "nginx_cpu_pct", ng * pct
    # How busy the target core was: near 100 % means nginx, not the generator, set the pace.
    print m, t, r, "target_core_busy_pct", ((T1[1]-T0[1]) + (T1[2]-T0[2])) / hz * pct
    print m, t, r, "gen_core_busy_pct", ((G1[1]-G0[1]) + (G1[2]-G0[2])) / hz * pct
    print m, t, r, "softirq_pct", (A1[2]-A0[2]) / hz * pct
    print m, t, r, "steal_pct", (A1[3]-A0[3]) / hz * pct
    # Task time of anything but the generator and nginx: other work on this machine.
    other = (A1[1]-A0[1]) / hz - ng - gen; if (other < 0) other = 0
    print m, t, r, "other_cpu_pct", other * pct
  }' >>"$RUN_RAW"
  parse_"${tool%%-*}" "$meas" "$tool" "$round" "$dir"
  log "$(printf '%-7s %-13s r%s exit=%s wall=%ss cpu=%ss rss=%sKiB reqs=%s' "$meas" "$tool" "$round" \
    "$rc" "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN{print u+s}')" "$rss" \
    "$(awk -F'\t' -v m="$meas" -v t="$tool" -v r="$round" '$1==m&&$2==t&&$3==r&&$4=="reqs"{v=$5} END{print v}' "$RUN_RAW")")"
}

# note_parse_failure records that a tool's output could not be read.
note_parse_failure() {
  printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$RUN_DIR/parse-failures.tsv"
}

# parse_wrk reads wrk's text output.
parse_wrk() {
  local m=$1 t=$2 r=$3 f=$4/stdout reqs rps errs
  reqs=$(awk '/ requests in /{print $1}' "$f")
  rps=$(awk '/^Requests\/sec:/{print $2}' "$f")
  errs=$(awk '/Non-2xx/{n+=$NF} /Socket errors:/{gsub(/,/,""); n+=$4+$6+$8+$10} END{print n+0}' "$f")
  [ -z "$reqs" ] && note_parse_failure "$m" "$t" "$r" "no 'N requests in' line in wrk output"
  emit "$m" "$t" "$r" reqs "$reqs"; emit "$m" "$t" "$r" rps "$rps"; emit "$m" "$t" "$r" errors "$errs"
  emit "$m" "$t" "$r" p50_ms "$(awk '$1=="50%"{print $2}' "$f" | to_ms)"
  emit "$m" "$t" "$r" p99_ms "$(awk '$1=="99%"{print $2}' "$f" | to_ms)"
  emit "$m" "$t" "$r" mean_ms "$(awk '$1=="Latency" && $2!="Distribution"{print $2}' "$f" | to_ms)"
  # wrk's -d includes connecting; it counts "requests in" over its own wall time.
}

# to_ms turns wrk's latencies (1.23ms, 456.00us, 1.20s) into milliseconds.
to_ms() {
  awk '{ v=$1; if (v ~ /us$/) { sub(/us$/,"",v); print v/1000 } else if (v ~ /ms$/) { sub(/ms$/,"",v); print v+0 }
         else if (v ~ /m$/) { sub(/m$/,"",v); print v*60000 } else if (v ~ /s$/) { sub(/s$/,"",v); print v*1000 } }'
}

# parse_oha reads oha's JSON output.
parse_oha() {
  local m=$1 t=$2 r=$3 f=$4/stdout
  if ! jq -e .summary "$f" >/dev/null 2>&1; then
    note_parse_failure "$m" "$t" "$r" "oha printed no JSON summary ($(head -c 200 "$4/stderr" | tr '\n' ' '))"
    emit "$m" "$t" "$r" reqs ""; return
  fi
  emit "$m" "$t" "$r" reqs "$(jq '[.statusCodeDistribution[]] | add // 0' "$f")"
  emit "$m" "$t" "$r" rps "$(jq '.summary.requestsPerSec' "$f")"
  # "aborted due to deadline" are the requests in flight when -z ends, not failures.
  emit "$m" "$t" "$r" errors "$(jq '([.errorDistribution | to_entries[]? | select(.key != "aborted due to deadline") | .value] | add // 0) + ([.statusCodeDistribution | to_entries[] | select(.key != "200") | .value] | add // 0)' "$f")"
  emit "$m" "$t" "$r" p50_ms "$(jq '.latencyPercentiles.p50 * 1000' "$f")"
  emit "$m" "$t" "$r" p99_ms "$(jq '.latencyPercentiles.p99 * 1000' "$f")"
  emit "$m" "$t" "$r" mean_ms "$(jq '.summary.average * 1000' "$f")"
  emit "$m" "$t" "$r" p999_ms "$(jq '.latencyPercentiles["p99.9"] * 1000' "$f")"
}

# parse_hey reads hey's text summary.
parse_hey() {
  local m=$1 t=$2 r=$3 f=$4/stdout reqs
  reqs=$(awk '/^ *\[[0-9]+\][ \t]+[0-9]+ responses/{gsub(/[^0-9 \t]/," "); n+=$2} END{if (NR) print n+0}' "$f")
  [ -z "$reqs" ] && note_parse_failure "$m" "$t" "$r" "no status code distribution in hey output"
  emit "$m" "$t" "$r" reqs "$reqs"
  emit "$m" "$t" "$r" rps "$(awk '/Requests\/sec:/{print $2}' "$f")"
  emit "$m" "$t" "$r" errors "$(awk '/^Error distribution:/{e=1; next} e && /^ *\[[0-9]+\]/{gsub(/[][]/,""); n+=$1} /^Status code distribution:/{s=1; next} s && /^ *\[[0-9]+\]/{c=$1; gsub(/[][]/,"",c); if (c != "200") n+=$2} END{print n+0}' "$f")"
  emit "$m" "$t" "$r" p50_ms "$(awk '/ 50%+ in /{print $3*1000}' "$f")"
  emit "$m" "$t" "$r" p99_ms "$(awk '/ 99%+ in /{print $3*1000}' "$f")"
}

# parse_vegeta reads `vegeta report -type=json`.
parse_vegeta() {
  local m=$1 t=$2 r=$3 f=$4/stdout
  if ! jq -e .requests "$f" >/dev/null 2>&1; then
    note_parse_failure "$m" "$t" "$r" "vegeta report printed no JSON"; emit "$m" "$t" "$r" reqs ""; return
  fi
  emit "$m" "$t" "$r" reqs "$(jq .requests "$f")"
  emit "$m" "$t" "$r" rps "$(jq .rate "$f")"
  emit "$m" "$t" "$r" errors "$(jq '[.status_codes | to_entries[] | select(.key != "200") | .value] | add // 0' "$f")"
  emit "$m" "$t" "$r" p50_ms "$(jq '.latencies["50th"] / 1e6' "$f")"
  emit "$m" "$t" "$r" p99_ms "$(jq '.latencies["99th"] / 1e6' "$f")"
}

# parse_k6 reads k6's --summary-export.
parse_k6() {
  local m=$1 t=$2 r=$3 f=$4/summary.json
  case $m in grpc|ws) parse_k6_proto "$@"; return ;; esac
  if ! jq -e .metrics.http_reqs "$f" >/dev/null 2>&1; then
    note_parse_failure "$m" "$t" "$r" "k6 wrote no summary export ($(tail -c 200 "$4/stderr" | tr '\n' ' '))"
    emit "$m" "$t" "$r" reqs ""; return
  fi
  emit "$m" "$t" "$r" reqs "$(jq .metrics.http_reqs.count "$f")"
  emit "$m" "$t" "$r" rps "$(jq .metrics.http_reqs.rate "$f")"
  emit "$m" "$t" "$r" errors "$(jq '.metrics.http_req_failed.passes // 0' "$f")"
  emit "$m" "$t" "$r" dropped "$(jq '.metrics.dropped_iterations.count // 0' "$f")"
  emit "$m" "$t" "$r" p50_ms "$(jq '.metrics.http_req_duration.med' "$f")"
  emit "$m" "$t" "$r" p99_ms "$(jq '.metrics.http_req_duration["p(99)"]' "$f")"
  emit "$m" "$t" "$r" p999_ms "$(jq '.metrics.http_req_duration["p(99.9)"] // empty' "$f")"
  emit "$m" "$t" "$r" mean_ms "$(jq '.metrics.http_req_duration.avg // empty' "$f")"
}

# parse_k6_proto reads k6's --summary-export of a gRPC run (a call per iteration: an
# iteration whose call failed throws, and is counted as an error from stderr) or a WebSocket
# run (messages received).
parse_k6_proto() {
  local m=$1 t=$2 r=$3 f=$4/summary.json
  if ! jq -e .metrics.iterations "$f" >/dev/null 2>&1; then
    note_parse_failure "$m" "$t" "$r" "k6 wrote no summary export ($(tail -c 200 "$4/stderr" | tr '\n' ' '))"
    emit "$m" "$t" "$r" reqs ""; return
  fi
  if [ "$m" = grpc ]; then
    emit "$m" "$t" "$r" reqs "$(jq .metrics.iterations.count "$f")"
    emit "$m" "$t" "$r" errors "$(grep -c 'status [0-9]' "$4/stderr")"
    emit "$m" "$t" "$r" p50_ms "$(jq '.metrics.grpc_req_duration.med // empty' "$f")"
    emit "$m" "$t" "$r" p99_ms "$(jq '.metrics.grpc_req_duration["p(99)"] // empty' "$f")"
  else
    emit "$m" "$t" "$r" reqs "$(jq '.metrics.ws_msgs_received.count // 0' "$f")"
    emit "$m" "$t" "$r" sessions "$(jq '.metrics.ws_sessions.count // 0' "$f")"
    emit "$m" "$t" "$r" errors "$(grep -c 'level=error' "$4/stderr")"
  fi
}

# parse_ghz reads ghz's JSON report: calls with any status, those not OK as errors.
parse_ghz() {
  local m=$1 t=$2 r=$3 f=$4/ghz.json
  if ! jq -e .count "$f" >/dev/null 2>&1; then
    note_parse_failure "$m" "$t" "$r" "ghz wrote no JSON report ($(tail -c 200 "$4/stderr" | tr '\n' ' '))"
    emit "$m" "$t" "$r" reqs ""; return
  fi
  emit "$m" "$t" "$r" reqs "$(jq .count "$f")"
  emit "$m" "$t" "$r" rps "$(jq .rps "$f")"
  emit "$m" "$t" "$r" errors "$(jq '.count - (.statusCodeDistribution.OK // 0)' "$f")"
  emit "$m" "$t" "$r" p50_ms "$(jq '[.latencyDistribution[]? | select(.percentage == 50) | .latency / 1e6][0] // empty' "$f")"
  emit "$m" "$t" "$r" p99_ms "$(jq '[.latencyDistribution[]? | select(.percentage == 99) | .latency / 1e6][0] // empty' "$f")"
}

# parse_h2load reads h2load's text summary: requests done, of which failed or errored.
parse_h2load() {
  local m=$1 t=$2 r=$3 f=$4/stdout reqs
  reqs=$(awk '/^requests:/{print $6}' "$f")
  [ -z "$reqs" ] && note_parse_failure "$m" "$t" "$r" "no 'requests:' line in h2load output"
  emit "$m" "$t" "$r" reqs "$reqs"
  emit "$m" "$t" "$r" rps "$(awk '/^finished in/{print $4}' "$f")"
  emit "$m" "$t" "$r" errors "$(awk '/^requests:/{print $10 + $12}' "$f")"
}

# parse_loadlens reads loadlens's summary JSON (k6's layout), or its printed summary when
# the JSON has no request count.
parse_loadlens() {
  local m=$1 t=$2 r=$3 f=$4/summary.json reqs
  if [ -d "$4/segs" ]; then parse_segments "$@"; return; fi
  reqs=$(jq -e '.metrics.http_reqs.count // ([.loadlens.endpoints[]?.requests] | add)' "$f" 2>/dev/null)
  # A WebSocket run is measured in messages received (sessions are its iterations).
  if [ "$m" = ws ]; then
    reqs=$(jq -e '.metrics.ws_msgs_received.count' "$f" 2>/dev/null)
    emit "$m" "$t" "$r" sessions "$(jq '.metrics.ws_sessions.count // empty' "$f" 2>/dev/null)"
  fi
  if [ -z "$reqs" ] || [ "$reqs" = null ]; then
    reqs=$(grep -oE '[0-9]+ requests \(' "$4/stdout" | grep -oE '^[0-9]+')
  fi
  [ -z "$reqs" ] && note_parse_failure "$m" "$t" "$r" "loadlens wrote no request count ($(tail -c 200 "$4/stderr" | tr '\n' ' '))"
  emit "$m" "$t" "$r" reqs "$reqs"
  emit "$m" "$t" "$r" rps "$(jq '.metrics.http_reqs.rate // empty' "$f" 2>/dev/null)"
  emit "$m" "$t" "$r" errors "$(jq '[.loadlens.endpoints[]?.failed] | add // 0' "$f" 2>/dev/null)"
  emit "$m" "$t" "$r" dropped "$(jq '.metrics.dropped_iterations.count // 0' "$f" 2>/dev/null)"
  emit "$m" "$t" "$r" p50_ms "$(jq '(.metrics.http_req_duration.med // .metrics.grpc_req_duration.med) // empty' "$f" 2>/dev/null)"
  emit "$m" "$t" "$r" p99_ms "$(jq '(.metrics.http_req_duration["p(99)"] // .metrics.grpc_req_duration["p(99)"]) // empty' "$f" 2>/dev/null)"
  emit "$m" "$t" "$r" mean_ms "$(jq '.metrics.http_req_duration.avg // empty' "$f" 2>/dev/null)"
  emit "$m" "$t" "$r" vus_max "$(jq '.metrics.vus_max.max // empty' "$f" 2>/dev/null)"
  emit "$m" "$t" "$r" run_s "$(jq '.loadlens.duration_ms / 1000 // empty' "$f" 2>/dev/null)"
  # What the summary does not hold (p99.9, the start-up test) comes from run.db.
  local db; db=$(ls "$4"/results/*/run.db 2>/dev/null | head -1)
  if [ -n "$db" ]; then
    "$RUNSTATS" "$db" 2>>"$4/stderr" | awk -F'\t' -v m="$m" -v t="$t" -v r="$r" -v OFS='\t' \
      '$1 != "vus_max" { print m, t, r, $1, $2 }' >>"$RUN_RAW"
  fi
  # What loadlens said about its own limits (the collapse test shows them).
  case $m in
  many|many5k|open40k) said_loadlens "$@" ;;
  *) jq -r '[.loadlens.notices[]?, (.loadlens.findings[]? | (.title // .summary // .id // tostring))] | .[]' "$f" \
       >"$4/said.txt" 2>/dev/null ;;
  esac
  case $m in many|many5k|open40k) [ -n "$db" ] && per_second_loadlens "$@" "$(dirname "$db")" ;; esac
  # Each run keeps a run directory; only the summary and run.db's figures matter here.
  rm -rf "$4/results"
}

# said_loadlens MEAS TOOL ROUND DIR keeps what loadlens's summary said in DIR/said.txt (its
# notices, warnings, and each finding as "finding KIND: TITLE"; its printed summary is DIR/stdout)
# and records whether it named the generator ("gen_named": a generator-bound or
# generator-host-busy finding, or a finding, notice or warning that mentions "generator" or
# "loadlens itself"; its healthy line, which always gives the generator's CPU, does not count)
# and whether a latency drift finding fired ("drift").
said_loadlens() {
  local m=$1 t=$2 r=$3 f=$4/summary.json
  jq -e .loadlens "$f" >/dev/null 2>&1 || return 0
  jq -r '.loadlens | [(.notices[]? | "notice: " + .), (.warnings[]? | "warning: " + .),
    (.findings[]? | "finding \(.kind): \(.title)")] | .[]' "$f" >"$4/said.txt" 2>/dev/null
  emit "$m" "$t" "$r" gen_named "$(jq '.loadlens | [(.findings[]? | select(.kind == "generator-bound" or .kind == "generator-host-busy"
    or ((.title // "") | test("generator|loadlens itself"; "i")))), (.notices[]?, .warnings[]? | select(test("generator|loadlens itself"; "i")))]
    | length' "$f")"
  emit "$m" "$t" "$r" drift "$(jq '[.loadlens.findings[]? | select(.kind == "latency-drift" or ((.title // "") | test("latency drifts"; "i")))] | length' "$f")"
  emit "$m" "$t" "$r" findings "$(jq '[.loadlens.findings[]?] | length' "$f")"
}

# per_second_loadlens MEAS TOOL ROUND DIR RUNDIR reads the run's per-second figures
# (`loadlens export RUNDIR --format csv`, kept as DIR/persec.csv): the per-second p99 of the
# endpoint rows (the worst endpoint's each second) over seconds 0–1 (the start) and over
# seconds 2 to the end (median and worst), and the mean requests a second over seconds 2 to the
# second before the last (the steady rate, the start and the stop left out).
per_second_loadlens() {
  local m=$1 t=$2 r=$3 d=$4 run=$5 bin=$LOADLENS
  [ "$t" = loadlens-base ] && bin=$LOADLENS_BASE
  "$bin" export "$run" --format csv >"$d/persec.csv" 2>>"$d/stderr" || {
    note_parse_failure "$m" "$t" "$r" "loadlens export of $run failed"; return 0; }
  awk -F, -v m="$m" -v t="$t" -v r="$r" -v OFS='\t' '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["type"] == "endpoint" {
      s = $c["second"] + 0; req[s] += $c["requests"]; if (s > last) last = s
      if ($c["duration_p99_ms"] != "" && (!(s in p) || $c["duration_p99_ms"] + 0 > p[s])) p[s] = $c["duration_p99_ms"] + 0
    }
    END {
      if (!("type" in c) || !("duration_p99_ms" in c)) exit
      if ((0 in p) || (1 in p)) print m, t, r, "s01_p99_ms", (p[0] > p[1] ? p[0] : p[1])
      n = 0
      for (s = 2; s <= last; s++) if (s in p) { x = p[s]; j = n++; while (j > 0 && v[j - 1] > x) { v[j] = v[j - 1]; j-- } v[j] = x }
      if (n) { print m, t, r, "s2e_p99_med_ms", (n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2); print m, t, r, "s2e_p99_max_ms", v[n - 1] }
      k = 0; sum = 0
      for (s = 2; s < last; s++) { sum += req[s]; k++ }
      if (k) print m, t, r, "steady_rps", sum / k
    }' "$d/persec.csv" >>"$RUN_RAW"
}

# parse_segments reads a scale run made of segments (bench/lib/segments.sh): the sum of the
# processes' peak RSS (its stdout), their VUs and their failed requests.
parse_segments() {
  local m=$1 t=$2 r=$3 d=$4/segs
  emit "$m" "$t" "$r" reqs "$(jq -s '[.[].metrics.http_reqs.count // 0] | add' "$d"/seg*/summary.json 2>/dev/null)"
  emit "$m" "$t" "$r" errors "$(jq -s '[.[].loadlens.endpoints[]?.failed] | add // 0' "$d"/seg*/summary.json 2>/dev/null)"
  emit "$m" "$t" "$r" vus_max "$(jq -s '[.[].metrics.vus_max.max // 0] | add' "$d"/seg*/summary.json 2>/dev/null)"
  emit "$m" "$t" "$r" processes "$(ls -d "$d"/seg* | wc -l)"
  emit "$m" "$t" "$r" rss_sum_kib "$(tail -1 "$4/stdout")"
  rm -rf "$d"/seg*/results
}
