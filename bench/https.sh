#!/usr/bin/env bash
# The https benchmark of issue 11 §3: requests per generator CPU-second over TLS against
# nginx (one worker, a self-signed certificate, pinned to TARGET_CPU), closed model, 50
# connections, for loadlens's lean client, loadlens through net/http, and oha, pinned to
# GEN_CPU, interleaved for REPS repetitions. Prints a Markdown table of medians (min–max)
# and ratios paired by repetition; raw numbers in bench/out/https/raw.tsv. Uses oha from
# bench/out/tools (bench/run.sh installs it). Long (~4 min): never run it in CI.
#
# Environment: REPS [5]  DUR [10] seconds  PORT [18443]  TARGET_CPU [0]  GEN_CPU [1]
#   QUIET_WAIT [30] seconds to wait for an idle machine  DISTURBED [25] % of a core others may
#   use before a repetition's run is done once more (the less disturbed try is kept)
set -uo pipefail

BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(dirname "$BENCH")
OUT=$BENCH/out/https
TOOLS=$BENCH/out/tools
: "${REPS:=5}" "${DUR:=10}" "${PORT:=18443}" "${TARGET_CPU:=0}" "${GEN_CPU:=1}" "${QUIET_WAIT:=30}" \
  "${DISTURBED:=25}"
URL="https://127.0.0.1:$PORT"
VUS=50
NOFILE=4096
RAW=$OUT/raw.tsv

log() { printf '[https %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# shellcheck source=lib/target.sh
. "$BENCH/lib/target.sh"   # nginx_bin, proc_cpu_ticks, cpu_ticks, wait_quiet, target_stop

# https_target_start makes a certificate and starts nginx with bench/conf/nginx-https.conf.in.
https_target_start() {
  NGINX_DIR=$(mktemp -d "${TMPDIR:-/tmp}/loadlens-bench-https.XXXXXX")
  mkdir -p "$NGINX_DIR"/{body,proxy,fastcgi,uwsgi,scgi}
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$NGINX_DIR/key.pem" -out "$NGINX_DIR/cert.pem" \
    >/dev/null 2>&1 || die "openssl could not make a certificate"
  sed -e "s#@DIR@#$NGINX_DIR#g" -e "s#@PORT@#$PORT#g" -e "s#@NOFILE@#$NOFILE#g" \
    "$BENCH/conf/nginx-https.conf.in" >"$NGINX_DIR/nginx.conf"
  taskset -c "$TARGET_CPU" "$(nginx_bin)" -c "$NGINX_DIR/nginx.conf" -e "$NGINX_DIR/error.log" \
    >"$NGINX_DIR/stdout" 2>&1 &
  NGINX_PID=$!
  local _
  for _ in $(seq 50); do
    curl -fsSk -o /dev/null "$URL/" 2>/dev/null && { log "nginx $NGINX_PID on $URL (CPU $TARGET_CPU)"; return 0; }
    kill -0 "$NGINX_PID" 2>/dev/null || break
    sleep 0.1
  done
  cat "$NGINX_DIR/error.log" "$NGINX_DIR/stdout" >&2 2>/dev/null
  die "nginx did not start on $URL"
}

# cmd_of TOOL DIR fills CMD with one run's command line.
cmd_of() {
  case $1 in
  lean)     CMD=("$OUT/loadlens" run "$URL/" --vus "$VUS" --duration "${DUR}s" --insecure --quiet
                 --summary-json "$2/summary.json" --results "$2/results") ;;
  net-http) CMD=("$OUT/loadlens" run "$BENCH/loadlens/https-nethttp.yaml" -e "TARGET=$URL" -e "DUR=${DUR}s"
                 --quiet --summary-json "$2/summary.json" --results "$2/results") ;;
  oha)      CMD=("$TOOLS/bin/oha" -c "$VUS" -z "${DUR}s" --no-tui --insecure --output-format json "$URL/") ;;
  esac
}

# reqs_of TOOL DIR prints the requests a run completed (the tool's own count).
reqs_of() {
  case $1 in
  oha) jq '[.statusCodeDistribution[]] | add // 0' "$2/stdout" 2>/dev/null ;;
  *)   jq '.metrics.http_reqs.count // ([.loadlens.endpoints[]?.requests] | add)' "$2/summary.json" 2>/dev/null ;;
  esac
}

# errors_of TOOL DIR prints the failed requests of a run.
errors_of() {
  case $1 in
  oha) jq '([.errorDistribution | to_entries[]? | select(.key != "aborted due to deadline") | .value] | add // 0) + ([.statusCodeDistribution | to_entries[] | select(.key != "200") | .value] | add // 0)' "$2/stdout" 2>/dev/null ;;
  *)   jq '[.loadlens.endpoints[]?.failed] | add // 0' "$2/summary.json" 2>/dev/null ;;
  esac
}

# run_one TOOL REP DIR runs one generator once; it prints "reqs cpu_s other_pct load1 rps errors".
run_one() {
  local tool=$1 dir=$3
  rm -rf "$dir" && mkdir -p "$dir"
  cmd_of "$tool" "$dir"
  wait_quiet >/dev/null
  local load1 call n0 t0 t1 callb n1
  load1=$(cut -d' ' -f1 /proc/loadavg)
  call=$(cpu_ticks all); n0=$(proc_cpu_ticks "$NGINX_PID"); t0=$(date +%s.%N)
  (cd "$dir" && taskset -c "$GEN_CPU" /usr/bin/time -o "$dir/time" -f '%e %U %S %M' \
    timeout -k 5 "$((DUR + 60))" "${CMD[@]}" >"$dir/stdout" 2>"$dir/stderr" </dev/null)
  t1=$(date +%s.%N); callb=$(cpu_ticks all); n1=$(proc_cpu_ticks "$NGINX_PID")
  rm -rf "$dir/results"
  local wall user sys rss reqs errs
  read -r wall user sys rss < <(tail -1 "$dir/time")
  reqs=$(reqs_of "$tool" "$dir"); errs=$(errors_of "$tool" "$dir")
  awk -v r="${reqs:-0}" -v u="$user" -v s="$sys" -v a0="$call" -v a1="$callb" -v n="$((n1 - n0))" \
      -v hz="$(getconf CLK_TCK)" -v w0="$t0" -v w1="$t1" -v l="$load1" -v e="${errs:-NA}" 'BEGIN {
    split(a0, A0, " "); split(a1, A1, " "); w = w1 - w0
    other = (A1[1] - A0[1]) / hz - n / hz - (u + s); if (other < 0) other = 0
    printf "%d %.3f %.0f %s %.0f %s %.0f\n", r, u + s, 100 * other / w, l, r / w, e, 100 * (n / hz) / w }'
}

main() {
  command -v jq >/dev/null || die "needs jq"
  [ -x "$TOOLS/bin/oha" ] || [ -x "$TOOLS/oha/bin/oha" ] || die "no oha in $TOOLS (bench/run.sh installs it)"
  [ -x "$TOOLS/bin/oha" ] || { mkdir -p "$TOOLS/bin" && ln -sf "$TOOLS/oha/bin/oha" "$TOOLS/bin/oha"; }
  mkdir -p "$OUT"
  (cd "$REPO" && go build -o "$OUT/loadlens" ./cmd/loadlens) || die "go build failed"
  ulimit -Sn "$NOFILE" 2>/dev/null
  https_target_start
  trap 'target_stop' EXIT
  printf 'rep\ttool\treqs\tcpu_s\treq_per_cpu_s\tother_cpu_pct\tload1\trps\terrors\tnginx_cpu_pct\tredone\n' >"$RAW"
  local rep tool line redo
  for rep in $(seq "$REPS"); do
    for tool in lean net-http oha; do
      line=$(run_one "$tool" "$rep" "$OUT/runs/$tool/r$rep"); redo=""
      read -r reqs cpu other load1 rps errs ncpu <<<"$line"
      if [ "$other" -gt "$DISTURBED" ]; then
        log "$tool r$rep disturbed (others used $other % of a core): running it again"
        local again; again=$(run_one "$tool" "$rep" "$OUT/runs/$tool/r$rep.again")
        redo="redone (first try: others $other %)"
        if [ "$(cut -d' ' -f3 <<<"$again")" -lt "$other" ]; then
          line=$again; read -r reqs cpu other load1 rps errs ncpu <<<"$line"
        fi
      fi
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$rep" "$tool" "$reqs" "$cpu" \
        "$(awk -v r="$reqs" -v c="$cpu" 'BEGIN{printf "%.0f", r / c}')" "$other" "$load1" "$rps" "$errs" "$ncpu" "$redo" >>"$RAW"
      log "$(printf 'r%s %-8s reqs=%s cpu=%ss req/cpu-s=%s others=%s%% load1=%s errors=%s nginx=%s%% %s' "$rep" "$tool" \
        "$reqs" "$cpu" "$(awk -v r="$reqs" -v c="$cpu" 'BEGIN{printf "%.0f", r / c}')" "$other" "$load1" "$errs" "$ncpu" "$redo")"
      sleep 2
    done
  done
  report
}

# report prints the table: per tool the median (min–max) of requests per CPU-second and of
# requests/s, and lean's ratio to each other tool paired by repetition.
report() {
  awk -F'\t' 'NR > 1 { v[$2, $1] = $5; r[$2, $1] = $8; n[$2]++; reps[$1] = 1; if ($11 != "") note = note sprintf("- %s r%s %s\n", $2, $1, $11) }
  function stat(a, k,    i, j, t, s, c) { c = 0; for (i in a) { split(i, s, SUBSEP); if (s[1] == k) x[++c] = a[i] }
    for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
    return sprintf("%s (%s–%s)", (c % 2 ? x[(c + 1) / 2] : (x[c / 2] + x[c / 2 + 1]) / 2), x[1], x[c]) }
  function ratio(other,    i, c, t, j) { c = 0; for (i in reps) if ((other, i) in v && ("lean", i) in v) y[++c] = v["lean", i] / v[other, i]
    for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (y[j] < y[i]) { t = y[i]; y[i] = y[j]; y[j] = t }
    return sprintf("%.2f× (%.2f–%.2f)", (c % 2 ? y[(c + 1) / 2] : (y[c / 2] + y[c / 2 + 1]) / 2), y[1], y[c]) }
  END {
    print "| generator | requests per CPU-s | requests/s | lean ÷ it, paired by repetition |"
    print "| --- | --- | --- | --- |"
    split("lean net-http oha", T, " ")
    for (k = 1; k <= 3; k++) { delete x; a = stat(v, T[k]); delete x; b = stat(r, T[k]); delete y
      printf "| %s | %s | %s | %s |\n", T[k], a, b, (T[k] == "lean" ? "" : ratio(T[k])) }
    if (note != "") printf "\n%s", note
  }' "$RAW"
}

if [ "${REPORT_ONLY:-0}" = 1 ]; then report; else main; fi
