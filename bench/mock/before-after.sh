#!/usr/bin/env bash
# The mock's throughput before and after a change (issue 23: fasthttp replaced by net/http):
# the mock built at BASELINE (a git revision) and at this working tree each answer the fixed
# 100-byte 200 of fixed.yaml, pinned to CPU $TARGET_CPU, wrk -t1 -c50 pinned to CPU $GEN_CPU,
# the two interleaved for $ROUNDS rounds of $DUR s. Prints requests per server CPU-second for
# each (median, min–max) and their ratio paired by round. Loopback only; never in CI.
#   BASELINE [HEAD]  ROUNDS [5]  DUR [5]  TARGET_CPU [0]  GEN_CPU [1]  PORT [18093]
set -euo pipefail
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPO=$(dirname "$BENCH")
: "${BASELINE:=HEAD}" "${ROUNDS:=5}" "${DUR:=5}" "${TARGET_CPU:=0}" "${GEN_CPU:=1}" "${PORT:=18093}"
. "$BENCH/lib/target.sh" # proc_cpu_ticks
OUT=$(mktemp -d)
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$OUT"' EXIT

mkdir "$OUT/base"
git -C "$REPO" archive "$BASELINE" | tar -x -C "$OUT/base"
(cd "$OUT/base" && go build -o "$OUT/loadlens-before" ./cmd/loadlens)
(cd "$REPO" && go build -o "$OUT/loadlens-after" ./cmd/loadlens)

# start NAME PORT starts that binary's mock and waits (bounded) until it answers.
start() {
  sed "s#@PORT@#$2#g" "$BENCH/mock/fixed.yaml" >"$OUT/$1.yaml"
  taskset -c "$TARGET_CPU" "$OUT/loadlens-$1" mock "$OUT/$1.yaml" >"$OUT/$1.log" 2>&1 &
  PIDS+=($!)
  local _
  for _ in $(seq 50); do
    curl -fsS -o /dev/null "http://127.0.0.1:$2/" 2>/dev/null && return 0
    sleep 0.1
  done
  cat "$OUT/$1.log" >&2; exit 1
}
start before "$PORT"
start after $((PORT + 1))
hz=$(getconf CLK_TCK)
: >"$OUT/raw.tsv"
for r in $(seq "$ROUNDS"); do
  for i in 0 1; do
    name=$([ $i = 0 ] && echo before || echo after)
    pid=${PIDS[$i]}
    b=$(proc_cpu_ticks "$pid")
    n=$(taskset -c "$GEN_CPU" wrk -t1 -c50 -d"${DUR}s" "http://127.0.0.1:$((PORT + i))/" | awk '/requests in/ { print $1 }')
    a=$(proc_cpu_ticks "$pid")
    printf '%s\t%s\t%s\t%s\n' "$name" "$r" "$n" "$(awk -v n="$n" -v t=$((a - b)) -v hz="$hz" 'BEGIN { print n / (t / hz) }')" | tee -a "$OUT/raw.tsv" >&2
  done
done
med() { sort -g | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.0f (%.0f–%.0f)", m, v[1], v[NR] }'; }
echo "mock at $BASELINE: $(awk -F'\t' '$1 == "before" { print $4 }' "$OUT/raw.tsv" | med) requests per server CPU-second"
echo "mock of this tree: $(awk -F'\t' '$1 == "after" { print $4 }' "$OUT/raw.tsv" | med) requests per server CPU-second"
echo "after ÷ before, paired by round: $(awk -F'\t' '{ v[$2, $1] = $4 } END { for (r = 1; r <= '"$ROUNDS"'; r++) print v[r, "after"] / v[r, "before"] }' "$OUT/raw.tsv" | sort -g |
  awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f (%.2f–%.2f)", m, v[1], v[NR] }')"
