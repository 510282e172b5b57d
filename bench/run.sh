#!/usr/bin/env bash
# The peer benchmark of issue 3: installs wrk, oha, hey, vegeta and k6 by package name,
# builds loadlens from this tree, starts a fixed nginx target pinned to one core, runs every
# generator pinned to the other core (interleaved, ROUNDS rounds, each bounded in time), and
# writes bench/RESULTS.md. Long (~20 min with ROUNDS=3): never run it in CI.
#
# It also runs loadlens alone where issue 11 asks: https beside http, the collapse test (an
# open model beyond one core, default pool and --max-vus 100) and the scale test (idle VUs),
# and issue 22's: 10,000 VUs with 1 s think for 30 s beside the peers (its peak RSS is the
# memory table's), loadlens alone at 5,000 VUs, and 40,000 requests/s on one core.
#
# Environment (defaults in brackets; bench/README.md says more):
#   ROUNDS [3]  PORT [18080]  TARGET_CPU [0]  GEN_CPU [1]  SETTLE [2] seconds between runs
#   QUIET_WAIT [30] most seconds to wait for an idle machine before each run
#   DISTURBED [25] % of a core other processes may use before a run is done once more
#     (REDO_DISTURBED=0: never)
#   LOADLENS_REF    a git ref of loadlens to measure instead of the working tree
#   LOADLENS_BASELINE  a git ref of loadlens measured as one more row (say, before a change)
#   SKIP_INSTALL=1  use the cached tools only;  REPORT_ONLY=1  rewrite RESULTS.md from the
#     last run's numbers without measuring;  ONLY  a subset of "closed open https many many5k
#     open40k collapse scale" (smoke tests; "idle" runs the older 15 s memory measurement, which
#     "many" replaces);  PEERS ["wrk oha k6"] (hey and vegeta can be added)
#   MANY_VUS [10000]  MANY_DUR [30]  MANY5K_VUS [5000]  OPEN40K_RATE [40000]  OPEN40K_DUR [10]
#     OPEN40K_CONNS [200]: issue 22's many-VU closed model and 40,000/s open model
#   ONCE_ROUNDS [1] rounds of the collapse and scale tests, run after the interleaved rounds
#   OHA_VERSION, K6_VERSION, VEGETA_VERSION, HEY_VERSION: see bench/lib/install.sh
#
# bench/run.sh proto [...] runs only issue 24's gRPC, WebSocket and HTTP/2 benches
# (bench/proto.sh, its own knobs there), never this suite.
set -uo pipefail

BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(dirname "$BENCH")
OUT=$BENCH/out
TOOLS=$OUT/tools
RAW=$OUT/raw.tsv
: "${ROUNDS:=3}" "${PORT:=18080}" "${TARGET_CPU:=0}" "${GEN_CPU:=1}" "${SETTLE:=2}" "${QUIET_WAIT:=30}" \
  "${DISTURBED:=25}"
: "${ONLY:=closed open https many many5k open40k collapse scale}" "${ONCE_ROUNDS:=1}" "${HTTPS_PORT:=$((PORT + 363))}"
URL="http://127.0.0.1:$PORT/"
HTTPS_URL="https://127.0.0.1:$HTTPS_PORT/"
read -r -a PEERS <<<"${PEERS:-wrk oha k6}"
# Measurements interleaved in every round, and those run once per ONCE_ROUNDS afterwards
# (loadlens alone: the collapse and scale tests). many (issue 22: 10,000 VUs with 1 s think,
# 30 s) replaces idle by default: its peak RSS fills the memory table, and its latency the
# many-VU one; many5k is loadlens alone at 5,000 VUs.
ROUND_MEAS=(closed open https idle many many5k open40k)
ONCE_MEAS=(collapse scale)

log() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# shellcheck source=lib/install.sh
. "$BENCH/lib/install.sh"
# shellcheck source=lib/target.sh
. "$BENCH/lib/target.sh"
# shellcheck source=lib/measure.sh
. "$BENCH/lib/measure.sh"
# shellcheck source=lib/report.sh
. "$BENCH/lib/report.sh"

# check_machine refuses to measure on a machine without two cores for target and generator.
check_machine() {
  [ "$(nproc)" -ge 2 ] || die "needs at least 2 cores (target and generator on separate ones), have $(nproc)"
  [ "$TARGET_CPU" != "$GEN_CPU" ] || die "TARGET_CPU and GEN_CPU must differ"
  # 10,000 connections on each side need file descriptors: raise the soft limit to the hard one.
  local hard; hard=$(ulimit -Hn)
  [ "$hard" = unlimited ] && hard=1048576
  [ "$hard" -lt 65536 ] && ulimit -Hn 65536 2>/dev/null && hard=65536
  NOFILE=$(( hard < 65536 ? hard : 65536 ))
  ulimit -Sn "$NOFILE" || die "cannot raise the open files limit to $NOFILE"
  local most=$(( MANY_VUS > IDLE_VUS ? MANY_VUS : IDLE_VUS ))
  [ "$NOFILE" -ge $((most + 2000)) ] ||
    log "warning: open files limit $NOFILE is below $((most + 2000)): the $(group "$most")-VU measurements may fail"
}

# build_at_ref REF OUT builds loadlens as committed at the git ref REF into OUT, from git
# archive, so the working tree (which others may be editing) is not touched.
build_at_ref() {
  local src ok=0
  src=$(mktemp -d "${TMPDIR:-/tmp}/loadlens-bench-src.XXXXXX")
  git -C "$REPO" archive "$1" | tar -x -C "$src" && (cd "$src" && go build -o "$2" ./cmd/loadlens) && ok=1
  rm -rf "$src"
  [ "$ok" = 1 ]
}

# build_loadlens builds loadlens from this tree (or at $LOADLENS_REF) and detects its
# bookkeeping flags.
build_loadlens() {
  LOADLENS=$OUT/loadlens
  if [ -n "${LOADLENS_REF:-}" ]; then
    log "go build loadlens at $LOADLENS_REF"
    build_at_ref "$LOADLENS_REF" "$LOADLENS" || die "cannot build loadlens at $LOADLENS_REF"
    LOADLENS_REV=$(git -C "$REPO" rev-parse --short "$LOADLENS_REF")
  else
    log "go build -o bench/out/loadlens ./cmd/loadlens"
    (cd "$REPO" && go build -o "$LOADLENS" ./cmd/loadlens) ||
      die "go build ./cmd/loadlens failed (to measure a commit instead: LOADLENS_REF=HEAD)"
    LOADLENS_REV=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)
    # Untracked files count too (a new .go file is built in); bench/ itself does not.
    [ -z "$(git -C "$REPO" status --porcelain -- . ':(exclude)bench' 2>/dev/null)" ] ||
      LOADLENS_REV="$LOADLENS_REV+uncommitted changes"
  fi
  (cd "$REPO" && go build -o "$OUT/runstats" ./bench/runstats) || die "go build ./bench/runstats failed"
  RUNSTATS=$OUT/runstats
  local help; help=$("$LOADLENS" run -h 2>&1)
  DASH_FLAGS=()
  grep -q -- '-dashboard-addr' <<<"$help" && DASH_FLAGS=(--dashboard-addr "127.0.0.1:$DASH_PORT")
  LOADLENS_OFF_FLAGS=(); LOADLENS_ON_DESC="per-second metrics and run.db"
  if grep -q -- '-no-dashboard' <<<"$help"; then
    LOADLENS_ON_DESC="per-second metrics, run.db and the dashboard"
    [ "$DASH_CLIENT" = 1 ] && [ ${#DASH_FLAGS[@]} -gt 0 ] &&
      LOADLENS_ON_DESC="per-second metrics, run.db and the dashboard, its event stream read by a client as an open tab does"
  fi
  if grep -q -- '-no-metrics' <<<"$help"; then
    LOADLENS_OFF_FLAGS=(--no-metrics)
    grep -q -- '-no-dashboard' <<<"$help" && LOADLENS_OFF_FLAGS+=(--no-dashboard)
  fi
}

# build_baseline builds loadlens at the git ref $LOADLENS_BASELINE, measured as one more
# generator to compare against (say, the commit before a change).
build_baseline() {
  LOADLENS_BASE=""
  [ -n "${LOADLENS_BASELINE:-}" ] || return 0
  log "go build loadlens at $LOADLENS_BASELINE (the baseline)"
  if build_at_ref "$LOADLENS_BASELINE" "$OUT/loadlens-base"; then
    LOADLENS_BASE=$OUT/loadlens-base
  else
    log "warning: cannot build loadlens at $LOADLENS_BASELINE; no baseline"
  fi
}

# record_versions writes each tool's version to $OUT/versions.tsv.
record_versions() {
  local v=$OUT/versions.tsv
  : >"$v"
  printf 'nginx\t%s\n' "$("$(nginx_bin)" -v 2>&1 | sed 's/^nginx version: //')" >>"$v"
  tool_ok wrk && printf 'wrk\t%s\n' "$("$B_WRK" --version 2>&1 | head -1 | awk '{print $2}')" >>"$v"
  tool_ok oha && printf 'oha\t%s\n' "$("$TOOLS/bin/oha" --version 2>&1 | awk '{print $2}')" >>"$v"
  tool_ok hey && printf 'hey\t%s\n' "$(go_mod_version "$TOOLS/bin/hey" github.com/rakyll/hey)" >>"$v"
  tool_ok vegeta && printf 'vegeta\t%s\n' "$(go_mod_version "$TOOLS/bin/vegeta" github.com/tsenart/vegeta/v12)" >>"$v"
  tool_ok k6 && printf 'k6\t%s\n' "$("$TOOLS/bin/k6" version 2>&1 | head -1 | awk '{print $2}')" >>"$v"
  printf 'loadlens\t%s (%s)\n' "$("$LOADLENS" version 2>&1 | awk '{print $2}')" "$LOADLENS_REV" >>"$v"
  if [ -n "$LOADLENS_BASE" ]; then
    printf 'loadlens-base\t%s (%s)\n' "$("$LOADLENS_BASE" version 2>&1 | awk '{print $2}')" \
      "$(git -C "$REPO" rev-parse --short "$LOADLENS_BASELINE")" >>"$v"
  fi
}

# order lists the generators of one round, in the interleaving order.
order() {
  local t
  for t in "${PEERS[@]}"; do tool_ok "$t" && echo "$t"; done
  echo loadlens
  [ ${#LOADLENS_OFF_FLAGS[@]} -gt 0 ] && echo loadlens-off
  [ -n "$LOADLENS_BASE" ] && echo loadlens-base
  return 0
}

# once_tools MEAS lists the loadlens variants of a collapse or scale test.
once_tools() {
  local r v
  case $1 in
  collapse) for r in "${COLLAPSE_RATES[@]}"; do echo "loadlens-$((r / 1000))k"; echo "loadlens-$((r / 1000))k-cap"; done ;;
  scale) for v in $SCALE_VUS; do echo "loadlens-$v"; done ;;
  esac
}

# in_only MEAS succeeds when MEAS is among $ONLY.
in_only() { [[ " $ONLY " == *" $1 "* ]]; }

# keep_data copies the run's raw numbers into bench/data/ (committed beside RESULTS.md).
keep_data() {
  mkdir -p "$BENCH/data"
  cp "$RAW" "$OUT/stats.tsv" "$OUT/versions.tsv" "$OUT/run.env" "$BENCH/data/" 2>/dev/null
  # What loadlens said in each collapse, scale, many and 40,000/s run (notices and findings).
  local f
  for f in "$OUT"/runs/{collapse,scale,many,many5k,open40k}/*/r*/said.txt; do
    [ -s "$f" ] || continue
    sed "s#^#${f#"$OUT"/runs/}\t#; s#/said.txt\t#\t#" "$f"
  done >"$BENCH/data/said.tsv"
  # loadlens's per-second requests and p99 in the runs of issue 22's measurements (persec.csv).
  for f in "$OUT"/runs/{many,many5k,open40k}/*/r*/persec.csv; do
    [ -s "$f" ] || continue
    awk -F, -v id="${f#"$OUT"/runs/}" -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; sub(/\/persec.csv$/, "", id); next }
      $c["type"] == "endpoint" { print id, $c["second"], $c["requests"], $c["duration_p99_ms"] }' "$f"
  done >"$BENCH/data/persec.tsv"
}

main() {
  local start; start=$(date +%s)
  LOADAVG_START=$(cut -d' ' -f1-3 /proc/loadavg)
  mkdir -p "$OUT" "$TOOLS"
  if [ "${SKIP_INSTALL:-0}" = 1 ]; then touch "$TOOLS/status.tsv"; else install_peers; fi
  B_WRK=$(command -v wrk || echo /usr/bin/wrk)
  OHA_JSON=(--output-format json)
  tool_ok oha && ! "$TOOLS/bin/oha" --help 2>&1 | grep -q -- '--output-format' && OHA_JSON=(-j)
  OHA_LATCORR=()
  tool_ok oha && "$TOOLS/bin/oha" --help 2>&1 | grep -q -- '--latency-correction' && OHA_LATCORR=(--latency-correction)
  check_machine
  build_loadlens
  build_baseline
  record_versions
  mapfile -t ORDER < <(order)
  log "generators: ${ORDER[*]}; measurements: $ONLY; rounds: $ROUNDS"

  rm -rf "$OUT/runs" "$OUT/parse-failures.tsv"
  : >"$RAW"
  target_start
  observed_start
  trap 'target_stop; observed_stop' EXIT
  trap 'log interrupted; exit 130' INT TERM
  local round meas tool
  for round in $(seq "$ROUNDS"); do
    for meas in "${ROUND_MEAS[@]}"; do
      in_only "$meas" || continue
      for tool in "${ORDER[@]}"; do
        [ "$meas" != closed ] && [ "$tool" = loadlens-off ] && continue
        [ "$meas" = https ] && [ "$tool" = loadlens-base ] && continue
        [ "$meas" = many5k ] && [[ $tool != loadlens* ]] && continue
        measure "$meas" "$tool" "$round"
        sleep "$SETTLE"
      done
    done
  done
  for round in $(seq "$ONCE_ROUNDS"); do
    for meas in "${ONCE_MEAS[@]}"; do
      in_only "$meas" || continue
      for tool in $(once_tools "$meas"); do
        measure "$meas" "$tool" "$round"
        sleep "$SETTLE"
      done
    done
  done
  target_stop
  observed_stop

  local secs=$(( $(date +%s) - start ))
  RUNTIME="$((secs / 60)) min $((secs % 60)) s"
  RUN_DATE=$(date -u '+%Y-%m-%d %H:%M UTC')
  save_run_env
  write_results
  keep_data
  log "wrote bench/RESULTS.md ($RUNTIME)"
}

# RUN_VARS are what the report needs from the run, saved so REPORT_ONLY=1 can redo it.
RUN_VARS=(ROUNDS ONLY ORDER RUNTIME RUN_DATE LOADAVG_START NOFILE TARGET_CPU GEN_CPU CLOSED_DUR
  OPEN_DUR QUIET_WAIT DISTURBED LOADLENS_OFF_FLAGS LOADLENS_ON_DESC LOADLENS_REF LOADLENS_BASELINE
  LOADLENS_BASE PEERS ONCE_ROUNDS COLLAPSE_DUR SCALE_VUS SCALE_DUR SCALE_PER_PROC DASH_CLIENT DASH_FLAGS
  METRICS_URL MANY_VUS MANY_DUR MANY5K_VUS OPEN40K_RATE OPEN40K_DUR OPEN40K_CONNS OHA_LATCORR)

# save_run_env writes the run's settings to $OUT/run.env.
save_run_env() {
  : "${LOADLENS_REF:=}" "${LOADLENS_BASELINE:=}"
  declare -p "${RUN_VARS[@]}" | sed 's/^declare -[-a-zA-Z]* /declare -g /; s/^declare -g \([a-zA-Z_]*=(\)/declare -ga \1/' >"$OUT/run.env"
}

# report_only rewrites RESULTS.md from the last run's raw numbers, without measuring.
report_only() {
  if [ ! -f "$OUT/run.env" ] || [ ! -s "$RAW" ]; then die "no finished run in $OUT to report on"; fi
  # shellcheck source=/dev/null
  . "$OUT/run.env"
  B_WRK=wrk; OHA_JSON=(); LOADLENS=$OUT/loadlens   # named in command lines only
  [ -n "${OHA_LATCORR+x}" ] || OHA_LATCORR=()         # a run.env from before issue 22's measurements
  write_results
  log "rewrote bench/RESULTS.md from $RAW"
}

# "bench/run.sh proto" runs issue 24's protocol benches alone (bench/proto.sh), not this suite.
if [ "${1:-}" = proto ]; then shift; exec "$BENCH/proto.sh" "$@"; fi
if [ "${REPORT_ONLY:-0}" = 1 ]; then report_only; else main "$@"; fi
