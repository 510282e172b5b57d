#!/usr/bin/env bash
# Issue 24's speed targets, beside the peers: gRPC unary calls (ghz, k6's k6/net/grpc),
# WebSocket messages (k6's k6/experimental/websockets) and HTTP/2 requests (h2load, k6), per
# generator CPU-second, against targets pinned to one core and every generator pinned to the
# other, interleaved for ROUNDS rounds, each ratio paired by round. Installs the peers it
# needs (bench/lib/install.sh), then rewrites its own block of bench/RESULTS.md (in the
# Analysis section, which bench/run.sh keeps). About 3 minutes a round.
#
#   bench/proto.sh                 # or bench/run.sh proto; ROUNDS=3
#   ONLY="grpc ws" bench/proto.sh  # a subset of "grpc ws h2"
#
# Environment: ROUNDS [3], PROTO_VUS [50], PROTO_DUR [10] seconds, GRPC_PORT [18200],
# WS_PORT [18201], H2_PORT [18202], TARGET_CPU [0], GEN_CPU [1], SETTLE [2], QUIET_WAIT [30],
# DISTURBED [25] and REDO_DISTURBED as bench/run.sh has them; SKIP_INSTALL=1; NO_WRITE=1
# (leave RESULTS.md and bench/data/ alone: the block goes to bench/out/proto/block.md only);
# LOADLENS_BASELINE, a git ref of loadlens measured as one more row in every round (say, the
# commit before a change: its "loadlens ÷ tool" cell is then after ÷ before, paired).
set -uo pipefail

BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(dirname "$BENCH")
OUT=$BENCH/out/proto
TOOLS=$BENCH/out/tools
RAW=$OUT/raw.tsv
: "${ROUNDS:=3}" "${TARGET_CPU:=0}" "${GEN_CPU:=1}" "${SETTLE:=2}" "${QUIET_WAIT:=30}" "${DISTURBED:=25}"
: "${ONLY:=grpc ws h2}"
PROTO_MEAS=(grpc ws h2)
# Ports of its own, so that it may run beside bench/run.sh.
: "${DASH_PORT:=18203}"

log() { printf '[proto %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# shellcheck source=lib/install.sh
. "$BENCH/lib/install.sh"
# shellcheck source=lib/target.sh
. "$BENCH/lib/target.sh"
# shellcheck source=lib/measure.sh
. "$BENCH/lib/measure.sh"
# shellcheck source=lib/report.sh
. "$BENCH/lib/report.sh"
# shellcheck source=lib/proto.sh
. "$BENCH/lib/proto.sh"
# shellcheck source=lib/proto_report.sh
. "$BENCH/lib/proto_report.sh"

# target_alive (run_one's check before each run) restarts the targets when one died.
target_alive() {
  local pid
  for pid in "${PROTO_PIDS[@]}"; do
    kill -0 "$pid" 2>/dev/null && continue
    log "a target died; restarting them"
    proto_targets_stop; proto_targets_start; return
  done
}

# build_loadlens builds loadlens from this tree, and detects its bookkeeping flags.
build_loadlens() {
  LOADLENS=$OUT/loadlens
  log "go build -o bench/out/proto/loadlens ./cmd/loadlens"
  (cd "$REPO" && go build -o "$LOADLENS" ./cmd/loadlens) || die "go build ./cmd/loadlens failed"
  LOADLENS_REV=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)
  [ -z "$(git -C "$REPO" status --porcelain -- . ':(exclude)bench' 2>/dev/null)" ] ||
    LOADLENS_REV="$LOADLENS_REV+uncommitted changes"
  (cd "$REPO" && go build -o "$OUT/runstats" ./bench/runstats) || die "go build ./bench/runstats failed"
  RUNSTATS=$OUT/runstats
  local help; help=$("$LOADLENS" run -h 2>&1)
  DASH_FLAGS=(); LOADLENS_OFF_FLAGS=()
  grep -q -- '-dashboard-addr' <<<"$help" && DASH_FLAGS=(--dashboard-addr "127.0.0.1:$DASH_PORT")
  grep -q -- '-no-metrics' <<<"$help" && LOADLENS_OFF_FLAGS=(--no-metrics --no-dashboard)
}

# build_baseline builds loadlens at the git ref $LOADLENS_BASELINE (from git archive, so the
# working tree is not touched) as the loadlens-base row.
build_baseline() {
  LOADLENS_BASE=""
  [ -n "${LOADLENS_BASELINE:-}" ] || return 0
  local src ok=0
  log "go build loadlens at $LOADLENS_BASELINE (the baseline)"
  src=$(mktemp -d "${TMPDIR:-/tmp}/loadlens-bench-src.XXXXXX")
  git -C "$REPO" archive "$LOADLENS_BASELINE" | tar -x -C "$src" && (cd "$src" && go build -o "$OUT/loadlens-base" ./cmd/loadlens) && ok=1
  rm -rf "$src"
  [ "$ok" = 1 ] || die "cannot build loadlens at $LOADLENS_BASELINE"
  LOADLENS_BASE=$OUT/loadlens-base
  LOADLENS_BASE_REV=$(git -C "$REPO" rev-parse --short "$LOADLENS_BASELINE")
}

main() {
  local start meas round tool
  start=$(date +%s)
  LOADAVG_START=$(cut -d' ' -f1-3 /proc/loadavg)
  mkdir -p "$OUT" "$TOOLS"
  if [ "${SKIP_INSTALL:-0}" = 1 ]; then touch "$TOOLS/status.tsv"; else install_proto_peers; fi
  [ "$(nproc)" -ge 2 ] && [ "$TARGET_CPU" != "$GEN_CPU" ] || die "needs two cores: TARGET_CPU and GEN_CPU must differ"
  build_loadlens
  build_baseline
  rm -rf "$OUT/runs" "$OUT/parse-failures.tsv"
  : >"$RAW"
  proto_targets_start
  trap 'proto_targets_stop' EXIT
  trap 'log interrupted; exit 130' INT TERM
  for round in $(seq "$ROUNDS"); do
    for meas in "${PROTO_MEAS[@]}"; do
      in_only "$meas" || continue
      NGINX_PID=$(proto_target_pid "$meas")
      for tool in $(proto_order "$meas"); do
        measure "$meas" "$tool" "$round"
        sleep "$SETTLE"
      done
    done
  done
  proto_targets_stop
  local secs=$(( $(date +%s) - start ))
  RUNTIME="$((secs / 60)) min $((secs % 60)) s"
  RUN_DATE=$(date -u '+%Y-%m-%d %H:%M UTC')
  LOADAVG_END=$(cut -d' ' -f1-3 /proc/loadavg)
  proto_write
  # The numbers behind RESULTS.md's block, committed beside it (not for a NO_WRITE run).
  if [ "${NO_WRITE:-0}" != 1 ]; then
    mkdir -p "$BENCH/data" && cp "$RAW" "$BENCH/data/proto-raw.tsv" && cp "$OUT/stats.tsv" "$BENCH/data/proto-stats.tsv"
  fi
  log "done in $RUNTIME"
}

# in_only MEAS succeeds when MEAS is among $ONLY.
in_only() { [[ " $ONLY " == *" $1 "* ]]; }

main "$@"
