# shellcheck shell=bash
# Writes bench/RESULTS.md from $OUT/raw.tsv: medians with min–max over the rounds, and
# ratios to loadlens measured in the same run. Sourced by bench/run.sh.

declare -A S          # "meas/tool/key" -> "median min max rounds"

# load_stats aggregates raw.tsv into $OUT/stats.tsv and S, and every run's figures (derived
# ones and paired ratios too) into $OUT/runs.tsv, from which met_rounds counts rounds.
load_stats() {
  rm -f "$OUT/runs.tsv"
  awk -v open_dur="$OPEN_DUR" -v idle_vus="$IDLE_VUS" -v idle_dur="$IDLE_DUR" -v collapse_dur="$COLLAPSE_DUR" \
    -v many_vus="$MANY_VUS" -v many5k_vus="$MANY5K_VUS" -v many_dur="$MANY_DUR" -v many_think="$MANY_THINK" \
    -v open40k_dur="$OPEN40K_DUR" -v runs_out="$OUT/runs.tsv" \
    -f "$BENCH/lib/stats.awk" "$RAW" | sort >"$OUT/stats.tsv"
  touch "$OUT/runs.tsv"
  local m t k med mn mx c
  while IFS=$'\t' read -r m t k med mn mx c; do S[$m/$t/$k]="$med $mn $mx $c"; done <"$OUT/stats.tsv"
}

# group inserts thousands separators into an integer.
group() { sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta' <<<"$1"; }

# num X DIGITS formats one number (grouped when DIGITS is 0).
num() {
  local x
  x=$(LC_ALL=C printf "%.${2}f" "$1")
  if [ "$2" = 0 ]; then group "$x"; else echo "$x"; fi
}

# med MEAS TOOL KEY prints the median, or nothing.
med() { local s=${S[$1/$2/$3]:-}; [ -n "$s" ] && echo "${s%% *}"; }

# cell MEAS TOOL KEY DIGITS prints "median (min–max)", or "n/a".
cell() {
  local s=${S[$1/$2/$3]:-}
  [ -z "$s" ] && { echo "n/a"; return; }
  local a; read -r -a a <<<"$s"
  if [ "${a[3]}" -gt 1 ]; then
    echo "$(num "${a[0]}" "$4") ($(num "${a[1]}" "$4")–$(num "${a[2]}" "$4"))"
  else
    num "${a[0]}" "$4"
  fi
}

# rcell MEAS TOOL KEY prints a ratio paired by round, "0.62× (0.58–0.70)", or "n/a".
rcell() {
  local s=${S[$1/$2/$3]:-}
  [ -z "$s" ] && { echo "n/a"; return; }
  local a; read -r -a a <<<"$s"
  if [ "${a[3]}" -gt 1 ]; then
    echo "$(num "${a[0]}" 2)× ($(num "${a[1]}" 2)–$(num "${a[2]}" 2))"
  else
    echo "$(num "${a[0]}" 2)×"
  fi
}

# ratio MEAS TOOL KEY prints the tool's median divided by loadlens's, as "0.62×".
ratio() {
  local a b
  a=$(med "$1" "$2" "$3"); b=$(med "$1" loadlens "$3")
  if [ -z "$a" ] || [ -z "$b" ]; then echo "n/a"; return; fi
  awk -v a="$a" -v b="$b" 'BEGIN { if (b == 0) print "n/a"; else printf "%.2f×\n", a / b }'
}

# tool_label TOOL prints the row name of a tool.
tool_label() {
  case $1 in
  loadlens) echo "**loadlens**" ;;
  loadlens-off) echo "loadlens, bookkeeping off" ;;
  loadlens-*k) echo "loadlens $(group "$(( ${1//[^0-9]/} * 1000 ))")/s, default pool" ;;
  loadlens-*k-cap) echo "loadlens $(group "$(( ${1//[^0-9]/} * 1000 ))")/s, --max-vus $COLLAPSE_CAP" ;;
  loadlens-base) echo "loadlens @${LOADLENS_BASELINE:-} (baseline)" ;;
  *) echo "$1" ;;
  esac
}

# skip_reason MEAS TOOL prints why a tool has no row in MEAS (or nothing when it ran).
skip_reason() {
  if [[ $2 != loadlens* ]] && ! tool_ok "$2"; then
    grep "^$2	" "$TOOLS/status.tsv" | cut -f3 | sed 's/^/not installed: /'; return
  fi
  tool_cmd "$1" "$2" /nonexistent
  [ -n "$UNSUPPORTED" ] && { echo "$UNSUPPORTED"; return; }
  [ -z "${S[$1/$2/reqs]:-}" ] && echo "no result (see Notes)"
}

# row MEAS TOOL NCOLS CELLS... prints a table row, or a row with the reason it is empty.
row() {
  local meas=$1 tool=$2 ncols=$3; shift 3
  local why line c
  why=$(skip_reason "$meas" "$tool")
  line="| $(tool_label "$tool") |"
  if [ -n "$why" ]; then
    line+=" $why |"
    for c in $(seq 2 "$ncols"); do line+=" |"; done
  else
    for c in "$@"; do line+=" $c |"; done
  fi
  echo "$line"
}

# machine_section describes the machine.
machine_section() {
  local model mem os
  model=$(awk -F': ' '/^model name/{print $2; exit}' /proc/cpuinfo)
  mem=$(awk '/^MemTotal/{printf "%.1f GiB", $2/1048576}' /proc/meminfo)
  os=$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")
  cat <<EOF
## Machine

| | |
| --- | --- |
| cores | $(nproc) (target nginx on CPU $TARGET_CPU, generator on CPU $GEN_CPU) |
| CPU | ${model:-unknown} |
| memory | $mem |
| kernel | $(uname -r) |
| OS | ${os:-unknown} |
| Go / Rust | $(go version 2>/dev/null | awk '{print $3}') / $(rustc --version 2>/dev/null | awk '{print $2}') |
| open files limit | $NOFILE |
| load average before the run | $LOADAVG_START |
| load before each run | $(load_summary) |
EOF
}

# load_summary prints the range of the load sampled before each run (bench/lib/target.sh).
load_summary() {
  awk -F'\t' '$4=="load1_before" { l[++n] = $5 } $4=="busy_target_core_before_pct" { a[++na] = $5 }
    $4=="busy_gen_core_before_pct" { b[++nb] = $5 }
    function lo(x, c,   i, m) { m = x[1]; for (i = 2; i <= c; i++) if (x[i] + 0 < m + 0) m = x[i]; return m }
    function hi(x, c,   i, m) { m = x[1]; for (i = 2; i <= c; i++) if (x[i] + 0 > m + 0) m = x[i]; return m }
    END { if (n) printf "load average %s–%s; in the 1 s before each run the target core was %s–%s %% busy, the generator core %s–%s %% (run by run: the last section)", lo(l, n), hi(l, n), lo(a, na), hi(a, na), lo(b, nb), hi(b, nb); else printf "not sampled" }' "$RAW"
}

# tools_section lists each tool's version and how it got here.
tools_section() {
  echo "## Tools"
  echo
  echo "| tool | version | installed by | status |"
  echo "| --- | --- | --- | --- |"
  local t
  local extra=(); [ -n "${LOADLENS_BASE:-}" ] && extra=(loadlens-base)
  for t in nginx "${PEERS[@]}" loadlens "${extra[@]}"; do
    local ver how state
    ver=$(awk -F'\t' -v t="$t" '$1==t{print $2}' "$OUT/versions.tsv")
    how=$(awk -F'\t' -v t="$t" '$1==t{print $3}' "$TOOLS/status.tsv")
    state=$(awk -F'\t' -v t="$t" '$1==t{print $2}' "$TOOLS/status.tsv")
    case $t in
    nginx) how="Debian package nginx-light (the target)"; state=ok ;;
    loadlens) how="go build ./cmd/loadlens (this working tree)"; state=ok
      [ -n "${LOADLENS_REF:-}" ] && how="go build ./cmd/loadlens at $LOADLENS_REF (git archive)" ;;
    loadlens-base) how="go build ./cmd/loadlens at $LOADLENS_BASELINE (git archive)"; state=ok ;;
    esac
    [ "$state" = skipped ] && { state="skipped: $how"; how="—"; }
    echo "| $t | ${ver:-—} | ${how:-—} | ${state:-—} |"
  done
}

# closed_section: the closed model.
closed_section() {
  cat <<EOF
## 1. Closed model: $CLOSED_VUS connections/VUs, ${CLOSED_DUR} s

Requests/s as each tool reports it; requests per generator CPU-second = requests completed
÷ (user + sys) of the generator's whole process tree; CPU µs per request = (user + sys) ÷
requests, and user µs the user-space part (issue 11's target: ≤ 2). "÷ loadlens" is paired
by round: the tool's requests per CPU-second ÷ loadlens's in the same round, then the median
(min–max) of those ratios (above 1: the tool is leaner). "target core busy" is how busy
nginx's core was, softirqs included (near 100 %: nginx set the pace); "other CPU" is the task
time of anything but the generator and nginx during the run (a disturbance: see Notes).
loadlens serves its dashboard${DASH_NOTE}.

| tool | requests/s | requests per CPU-s | ÷ loadlens (paired) | CPU µs per request | user µs per request | peak RSS MiB | errors | target core busy % | other CPU % |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
EOF
  local t
  for t in "${PEERS[@]}" loadlens "${BASE_ROW[@]}"; do
    row closed "$t" 10 "$(cell closed "$t" rps 0)" "$(cell closed "$t" req_per_cpu_s 0)" \
      "$(pcell closed "$t" pr_req_per_cpu_s)" "$(cell closed "$t" cpu_us_per_req 2)" \
      "$(cell closed "$t" user_us_per_req 2)" "$(cell closed "$t" rss_mib 1)" \
      "$(cell closed "$t" errors 0)" "$(cell closed "$t" target_core_busy_pct 0)" "$(cell closed "$t" other_cpu_pct 0)"
  done
}

# pcell MEAS TOOL KEY is rcell, and "1.00×" on loadlens's own row.
pcell() {
  if [ "$2" = loadlens ]; then echo "1.00×"; else rcell "$@"; fi
}

# open_section: the open model at 5,000/s and the start-up test.
open_section() {
  cat <<EOF

## 2. Open model: a fixed $(group "$OPEN_RATE") requests/s for ${OPEN_DUR} s

Achieved rate = requests completed ÷ ${OPEN_DUR} s; generator CPU in µs per request =
(user + sys, start-up included) ÷ requests; p50/p99/p99.9 as each tool reports them (oha
times from the actual send, k6 and loadlens's open model from the scheduled start; loadlens's
p99.9 is read from its run.db). Ratios paired by round, the tool's ÷ loadlens's (below 1:
the tool is leaner or faster). oha runs with \`-c $CLOSED_VUS -q $OPEN_RATE\`.
loadlens runs as issue 11 sets its target: it serves its dashboard${DASH_NOTE}$(
  [ -n "${METRICS_URL:-}" ] && echo ", and \`observe:\` scrapes node_exporter (on the target's core) every second (\`bench/loadlens/open.yaml\`)")
— work the peers do not do.

| tool | achieved req/s | CPU µs per request | ÷ loadlens (paired) | p50 ms | p99 ms | p99.9 ms | p99 ÷ loadlens (paired) | dropped | errors | peak RSS MiB | other CPU % |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
EOF
  local t
  for t in "${PEERS[@]}" loadlens "${BASE_ROW[@]}"; do
    row open "$t" 12 "$(cell open "$t" rate 0)" "$(cell open "$t" cpu_us_per_req 2)" \
      "$(pcell open "$t" pr_cpu_us_per_req)" \
      "$(cell open "$t" p50_ms 2)" "$(cell open "$t" p99_ms 2)" "$(cell open "$t" p999_ms 2)" \
      "$(pcell open "$t" pr_p99_ms)" "$(cell open "$t" dropped 0)" \
      "$(cell open "$t" errors 0)" "$(cell open "$t" rss_mib 1)" "$(cell open "$t" other_cpu_pct 0)"
  done
  cat <<EOF

**Start-up test.** loadlens's per-second p99 (from run.db) of second 0 against seconds 1–9 of
the same runs: second 0 should look like the others (issue 11 §1).

The last two columns are loadlens's own stall (\`loadlens_sched_latency_p99_s\`: how long its
goroutines waited runnable for a CPU, p99 of each second), in builds that record it.

| | second 0 p99 ms | seconds 1–9: median of the per-second p99 ms | seconds 1–9: worst per-second p99 ms | own stall p99, second 0 ms | own stall p99, worst second ms |
| --- | --- | --- | --- | --- | --- |
EOF
  for t in loadlens "${BASE_ROW[@]}"; do
    echo "| $(tool_label "$t") | $(cell open "$t" s0_p99_ms 2) | $(cell open "$t" s1_9_p99_med_ms 2) | $(cell open "$t" s1_9_p99_max_ms 2) | $(cell open "$t" stall_s0_p99_ms 2) | $(cell open "$t" stall_p99_max_ms 2) |"
  done
}

# https_section: the closed model over TLS, beside http.
https_section() {
  cat <<EOF

## 3. https: the closed model of measurement 1 over TLS

The same nginx answers over TLS (a self-signed P-256 certificate; each tool told not to
verify it): wrk, oha (\`--insecure\`), k6 (\`K6_INSECURE_SKIP_TLS_VERIFY\`) and loadlens
(\`--insecure\`), interleaved in the same rounds as the http runs. "÷ loadlens" is paired by
round (above 1: the tool is leaner); "÷ its own http" is the tool's https requests per
CPU-second ÷ its http ones of the same round.

| tool | requests/s | requests per CPU-s | ÷ loadlens (paired) | ÷ its own http (paired) | CPU µs per request | errors | target core busy % | other CPU % |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
EOF
  local t
  for t in "${PEERS[@]}" loadlens; do
    row https "$t" 9 "$(cell https "$t" rps 0)" "$(cell https "$t" req_per_cpu_s 0)" \
      "$(pcell https "$t" pr_req_per_cpu_s)" "$(rcell https "$t" vs_http)" \
      "$(cell https "$t" cpu_us_per_req 2)" "$(cell https "$t" errors 0)" "$(cell https "$t" target_core_busy_pct 0)" \
      "$(cell https "$t" other_cpu_pct 0)"
  done
}

# mem_meas prints the measurement the memory table reads: many (issue 22's 30 s run, whose
# peak RSS is the same 10,000 thinking VUs') when it ran, else idle.
mem_meas() {
  if in_only many && [ -n "${S[many/loadlens/rss_kib]:-}" ]; then echo many; else echo idle; fi
}

# idle_section: memory per VU beside the peers (from the idle runs, or from measurement 8's).
idle_section() {
  local mm vus dur from=""
  mm=$(mem_meas); vus=$IDLE_VUS; dur=$IDLE_DUR
  if [ "$mm" = many ]; then
    vus=$MANY_VUS; dur=$MANY_DUR
    from=" These are measurement 8's runs (the latency of the same runs is there)."
  fi
  cat <<EOF

## 4. Memory: $(group "$vus") VUs, each waiting 1 s between requests, ${dur} s

Peak RSS (the largest process of the generator) ÷ $(group "$vus"). The load is about
$(group "$vus") requests/s in all. wrk's connections wait with a Lua \`delay()\` of 1 s
(bench/wrk/think.lua); oha \`-c $vus -q $vus\`; k6 and loadlens a 1 s sleep/think
after each request. Ratio paired by round, the tool's ÷ loadlens's.$from

| tool | peak RSS MiB | KiB per VU | ÷ loadlens (paired) | achieved req/s | errors | CPU s | other CPU % |
| --- | --- | --- | --- | --- | --- | --- | --- |
EOF
  local t
  for t in "${PEERS[@]}" loadlens "${BASE_ROW[@]}"; do
    row "$mm" "$t" 8 "$(cell "$mm" "$t" rss_mib 1)" "$(cell "$mm" "$t" rss_per_vu_kib 1)" \
      "$(pcell "$mm" "$t" pr_rss_per_vu_kib)" "$(cell "$mm" "$t" rate 0)" \
      "$(cell "$mm" "$t" errors 0)" "$(cell "$mm" "$t" cpu_s 2)" "$(cell "$mm" "$t" other_cpu_pct 0)"
  done
}

# rounds_note MEAS says how many rounds a run-once measurement had.
rounds_note() {
  local n
  n=$(awk -F'\t' -v m="$1" '$1==m { r[$3] = 1 } END { for (k in r) c++; print c + 0 }' "$RAW")
  if [ "$n" = 1 ]; then echo "One round (not interleaved with the peers)."
  else echo "$n rounds, after the interleaved ones; cells are the median (min–max)."; fi
}

# scale_section: loadlens's idle VUs at 1,000 to 100,000.
scale_section() {
  cat <<EOF

## 5. Scale: loadlens's idle VUs

\`bench/loadlens/scale.yaml\`: N VUs, each thinking 60 s before its first request, held for
${SCALE_DUR} s, so every VU exists and is idle for the whole run (the closed model may connect
its first VUs before the clock starts, so some hold a socket). loadlens refuses more VUs than
its open-files limit has sockets for ($NOFILE here), so above $(group "$SCALE_PER_PROC") VUs the
test runs as segments of one test (\`--segment\`) in as many processes at once, and their peak
RSS is summed, each process's base RSS included (more than one process would need).
Marginal = the growth from the previous row ÷ the VUs added. Issue 11's target: 100,000 idle
VUs in < 3 GiB. $(rounds_note scale)

| VUs | processes | VUs reached | peak RSS MiB (sum) | KiB per VU | marginal KiB per VU | errors | CPU s |
| --- | --- | --- | --- | --- | --- | --- | --- |
EOF
  local v prev_v="" prev_m="" m marg procs
  for v in $SCALE_VUS; do
    m=$(med scale "loadlens-$v" rss_total_mib)
    marg="—"
    if [ -n "$m" ] && [ -n "$prev_m" ]; then
      marg=$(awk -v a="$m" -v b="$prev_m" -v x="$v" -v y="$prev_v" 'BEGIN { printf "%.1f", (a - b) * 1024 / (x - y) }')
    fi
    procs=$(med scale "loadlens-$v" processes); [ -z "$procs" ] && procs=1
    echo "| $(group "$v") | $procs | $(cell scale "loadlens-$v" vus_max 0) | $(cell scale "loadlens-$v" rss_total_mib 1) | $(cell scale "loadlens-$v" rss_per_vu_kib 1) | $marg | $(cell scale "loadlens-$v" errors 0) | $(cell scale "loadlens-$v" cpu_s 2) |"
    prev_v=$v; prev_m=$m
  done
}

# collapse_section: the open model beyond one core.
collapse_section() {
  cat <<EOF

## 6. Collapse: an open model beyond one core's capacity, ${COLLAPSE_DUR} s planned

loadlens alone on the generator core, \`--rate\` $(printf '%s/s, ' "${COLLAPSE_RATES[@]}" | sed 's/, $//'),
with the default VU pool and with \`--max-vus $COLLAPSE_CAP\` (issue 11 §2: the default must
degrade as the capped pool does, report what could not start as dropped, and overshoot its
plan by at most the graceful stop, 5 s here). Achieved = requests completed ÷ the run's length
(${COLLAPSE_DUR} s, or longer when it overshot);
failed % of the requests sent; overshoot = the run's length as loadlens reports it −
${COLLAPSE_DUR} s (the graceful stop included), and the process's wall time − ${COLLAPSE_DUR} s (its
start-up and the writing of its report as well); VUs = the largest pool. What loadlens said
(its notices and findings) is in \`bench/data/said.tsv\`. $(rounds_note collapse)

| run | achieved req/s | dropped | failed % | overshoot s | wall − plan s | peak RSS MiB | VUs | p99 ms | CPU s |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
EOF
  local r t
  for r in "${COLLAPSE_RATES[@]}"; do
    for t in "loadlens-$((r / 1000))k" "loadlens-$((r / 1000))k-cap"; do
      echo "| $(tool_label "$t") | $(cell collapse "$t" rate 0) | $(cell collapse "$t" dropped 0) | $(cell collapse "$t" failed_pct 1) | $(cell collapse "$t" overshoot_s 1) | $(cell collapse "$t" wall_over_s 1) | $(cell collapse "$t" rss_mib 1) | $(cell collapse "$t" vus_max 0) | $(cell collapse "$t" p99_ms 2) | $(cell collapse "$t" cpu_s 2) |"
    done
  done
}

# bookkeeping_section: loadlens's bookkeeping on versus off.
bookkeeping_section() {
  cat <<EOF

## 7. loadlens bookkeeping: on versus off

The closed-model run of measurement 1 with loadlens's defaults (${LOADLENS_ON_DESC}) against
the same run with them off, interleaved in the same rounds. Paired by round: on ÷ off.

EOF
  if ! in_only closed; then
    echo "Not measured: this run left out the closed model (ONLY=$ONLY)."
    return
  fi
  if [ ${#LOADLENS_OFF_FLAGS[@]} -eq 0 ]; then
    echo "Not measured: \`loadlens run -h\` lists no \`--no-metrics\` flag in this build."
    return
  fi
  echo "Off is \`${LOADLENS_OFF_FLAGS[*]}\` (requests counted only)."
  echo
  echo "| loadlens | requests | requests per CPU-s | peak RSS MiB |"
  echo "| --- | --- | --- | --- |"
  local t
  for t in loadlens loadlens-off; do
    echo "| $(tool_label $t) | $(cell closed $t reqs 0) | $(cell closed $t req_per_cpu_s 0) | $(cell closed $t rss_mib 1) |"
  done
  echo
  echo "| on ÷ off, paired by round | median (min–max) | bookkeeping's cost (median) |"
  echo "| --- | --- | --- |"
  local k label m
  for k in bk_reqs bk_cpu; do
    label="requests in ${CLOSED_DUR} s (throughput)"; [ $k = bk_cpu ] && label="requests per CPU-second"
    m=$(med closed loadlens-off $k)
    echo "| $label | $(rcell closed loadlens-off $k) | $([ -n "$m" ] && awk -v m="$m" 'BEGIN { printf "%.1f %%", 100 * (1 - m) }') |"
  done
}

# verdict LABEL TARGET MEASURED EXPR VAR=VALUE... prints one row of issue 11's targets: the
# target, what was measured, and "yes" or "**no**" from an awk expression over the values.
verdict() {
  local label=$1 target=$2 measured=$3 expr=$4; shift 4
  local args=() kv
  for kv in "$@"; do
    [ -n "${kv#*=}" ] || { echo "| $label | $target | not measured | — |"; return; }
    args+=(-v "$kv")
  done
  echo "| $label | $target | $measured | $(awk "${args[@]}" 'BEGIN { print (('"$expr"') ? "yes" : "**no**") }') |"
}

# targets_section checks loadlens's medians against issue 11's targets.
targets_section() {
  local dropped
  dropped=$(awk -F'\t' '$1=="open" && $2=="loadlens" && $4=="dropped" { n += ($5=="NA" ? 1 : $5); any = 1 }
    END { if (any) print n + 0 }' "$RAW")
  cat <<EOF

## Against issue 11's targets

Medians from this run (paired ratios where two tools are compared).

| | target | measured | met |
| --- | --- | --- | --- |
EOF
  verdict "closed: requests per CPU-s" "≥ wrk's" "wrk ÷ loadlens $(rcell closed wrk pr_req_per_cpu_s)" 'r <= 1' \
    "r=$(med closed wrk pr_req_per_cpu_s)"
  verdict "closed: user µs per request" "≤ 2" "$(cell closed loadlens user_us_per_req 2)" 'u <= 2' \
    "u=$(med closed loadlens user_us_per_req)"
  verdict "open 5,000/s: whole-run p99" "≤ 1 ms" "$(cell open loadlens p99_ms 2) ms" 'p <= 1' "p=$(med open loadlens p99_ms)"
  verdict "open 5,000/s: whole-run p99.9" "≤ 5 ms" "$(cell open loadlens p999_ms 2) ms" 'p <= 5' "p=$(med open loadlens p999_ms)"
  verdict "open 5,000/s: CPU per request" "≤ oha's" "oha ÷ loadlens $(rcell open oha pr_cpu_us_per_req)" 'r >= 1' \
    "r=$(med open oha pr_cpu_us_per_req)"
  verdict "open 5,000/s: dropped" "0, every round" "$dropped in all" 'd == 0' "d=$dropped"
  verdict "start-up: second 0's p99" "like seconds 1–9 (≤ 2× their worst)" \
    "$(cell open loadlens s0_p99_ms 2) ms; worst of 1–9 $(cell open loadlens s1_9_p99_max_ms 2) ms" \
    'a <= 2 * b' "a=$(med open loadlens s0_p99_ms)" "b=$(med open loadlens s1_9_p99_max_ms)"
  verdict "https: requests per CPU-s" "≥ oha's" "oha ÷ loadlens $(rcell https oha pr_req_per_cpu_s)" 'r <= 1' \
    "r=$(med https oha pr_req_per_cpu_s)"
  # Both runs may drive nginx's core to its limit, which hides a cost in throughput: the
  # verdict is on requests per CPU-second, throughput shown beside it.
  verdict "bookkeeping" "≤ 3 % (of requests per CPU-s)" \
    "$(awk -v m="$(med closed loadlens-off bk_cpu)" -v t="$(med closed loadlens-off bk_reqs)" 'BEGIN { if (m != "") printf "%.1f %% of requests per CPU-s, %.1f %% of throughput", 100 * (1 - m), 100 * (1 - t) }')" \
    'm >= 0.97' "m=$(med closed loadlens-off bk_cpu)"
  verdict "100,000 idle VUs" "< 3 GiB" "$(cell scale loadlens-100000 rss_total_mib 0) MiB" 'm < 3072' \
    "m=$(med scale loadlens-100000 rss_total_mib)"
  local r t
  for r in "${COLLAPSE_RATES[@]}"; do
    t="loadlens-$((r / 1000))k"
    verdict "collapse $(group "$r")/s, default pool: overshoot" "≤ 5 s (the graceful stop)" "$(cell collapse "$t" overshoot_s 1) s" \
      'o <= 5' "o=$(med collapse "$t" overshoot_s)"
    verdict "collapse $(group "$r")/s, default pool: failed" "as with --max-vus $COLLAPSE_CAP (what cannot start is dropped)" \
      "$(cell collapse "$t" failed_pct 1) % vs $(cell collapse "$t-cap" failed_pct 1) %" 'f <= c + 1' \
      "f=$(med collapse "$t" failed_pct)" "c=$(med collapse "$t-cap" failed_pct)"
  done
}

# met_rounds MEAS TOOL "KEYS" EXPR prints "k of n": of the n rounds in which the run of TOOL in
# MEAS has every key of KEYS, the k whose figures pass the awk EXPR (over x["key"], one run's
# figures from $OUT/runs.tsv); "—" when no round has them.
met_rounds() {
  awk -F'\t' -v m="$1" -v t="$2" -v keys="$3" '
    $1 == m && $2 == t { all[$3, $4] = $5; rd[$3] = 1 }
    END {
      nk = split(keys, K, " ")
      for (r in rd) {
        split("", x)
        for (ck in all) { split(ck, q, SUBSEP); if (q[1] == r) x[q[2]] = all[ck] + 0 }
        full = 1; for (i = 1; i <= nk; i++) if (!(K[i] in x)) full = 0
        if (!full) continue
        n++; if ('"$4"') k++
      }
      if (n) printf "%d of %d\n", k, n; else print "—"
    }' "$OUT/runs.tsv"
}

# said_kinds MEAS TOOL ROUND lists the kinds of the findings loadlens's summary had in that run
# (its said.txt), or "none".
said_kinds() {
  local f="$OUT/runs/$1/$2/r$3/said.txt" k
  k=$(sed -n 's/^finding \([^:]*\):.*/\1/p' "$f" 2>/dev/null | sort | uniq -c | awk '{ printf "%s%s%s", (NR > 1 ? ", " : ""), $2, ($1 > 1 ? " ×" $1 : "") }')
  if [ -n "$k" ]; then echo "$k"; elif [ -f "$f" ]; then echo none; else echo "—"; fi
}

# rv MEAS TOOL ROUND KEY DIGITS prints one run's figure from $OUT/runs.tsv, or "—".
rv() {
  local x
  x=$(awk -F'\t' -v m="$1" -v t="$2" -v r="$3" -v k="$4" '$1 == m && $2 == t && $3 == r && $4 == k { print $5; exit }' "$OUT/runs.tsv")
  if [ -n "$x" ]; then num "$x" "$5"; else echo "—"; fi
}

# yesno MEAS TOOL ROUND KEY prints "**yes**" (KEY above 0, said in red ink), "no", or "—".
yesno() {
  local x; x=$(rv "$@" 0)
  case $x in —) echo "—" ;; 0) echo no ;; *) echo "**yes**" ;; esac
}

# many_section: issue 22's closed model with many VUs, beside the peers, and loadlens's start.
many_section() {
  cat <<EOF

## 8. Many VUs: $(group "$MANY_VUS") VUs, each a GET then 1 s of think, ${MANY_DUR} s (issue 22)

The closed model at $(group "$MANY_VUS") users with a think time Z = 1 s, so about
$(group "$MANY_VUS") requests/s in all against nginx's sub-millisecond answer. wrk's connections
wait with a Lua \`delay()\` of 1 s (bench/wrk/think.lua; wrk times from the send after it); k6
(\`k6/idle.js\`: \`sleep(1)\`) and loadlens (\`loadlens/many.yaml\`, \`--vus $MANY_VUS --duration ${MANY_DUR}s\`,
serving its dashboard${DASH_NOTE}) think 1 s after each request. **oha has no think time**: it runs
\`-c $MANY_VUS -q $MANY_VUS\`, the same rate over as many connections but paced as an open model,
so it has no N ÷ (R + Z) to keep. Achieved = requests completed ÷ ${MANY_DUR} s; "÷ N/(R+Z)" is
that rate ÷ N ÷ (R + Z), with R each tool's own mean response time (issue 22: within 2 %; wrk's
over ${MANY_DUR} − 1 s, as its delay also comes before each connection's first request). Each VU
makes whole iterations, so the ratio can read up to (R + Z) ÷ ${MANY_DUR} s high for a tool whose R is
large (k6's), never low for one on time: a ratio below 1 is a generator behind its schedule.
p50/p99 as each tool reports them over the whole run. Paired ratios: the tool's ÷ loadlens's
of the same round. The last row is loadlens alone at $(group "$MANY5K_VUS") VUs (issue 22: no drift
finding), interleaved in the same rounds.

| tool | requests/s as reported | achieved req/s | ÷ N/(R+Z) | mean ms | p50 ms | p99 ms | p99 ÷ loadlens (paired) | CPU s | CPU µs per request | errors | other CPU % |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
EOF
  local t r nrz
  if in_only many; then
    for t in "${PEERS[@]}" loadlens "${BASE_ROW[@]}"; do
      nrz=$(cell many "$t" rate_vs_nrz 3); [ "$t" = oha ] && nrz="— (a rate, not think)"
      row many "$t" 12 "$(cell many "$t" rps 0)" "$(cell many "$t" rate 0)" "$nrz" \
        "$(cell many "$t" mean_ms 2)" "$(cell many "$t" p50_ms 2)" "$(cell many "$t" p99_ms 2)" \
        "$(pcell many "$t" pr_p99_ms)" "$(cell many "$t" cpu_s 2)" "$(cell many "$t" cpu_us_per_req 2)" \
        "$(cell many "$t" errors 0)" "$(cell many "$t" other_cpu_pct 0)"
    done
  fi
  if in_only many5k; then
    for t in loadlens "${BASE_ROW[@]}"; do
      [ -n "${S[many5k/$t/reqs]:-}" ] || continue
      echo "| $(tool_label "$t"), $(group "$MANY5K_VUS") VUs | $(cell many5k "$t" rps 0) | $(cell many5k "$t" rate 0) | $(cell many5k "$t" rate_vs_nrz 3) | $(cell many5k "$t" mean_ms 2) | $(cell many5k "$t" p50_ms 2) | $(cell many5k "$t" p99_ms 2) | — | $(cell many5k "$t" cpu_s 2) | $(cell many5k "$t" cpu_us_per_req 2) | $(cell many5k "$t" errors 0) | $(cell many5k "$t" other_cpu_pct 0) |"
    done
  fi
  cat <<EOF

**loadlens round by round.** A $(group "$MANY_VUS")-VU start on this host either keeps up or falls
behind in seconds 0–1 (docs/generator.md, *10,000 VUs on a quiet host*), and those seconds alone
can set the whole run's p99: so each run's whole-run p99 is shown beside its per-second p99
(\`loadlens export <run> --format csv\`, the endpoint rows' \`duration_p99_ms\`, kept as each run's
\`persec.csv\` and in \`bench/data/persec.tsv\`): the worst of seconds 0–1, and the median and worst
of seconds 2 to the end. "steady ÷ N/(R+Z)" is the mean requests a second over seconds 2 to the
one before the last ÷ N ÷ (R + Z). "own stall" is \`loadlens_sched_latency_p99_s\` (how long its
goroutines waited for a CPU) in second 0 and its worst second. "generator named": a
\`generator-bound\` or \`generator-host-busy\` finding, or a finding, notice or warning that
mentions the generator or "loadlens itself" (what each run said: \`said.txt\` in its run
directory and \`bench/data/said.tsv\`).

| VUs | round | p99 ms (whole run) | seconds 0–1: worst per-second p99 ms | seconds 2–end: median per-second p99 ms | seconds 2–end: worst ms | own stall p99, second 0 / worst ms | ÷ N/(R+Z) | steady ÷ N/(R+Z) | generator named | drift finding | findings |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
EOF
  local m vus rounds
  for m in many many5k; do
    in_only "$m" || continue
    vus=$MANY_VUS; [ "$m" = many5k ] && vus=$MANY5K_VUS
    for t in loadlens "${BASE_ROW[@]}"; do
      rounds=$(awk -F'\t' -v m="$m" -v t="$t" '$1 == m && $2 == t && $4 == "reqs" { print $3 }' "$OUT/runs.tsv" | sort -n)
      for r in $rounds; do
        local who=""; [ "$t" != loadlens ] && who=" ($(tool_label "$t"))"
        echo "| $(group "$vus")$who | $r | $(rv "$m" "$t" "$r" p99_ms 2) | $(rv "$m" "$t" "$r" s01_p99_ms 2) | $(rv "$m" "$t" "$r" s2e_p99_med_ms 2) | $(rv "$m" "$t" "$r" s2e_p99_max_ms 2) | $(rv "$m" "$t" "$r" stall_s0_p99_ms 1) / $(rv "$m" "$t" "$r" stall_p99_max_ms 1) | $(rv "$m" "$t" "$r" rate_vs_nrz 3) | $(rv "$m" "$t" "$r" steady_vs_nrz 3) | $(yesno "$m" "$t" "$r" gen_named) | $(yesno "$m" "$t" "$r" drift) | $(said_kinds "$m" "$t" "$r") |"
      done
    done
  done
  if in_only many; then
    echo
    echo "At $(group "$MANY_VUS") VUs the whole-run p99 was ≤ 2 ms in $(met_rounds many loadlens p99_ms 'x["p99_ms"] <= 2') rounds, and seconds 0–1's worst per-second p99 above 10 ms in $(met_rounds many loadlens s01_p99_ms 'x["s01_p99_ms"] > 10') (a start that fell behind)."
  fi
}

# open40k_section: issue 22's open model near one core's capacity.
open40k_section() {
  local corr="without \`--latency-correction\` (this oha has none), so from the send"
  [ ${#OHA_LATCORR[@]} -gt 0 ] && corr="with \`--latency-correction\`, so from each request's scheduled start as loadlens's"
  cat <<EOF

## 9. Open model near one core: a fixed $(group "$OPEN40K_RATE") requests/s for ${OPEN40K_DUR} s (issue 22)

loadlens \`run URL --rate $OPEN40K_RATE --duration ${OPEN40K_DUR}s\` (its default VU pool, serving its
dashboard${DASH_NOTE}), on the generator's one core, interleaved in each round; issue 22's
target: 0 dropped and p99 ≤ 1 ms, latency timed from the intended start. Beside it oha
\`-c $OPEN40K_CONNS -q $OPEN40K_RATE\`, timed $corr: a fair peer for the rate and CPU,
but it never drops (a send it cannot make in time waits for a connection), so its "dropped" is
always 0 and its lateness shows in the p99 only when it corrects for it. wrk has no open model;
k6 makes about 12,000 requests per CPU-second, so 40,000/s is past its core. Achieved = requests
completed ÷ ${OPEN40K_DUR} s; loadlens's per-second p99 as in measurement 8.

| tool | achieved req/s | dropped | p50 ms | p99 ms | p99 ÷ loadlens (paired) | seconds 0–1: worst per-second p99 ms | seconds 2–end: worst ms | CPU s | CPU µs per request | ÷ loadlens (paired) | errors | generator named (rounds) | other CPU % |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
EOF
  local t named
  for t in "${PEERS[@]}" loadlens "${BASE_ROW[@]}"; do
    named="—"; [[ $t == loadlens* ]] && named=$(met_rounds open40k "$t" gen_named 'x["gen_named"] > 0')
    row open40k "$t" 14 "$(cell open40k "$t" rate 0)" "$(cell open40k "$t" dropped 0)" \
      "$(cell open40k "$t" p50_ms 2)" "$(cell open40k "$t" p99_ms 2)" "$(pcell open40k "$t" pr_p99_ms)" \
      "$(cell open40k "$t" s01_p99_ms 2)" "$(cell open40k "$t" s2e_p99_max_ms 2)" \
      "$(cell open40k "$t" cpu_s 2)" "$(cell open40k "$t" cpu_us_per_req 2)" "$(pcell open40k "$t" pr_cpu_us_per_req)" \
      "$(cell open40k "$t" errors 0)" "$named" "$(cell open40k "$t" other_cpu_pct 0)"
  done
}

# target22 LABEL TARGET MEASURED MEAS TOOL "KEYS" EXPR prints one row of issue 22's targets:
# what was measured (median (min–max)) and in how many rounds the target was met, in bold
# when not in all of them.
target22() {
  local label=$1 target=$2 measured=$3 met
  met=$(met_rounds "$4" "$5" "$6" "$7")
  case $met in
  —) echo "| $label | $target | not measured | — |"; return ;;
  "0 of "*) met="**none of ${met#0 of }**" ;;
  *) local k=${met%% of *} n=${met##* of }; [ "$k" != "$n" ] && met="**$met**" ;;
  esac
  echo "| $label | $target | $measured | $met |"
}

# targets22_section checks loadlens against issue 22's targets, round by round.
targets22_section() {
  local mm; mm=$(mem_meas)
  cat <<EOF

## Against issue 22's targets

Medians (min–max) over the rounds, and in how many rounds each target was met (paired ratios
where two tools are compared; a round counts when it measured the figure).

| | target | measured | met in |
| --- | --- | --- | --- |
EOF
  local v5; v5=$(group "$MANY_VUS")
  target22 "closed $v5 VUs, 1 s think: request p99 (whole run)" "≤ 2 ms" "$(cell many loadlens p99_ms 2) ms" \
    many loadlens p99_ms 'x["p99_ms"] <= 2'
  target22 "closed $v5 VUs: per-second p99, seconds 2–end (worst second)" "≤ 2 ms without seconds 0–1 (not issue 22's target: it tells the two kinds of start apart)" \
    "$(cell many loadlens s2e_p99_max_ms 2) ms; seconds 0–1: $(cell many loadlens s01_p99_ms 2) ms" \
    many loadlens s2e_p99_max_ms 'x["s2e_p99_max_ms"] <= 2'
  target22 "closed $v5 VUs: rate ÷ N/(R+Z)" "within 2 %" "$(cell many loadlens rate_vs_nrz 3)" \
    many loadlens rate_vs_nrz 'x["rate_vs_nrz"] >= 0.98 && x["rate_vs_nrz"] <= 1.02'
  target22 "closed $v5 VUs: findings about the generator" "none" \
    "named in $(met_rounds many loadlens gen_named 'x["gen_named"] > 0') rounds" many loadlens gen_named 'x["gen_named"] == 0'
  target22 "closed $(group "$MANY5K_VUS") VUs: drift finding" "none" \
    "fired in $(met_rounds many5k loadlens drift 'x["drift"] > 0') rounds; p99 $(cell many5k loadlens p99_ms 2) ms" \
    many5k loadlens drift 'x["drift"] == 0'
  target22 "open $(group "$OPEN40K_RATE")/s, one core: dropped" "0" "$(cell open40k loadlens dropped 0); achieved $(cell open40k loadlens rate 0) req/s" \
    open40k loadlens dropped 'x["dropped"] == 0'
  target22 "open $(group "$OPEN40K_RATE")/s: p99" "≤ 1 ms" "$(cell open40k loadlens p99_ms 2) ms" \
    open40k loadlens p99_ms 'x["p99_ms"] <= 1'
  target22 "closed 50: requests per CPU-s, http" "≥ 1.2× wrk's" "loadlens ÷ wrk $(rcell closed wrk llx_req_per_cpu_s)" \
    closed wrk llx_req_per_cpu_s 'x["llx_req_per_cpu_s"] >= 1.2'
  target22 "closed 50: requests per CPU-s, https" "≥ wrk's" "loadlens ÷ wrk $(rcell https wrk llx_req_per_cpu_s)" \
    https wrk llx_req_per_cpu_s 'x["llx_req_per_cpu_s"] >= 1'
  target22 "idle VUs: memory at $(group "$([ "$mm" = many ] && echo "$MANY_VUS" || echo "$IDLE_VUS")") VUs" "≤ 16 KiB per VU" \
    "$(cell "$mm" loadlens rss_per_vu_kib 1) KiB" "$mm" loadlens rss_per_vu_kib 'x["rss_per_vu_kib"] <= 16'
  echo "| interleaved rounds | ≥ 5, with the spread of every paired ratio | $ROUNDS | $([ "$ROUNDS" -ge 5 ] && echo yes || echo "**no**") |"
}

# load_section lists the load before and during every run.
load_section() {
  cat <<EOF

## Load on the machine, run by run

Before each run the script waits (up to ${QUIET_WAIT} s) for other work to use under a quarter of
a core, then records the 1-minute load average and a 1-second sample of how busy each core
was (softirq included; the target's core is CPU $TARGET_CPU, the generator's CPU $GEN_CPU). "other
CPU during" is what processes other than the generator and nginx used during the run; above
$DISTURBED % of a core the run is done again (at most twice), keeping the least disturbed try.

<details><summary>every run</summary>

| measurement | tool | round | load average before | target core busy before % | generator core busy before % | waited s | other CPU during % | tries | still disturbed |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
EOF
  awk -F'\t' '{ id = $1 "\t" $2 "\t" $3; if (!(id in seen)) { seen[id] = 1; ids[++n] = id } v[id, $4] = $5 }
    END { for (i = 1; i <= n; i++) { id = ids[i]; split(id, p, "\t")
      printf "| %s | %s | %s | %s | %s | %s | %s | %.0f | %d | %s |\n", p[1], p[2], p[3], v[id, "load1_before"],
        v[id, "busy_target_core_before_pct"], v[id, "busy_gen_core_before_pct"], v[id, "quiet_wait_s"],
        v[id, "other_cpu_pct"], 1 + v[id, "redone"], ((id, "disturbed") in v) ? "**yes**" : "no" } }' "$RAW"
  echo
  echo "</details>"
}

# grouped KEY TEST TEXT prints one note line per measurement listing the runs whose KEY
# passes the awk TEST on $5, as "tool rN (value)".
grouped() {
  awk -F'\t' -v key="$1" -v text="$3" '$4==key && '"$2"' {
    l[$1] = l[$1] (l[$1] ? ", " : "") sprintf("%s r%s (%.0f)", $2, $3, $5)
  } END { for (m in l) printf "- %s %s: %s\n", m, text, l[m] }' "$RAW" | sort
}

# notes_section lists parse failures, failed exits, errors and disturbed runs.
notes_section() {
  echo
  echo "## Notes"
  echo
  {
    [ -s "$OUT/parse-failures.tsv" ] &&
      awk -F'\t' '{ printf "- parse failure: %s, %s, round %s: %s\n", $1, $2, $3, $4 }' "$OUT/parse-failures.tsv"
    grouped disturbed '1' "runs disturbed and kept (other processes above $DISTURBED % of a core after every try allowed), **their numbers include other work** (% of a core others used in the try kept)"
    grouped redone '1' "runs done again because other processes used over $DISTURBED % of a core (extra tries)"
    grouped exit '$5!=0' "runs that exited non-zero (exit status; 124 and 137: killed by timeout)"
    grouped errors '$5!="NA" && $5>0' "runs with failed requests (count)"
    grouped other_cpu_pct '$5>10 && $5<='"$DISTURBED" "runs during which other processes used 10–$DISTURBED % of a core (% of a core)"
    grouped steal_pct '$5>5' "runs during which the hypervisor stole over 5 % of a core (%)"
    grouped quiet_wait_s '$5>='"$QUIET_WAIT" "runs started on a busy machine: other work did not stop within $QUIET_WAIT s (s waited)"
  } >"$OUT/notes.md"
  if [ -s "$OUT/notes.md" ]; then cat "$OUT/notes.md"
  else echo "- none: every run exited 0, parsed, had no failed requests and ran on a quiet machine."; fi
}

# analysis_section keeps the hand-written Analysis across regenerations.
analysis_section() {
  echo
  echo "## Analysis"
  echo
  local prev=""
  [ -f "$BENCH/RESULTS.md" ] && prev=$(awk '/^## Analysis$/{a=1; next} a && /^## /{exit} a' "$BENCH/RESULTS.md" | sed '/./,$!d')
  if [ -n "$prev" ] && ! grep -q '^_Placeholder' <<<"$prev"; then
    echo "$prev"
  else
    echo "_Placeholder: the reading of these numbers is written here by hand (kept when bench/run.sh regenerates this file)._"
  fi
}

# write_results writes bench/RESULTS.md.
write_results() {
  load_stats
  BASE_ROW=(); [ -n "$LOADLENS_BASE" ] && BASE_ROW=(loadlens-base)
  DASH_NOTE=" on a random port, with nothing reading it"
  if [ ${#DASH_FLAGS[@]} -gt 0 ]; then
    DASH_NOTE=" with nothing reading it"
    [ "$DASH_CLIENT" = 1 ] && DASH_NOTE=", its event stream read by a client (as an open tab)"
  fi
  local tmp="$BENCH/RESULTS.md.new"
  {
    echo "# Peer benchmark results"
    echo
    echo "Generated by \`bench/run.sh\` on $RUN_DATE; the run took $RUNTIME."
    echo "$ROUNDS rounds, the generators interleaved in each (${ORDER[*]}); then the collapse and"
    echo "scale tests (loadlens alone). Every cell is the median (min–max) over the rounds; every ratio"
    echo "between two tools is paired by round (the two figures of the same round divided, then the"
    echo "median and min–max of those ratios). Generator CPU is CPU-seconds per request. The load on"
    echo "the machine before each run is recorded (last section), and a run that others disturbed is"
    echo "done again. Raw numbers: \`bench/data/raw.tsv\` (and \`bench/out/\`, with each run's output)."
    echo "Edit only the Analysis section: the rest is rewritten by \`bench/run.sh\`."
    echo
    machine_section
    echo
    tools_section
    echo
    if in_only closed; then closed_section; fi
    if in_only open; then open_section; fi
    if in_only https; then https_section; fi
    if in_only idle || in_only many; then idle_section; fi
    if in_only scale; then scale_section; fi
    if in_only collapse; then collapse_section; fi
    bookkeeping_section
    if in_only many || in_only many5k; then many_section; fi
    if in_only open40k; then open40k_section; fi
    targets_section
    targets22_section
    notes_section
    load_section
    analysis_section
  } >"$tmp"
  mv "$tmp" "$BENCH/RESULTS.md"
}
