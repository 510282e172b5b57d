#!/usr/bin/env bash
# The mock server's benchmark (issue 14): is `loadlens mock` fast enough never to be the
# bottleneck, and does it apply the latency it is told to?
#
# 1. Throughput: nginx (bench/conf/nginx.conf.in, one worker) and the mock (fixed.yaml, the same
#    100-byte body) each pinned to CPU $TARGET_CPU, wrk pinned to CPU $GEN_CPU, interleaved for
#    $ROUNDS rounds of $DUR s. Reported: requests per server CPU-second (requests ÷ the server
#    process's user+sys time), median and min–max, and the load average before each run.
# 2. Latency: the mock with lognormal.yaml (p50 20ms, p99 100ms), wrk -c$LAT_CONNS --latency
#    and loadlens run --vus $LAT_CONNS for $LAT_DUR s each, $ROUNDS rounds: client-observed
#    p50 and p99 against the configured ones.
#
# Sends traffic only to 127.0.0.1. Takes about (ROUNDS × (2×DUR + 2×LAT_DUR)) s; never in CI.
# Writes bench/mock/RESULTS.md (and raw numbers to bench/out/mock/).
#   ROUNDS [5]  DUR [10]  LAT_DUR [15]  LAT_CONNS [100]  TARGET_CPU [0]  GEN_CPU [1]
#   PORT [18080] (nginx)  MOCK_PORT [18081]
set -uo pipefail

BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPO=$(dirname "$BENCH")
OUT=$BENCH/out/mock
: "${ROUNDS:=5}" "${DUR:=10}" "${LAT_DUR:=15}" "${LAT_CONNS:=100}" "${TARGET_CPU:=0}" "${GEN_CPU:=1}"
: "${PORT:=18080}" "${MOCK_PORT:=18081}"
URL="http://127.0.0.1:$PORT/"
MOCK_URL="http://127.0.0.1:$MOCK_PORT/"
NOFILE=65536

log() { printf '[bench-mock %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# shellcheck source=../lib/target.sh
. "$BENCH/lib/target.sh"

MOCK_PID=""
# mock_start CONFIG starts the mock pinned to $TARGET_CPU with CONFIG (its @PORT@ filled in).
mock_start() {
  sed "s#@PORT@#$MOCK_PORT#g" "$BENCH/mock/$1" >"$OUT/$1"
  ! curl -fsS -o /dev/null "$MOCK_URL" 2>/dev/null || die "something already answers on $MOCK_URL (set MOCK_PORT=...)"
  taskset -c "$TARGET_CPU" "$OUT/loadlens" mock "$OUT/$1" >"$OUT/mock.log" 2>&1 &
  MOCK_PID=$!
  local _
  for _ in $(seq 50); do
    kill -0 "$MOCK_PID" 2>/dev/null || break
    curl -fsS -o /dev/null "$MOCK_URL" 2>/dev/null && return 0
    sleep 0.1
  done
  cat "$OUT/mock.log" >&2
  die "the mock did not start on $MOCK_URL"
}
mock_stop() {
  [ -n "$MOCK_PID" ] && kill "$MOCK_PID" 2>/dev/null && wait "$MOCK_PID" 2>/dev/null
  MOCK_PID=""
}
cleanup() { mock_stop; target_stop; }
trap cleanup EXIT

# throughput NAME PID URL ROUND runs wrk against URL and appends a line to raw.tsv:
# name round loadavg1 requests server-cpu-seconds.
throughput() {
  local name=$1 pid=$2 url=$3 round=$4 load before after out reqs hz
  hz=$(getconf CLK_TCK)
  load=$(cut -d' ' -f1 /proc/loadavg)
  before=$(proc_cpu_ticks "$pid")
  out=$(taskset -c "$GEN_CPU" wrk -t1 -c50 -d"${DUR}s" "$url")
  after=$(proc_cpu_ticks "$pid")
  reqs=$(awk '/requests in/ { print $1 }' <<<"$out")
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$round" "$load" "$reqs" \
    "$(awk -v a="$before" -v b="$after" -v hz="$hz" 'BEGIN { print (b - a) / hz }')" >>"$OUT/throughput.tsv"
  log "  $name: $reqs requests, $(awk -v a="$before" -v b="$after" -v hz="$hz" 'BEGIN { print (b - a) / hz }') server CPU-s, load $load"
}

# to_ms converts wrk's latency text (812.00us, 20.31ms, 1.02s) to milliseconds.
to_ms() { awk '{ v = $1 + 0; if ($1 ~ /us$/) v /= 1000; else if ($1 ~ /ms$/) v += 0; else if ($1 ~ /s$/) v *= 1000; print v }'; }

# latency ROUND measures the lognormal route from two clients; appends to latency.tsv:
# client round loadavg1 p50_ms p99_ms.
latency() {
  local round=$1 load out p50 p99
  load=$(cut -d' ' -f1 /proc/loadavg)
  out=$(taskset -c "$GEN_CPU" wrk -t1 -c"$LAT_CONNS" -d"${LAT_DUR}s" --latency "$MOCK_URL")
  p50=$(awk '$1 == "50%" { print $2 }' <<<"$out" | to_ms)
  p99=$(awk '$1 == "99%" { print $2 }' <<<"$out" | to_ms)
  printf 'wrk\t%s\t%s\t%s\t%s\n' "$round" "$load" "$p50" "$p99" >>"$OUT/latency.tsv"
  log "  wrk: p50 ${p50} ms, p99 ${p99} ms, load $load"
  load=$(cut -d' ' -f1 /proc/loadavg)
  rm -rf "$OUT/results"
  taskset -c "$GEN_CPU" "$OUT/loadlens" run "$MOCK_URL" --vus "$LAT_CONNS" --duration "${LAT_DUR}s" --quiet \
    --no-dashboard --summary-json "$OUT/summary.json" --results "$OUT/results" >/dev/null 2>&1
  p50=$(grep -o '"med": [0-9.]*' "$OUT/summary.json" | head -1 | grep -o '[0-9.]*$')
  p99=$(grep -o '"p(99)": [0-9.]*' "$OUT/summary.json" | head -1 | grep -o '[0-9.]*$')
  printf 'loadlens\t%s\t%s\t%s\t%s\n' "$round" "$load" "$p50" "$p99" >>"$OUT/latency.tsv"
  log "  loadlens: p50 ${p50} ms, p99 ${p99} ms, load $load"
}

# stat FILE NAME COLUMN prints "median (min–max)" of COLUMN over the rows of NAME.
stat() {
  awk -F'\t' -v n="$2" -v c="$3" '$1 == n { print $c }' "$1" | sort -g |
    awk '{ v[NR] = $1 } END { if (NR == 0) { print "n/a"; exit }
      m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      printf "%.4g (%.4g–%.4g)\n", m, v[1], v[NR] }'
}

main() {
  [ "$(nproc)" -ge 2 ] || die "needs 2 cores: one for the server, one for wrk"
  command -v wrk >/dev/null || die "needs wrk (apt-get install wrk)"
  ulimit -Sn "$NOFILE" 2>/dev/null || NOFILE=$(ulimit -Sn)
  mkdir -p "$OUT"
  : >"$OUT/throughput.tsv"; : >"$OUT/latency.tsv"
  log "go build -o bench/out/mock/loadlens ./cmd/loadlens"
  (cd "$REPO" && go build -o "$OUT/loadlens" ./cmd/loadlens) || die "go build failed"
  REV=$(git -C "$REPO" rev-parse --short HEAD)
  LOADAVG_START=$(cut -d' ' -f1-3 /proc/loadavg)
  target_start
  mock_start fixed.yaml
  local r
  for r in $(seq "$ROUNDS"); do
    log "throughput round $r/$ROUNDS"
    throughput nginx "$NGINX_PID" "$URL" "$r"
    throughput mock "$MOCK_PID" "$MOCK_URL" "$r"
  done
  mock_stop; target_stop
  mock_start lognormal.yaml
  for r in $(seq "$ROUNDS"); do
    log "latency round $r/$ROUNDS"
    latency "$r"
  done
  mock_stop
  # The Analysis section is written by hand and kept across runs.
  local analysis=""
  [ -f "$BENCH/mock/RESULTS.md" ] && analysis=$(awk '/^## Analysis/ { keep = 1 } keep' "$BENCH/mock/RESULTS.md")
  { report; [ -n "$analysis" ] && printf '\n%s\n' "$analysis"; } >"$BENCH/mock/RESULTS.md"
  log "wrote bench/mock/RESULTS.md"
}

# report writes RESULTS.md from the raw numbers.
report() {
  awk -F'\t' 'BEGIN { OFS = "\t" } { print $1, $2, $3, $4 / $5 }' "$OUT/throughput.tsv" >"$OUT/per-cpu.tsv"
  awk -F'\t' 'BEGIN { OFS = "\t" } { print $1, $2, $3, $4 / '"$DUR"' }' "$OUT/throughput.tsv" >"$OUT/rps.tsv"
  local ngx mk ratio
  ngx=$(awk -F'\t' '$1 == "nginx" { print $4 }' "$OUT/per-cpu.tsv" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
  mk=$(awk -F'\t' '$1 == "mock" { print $4 }' "$OUT/per-cpu.tsv" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
  ratio=$(awk -v a="$ngx" -v b="$mk" 'BEGIN { printf "%.2f", a / b }')
  cat <<MD
# Mock server benchmark

Written by \`bench/mock/run.sh\` ($(date -u +%Y-%m-%d), loadlens $REV, $ROUNDS rounds, $(nproc) cores,
load average $LOADAVG_START at the start; the machine was shared with other work). Each cell is the
median (min–max) over the rounds; the raw numbers, with the 1-minute load average before each run,
are in \`bench/out/mock/*.tsv\`.

## Throughput: a fixed 100-byte 200, wrk -t1 -c50 -d${DUR}s

Server pinned to CPU $TARGET_CPU, wrk to CPU $GEN_CPU, nginx and the mock interleaved.

| server | requests/s | requests per server CPU-second |
| --- | --- | --- |
| nginx (one worker) | $(stat "$OUT/rps.tsv" nginx 4) | $(stat "$OUT/per-cpu.tsv" nginx 4) |
| loadlens mock | $(stat "$OUT/rps.tsv" mock 4) | $(stat "$OUT/per-cpu.tsv" mock 4) |

nginx ÷ mock, requests per CPU-second (medians): **$ratio×** (the goal: at most 2×).

Load average (1 min) before the runs: nginx $(stat "$OUT/throughput.tsv" nginx 3), mock $(stat "$OUT/throughput.tsv" mock 3).

## Latency: lognormal {p50: 20ms, p99: 100ms}, $LAT_CONNS connections, ${LAT_DUR}s

| client | p50 ms (configured 20) | p99 ms (configured 100) |
| --- | --- | --- |
| wrk --latency | $(stat "$OUT/latency.tsv" wrk 4) | $(stat "$OUT/latency.tsv" wrk 5) |
| loadlens run --vus $LAT_CONNS | $(stat "$OUT/latency.tsv" loadlens 4) | $(stat "$OUT/latency.tsv" loadlens 5) |

Load average (1 min) before the runs: $(stat "$OUT/latency.tsv" wrk 3) (wrk), $(stat "$OUT/latency.tsv" loadlens 3) (loadlens).
MD
}

main "$@"
