# shellcheck shell=bash
# bench/proto.sh's targets and its block of RESULTS.md. Sourced by bench/proto.sh.
#
# The targets, pinned to $TARGET_CPU: bench/protoserve (grpc-go's interop TestService on
# $GRPC_PORT, a WebSocket echo on $WS_PORT) and nghttpd (HTTP/2 over TLS on $H2_PORT, a
# 100-byte /index.html, a self-signed P-256 certificate made per run).

PROTO_PIDS=(); PROTO_DIR=""

# proto_targets_start builds and starts both targets, and waits until each answers.
proto_targets_start() {
  PROTO_DIR=$(mktemp -d "${TMPDIR:-/tmp}/loadlens-bench-proto.XXXXXX")
  (cd "$REPO" && go build -o "$OUT/protoserve" ./bench/protoserve) || die "go build ./bench/protoserve failed"
  taskset -c "$TARGET_CPU" "$OUT/protoserve" -grpc "127.0.0.1:$GRPC_PORT" -ws "127.0.0.1:$WS_PORT" \
    >"$PROTO_DIR/protoserve.log" 2>&1 &
  PROTO_PIDS=($!)
  if tool_ok nghttpd; then
    mkdir -p "$PROTO_DIR/www"
    head -c 100 /dev/zero | tr '\0' x >"$PROTO_DIR/www/index.html"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=127.0.0.1 \
      -addext subjectAltName=IP:127.0.0.1 -keyout "$PROTO_DIR/key.pem" -out "$PROTO_DIR/cert.pem" \
      >/dev/null 2>&1 || die "openssl could not make a certificate"
    taskset -c "$TARGET_CPU" nghttpd -d "$PROTO_DIR/www" "$H2_PORT" "$PROTO_DIR/key.pem" "$PROTO_DIR/cert.pem" \
      >"$PROTO_DIR/nghttpd.log" 2>&1 &
    PROTO_PIDS+=($!)
  fi
  local _ port
  for port in "$GRPC_PORT" "$WS_PORT" ${PROTO_PIDS[1]:+"$H2_PORT"}; do
    for _ in $(seq 50); do
      (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && continue 2
      sleep 0.1
    done
    die "nothing listens on 127.0.0.1:$port (see $PROTO_DIR/*.log; taken? set GRPC_PORT, WS_PORT, H2_PORT)"
  done
  log "targets on CPU $TARGET_CPU: protoserve ${PROTO_PIDS[0]} (gRPC :$GRPC_PORT, WebSocket :$WS_PORT)${PROTO_PIDS[1]:+, nghttpd ${PROTO_PIDS[1]} (HTTP/2 :$H2_PORT)}"
}

# proto_targets_stop stops what proto_targets_start started.
proto_targets_stop() {
  local pid
  for pid in "${PROTO_PIDS[@]}"; do
    kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  done
  PROTO_PIDS=()
  [ -n "$PROTO_DIR" ] && rm -rf "$PROTO_DIR"
  PROTO_DIR=""
}

# proto_target_pid MEAS prints the PID of MEAS's target (its CPU is the nginx_cpu_pct column).
proto_target_pid() { if [ "$1" = h2 ]; then echo "${PROTO_PIDS[1]:-0}"; else echo "${PROTO_PIDS[0]}"; fi; }

# proto_order MEAS lists the generators of MEAS, in the interleaving order.
proto_order() {
  case $1 in
  grpc) tool_ok ghz && echo ghz; tool_ok k6 && echo k6 ;;
  ws) tool_ok k6 && echo k6 ;;
  h2) tool_ok nghttpd || return 0
      tool_ok h2load && printf '%s\n' h2load h2load-mux; tool_ok k6 && echo k6 ;;
  esac
  echo loadlens
  [ -n "${LOADLENS_BASE:-}" ] && echo loadlens-base
  # --no-metrics counts sessions, not their messages: the WebSocket bench has no such row.
  [ ${#LOADLENS_OFF_FLAGS[@]} -gt 0 ] && [ "$1" != ws ] && echo loadlens-off
  return 0
}

# proto_unit MEAS prints what one counted unit of MEAS is.
proto_unit() { case $1 in grpc) echo call ;; ws) echo message ;; h2) echo request ;; esac; }

# proto_targets MEAS prints issue 24's targets of MEAS: "tool factor" lines (loadlens's units
# per CPU-second ÷ the tool's, at least factor).
proto_targets() {
  case $1 in
  grpc) printf '%s\n' "ghz 2" "k6 5" ;;
  ws) echo "k6 5" ;;
  h2) printf '%s\n' "h2load 0.8" "k6 5" ;;
  esac
}

# proto_label TOOL prints a generator's row name.
proto_label() {
  case $1 in
  loadlens) echo "**loadlens**" ;;
  loadlens-off) echo "loadlens \`${LOADLENS_OFF_FLAGS[*]}\`" ;;
  loadlens-base) echo "loadlens at $LOADLENS_BASE_REV (baseline)" ;;
  h2load) echo "h2load \`-c $PROTO_VUS -m 1\`" ;;
  h2load-mux) echo "h2load \`-c $H2_MUX_CONNS -m $H2_MUX_STREAMS\` (multiplexed)" ;;
  *) echo "$1" ;;
  esac
}
