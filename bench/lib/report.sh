# shellcheck shell=bash
# Writes bench/RESULTS.md from $OUT/raw.tsv: medians with min–max over the rounds, and
# ratios to loadlens measured in the same run. Sourced by bench/run.sh.

declare -A S          # "meas/tool/key" -> "median min max rounds"

# load_stats aggregates raw.tsv into $OUT/stats.tsv and S.
load_stats() {
  awk -v open_dur="$OPEN_DUR" -v idle_vus="$IDLE_VUS" -v idle_dur="$IDLE_DUR" \
    -f "$BENCH/lib/stats.awk" "$RAW" | sort >"$OUT/stats.tsv"
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
EOF
}

# tools_section lists each tool's version and how it got here.
tools_section() {
  echo "## Tools"
  echo
  echo "| tool | version | installed by | status |"
  echo "| --- | --- | --- | --- |"
  local t
  local extra=(); [ -n "$LOADLENS_BASE" ] && extra=(loadlens-base)
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

# closed_section: measurement 1.
closed_section() {
  cat <<EOF
## 1. Closed model: $CLOSED_VUS connections/VUs, ${CLOSED_DUR} s

Requests/s as each tool reports it; requests per generator CPU-second = requests completed
÷ (user + sys) of the generator's whole process tree; ratio = the tool's median ÷ loadlens's.
"target core busy" is how busy nginx's core was, softirqs included (near 100 % means nginx,
not the generator, set the pace); "softirq" is the kernel's network work on both cores,
which no process is charged for; "other CPU" is task time of anything but the generator
and nginx during the run (other work on this shared machine: a large value means a
disturbed run; see Notes).

| tool | requests/s | requests per CPU-s | ÷ loadlens | CPU s | peak RSS MiB | errors | target core busy % | softirq % | other CPU % |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
EOF
  local t
  for t in "${PEERS[@]}" loadlens "${BASE_ROW[@]}"; do
    row closed "$t" 10 "$(cell closed "$t" rps 0)" "$(cell closed "$t" req_per_cpu_s 0)" \
      "$(ratio closed "$t" req_per_cpu_s)" "$(cell closed "$t" cpu_s 2)" "$(cell closed "$t" rss_mib 1)" \
      "$(cell closed "$t" errors 0)" "$(cell closed "$t" target_core_busy_pct 0)" "$(cell closed "$t" softirq_pct 0)" \
      "$(cell closed "$t" other_cpu_pct 0)"
  done
}

# open_section: measurement 2.
open_section() {
  cat <<EOF

## 2. Open model: a fixed $(group "$OPEN_RATE") requests/s for ${OPEN_DUR} s

Achieved rate = requests completed ÷ ${OPEN_DUR} s; generator CPU = (user + sys) ÷ the
process's wall time (start-up included); p50/p99 as each tool reports them (hey, oha and
vegeta time from the actual send, k6 and loadlens's open model from the scheduled start).
Ratio = the tool's median CPU ÷ loadlens's (below 1 means the tool is leaner).
oha runs with \`-c $CLOSED_VUS -q $OPEN_RATE\`, hey with \`-c $CLOSED_VUS -q $((OPEN_RATE / CLOSED_VUS))\` (per worker).

| tool | achieved req/s | generator CPU % | ÷ loadlens | p50 ms | p99 ms | dropped | errors | peak RSS MiB | other CPU % |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
EOF
  local t
  for t in "${PEERS[@]}" loadlens "${BASE_ROW[@]}"; do
    row open "$t" 10 "$(cell open "$t" rate 0)" "$(cell open "$t" cpu_pct 1)" "$(ratio open "$t" cpu_pct)" \
      "$(cell open "$t" p50_ms 2)" "$(cell open "$t" p99_ms 2)" "$(cell open "$t" dropped 0)" \
      "$(cell open "$t" errors 0)" "$(cell open "$t" rss_mib 1)" "$(cell open "$t" other_cpu_pct 0)"
  done
}

# idle_section: measurement 3.
idle_section() {
  cat <<EOF

## 3. Memory: $(group "$IDLE_VUS") VUs, each waiting 1 s between requests, ${IDLE_DUR} s

Peak RSS (the largest process of the generator) ÷ $(group "$IDLE_VUS"). The load is about
$(group "$IDLE_VUS") requests/s in all. wrk's connections wait with a Lua \`delay()\` of 1 s
(bench/wrk/think.lua); hey runs \`-c $IDLE_VUS -q 1\`; oha \`-c $IDLE_VUS -q $IDLE_VUS\`; k6 and
loadlens a 1 s sleep/think after each request. Ratio = the tool's median ÷ loadlens's.

| tool | peak RSS MiB | KiB per VU | ÷ loadlens | achieved req/s | errors | CPU s | other CPU % |
| --- | --- | --- | --- | --- | --- | --- | --- |
EOF
  local t
  for t in "${PEERS[@]}" loadlens "${BASE_ROW[@]}"; do
    row idle "$t" 8 "$(cell idle "$t" rss_mib 1)" "$(cell idle "$t" rss_per_vu_kib 1)" \
      "$(ratio idle "$t" rss_per_vu_kib)" "$(cell idle "$t" rate 0)" "$(cell idle "$t" errors 0)" \
      "$(cell idle "$t" cpu_s 2)" "$(cell idle "$t" other_cpu_pct 0)"
  done
}

# bookkeeping_section: measurement 4.
bookkeeping_section() {
  cat <<EOF

## 4. loadlens bookkeeping: metrics, run.db and dashboard on versus off

The closed-model run of measurement 1, with loadlens's defaults (${LOADLENS_ON_DESC}),
against the same run with bookkeeping off, interleaved with the peers in the same rounds.

EOF
  if [[ " $ONLY " != *" closed "* ]]; then
    echo "Not measured: this run left out the closed model (ONLY=$ONLY)."
    return
  fi
  if [ ${#LOADLENS_OFF_FLAGS[@]} -eq 0 ]; then
    echo "Not measured: \`loadlens run -h\` lists no \`--no-metrics\` flag in this build."
    return
  fi
  echo "Off is \`${LOADLENS_OFF_FLAGS[*]}\`."
  echo
  echo "| loadlens | requests/s | requests per CPU-s | peak RSS MiB |"
  echo "| --- | --- | --- | --- |"
  local t
  for t in loadlens loadlens-off; do
    echo "| $(tool_label $t) | $(cell closed $t rps 0) | $(cell closed $t req_per_cpu_s 0) | $(cell closed $t rss_mib 1) |"
  done
  local on off on_c off_c
  on=$(med closed loadlens reqs); off=$(med closed loadlens-off reqs)
  on_c=$(med closed loadlens req_per_cpu_s); off_c=$(med closed loadlens-off req_per_cpu_s)
  if [ -n "$on" ] && [ -n "$off" ] && [ -n "$on_c" ] && [ -n "$off_c" ]; then
    awk -v a="$on" -v b="$off" -v c="$on_c" -v d="$off_c" 'BEGIN {
      printf "\nThroughput with bookkeeping on ÷ off: **%.3f** (bookkeeping costs %.1f %% of requests/s);\n", a / b, 100 * (1 - a / b)
      printf "requests per CPU-second on ÷ off: **%.3f** (%.1f %% of the CPU per request).\n", c / d, 100 * (1 - c / d)
    }'
  fi
}

# check LABEL EXPR VAR=VALUE... prints one row of the bar: "yes" or "no" from an awk
# expression over the medians passed as variables ("not measured" when one is missing).
check() {
  local label=$1 expr=$2; shift 2
  local args=() kv
  for kv in "$@"; do
    [ -n "${kv#*=}" ] || { echo "| $label | not measured |"; return; }
    args+=(-v "$kv")
  done
  awk "${args[@]}" -v label="$label" 'BEGIN { printf "| %s | %s |\n", label, ('"$expr"') ? "yes" : "**no**" }'
}

# bar_section checks loadlens's medians against the bar of issue 3.
bar_section() {
  local ll k6 wrk veg hey oha dropped
  ll=$(med closed loadlens req_per_cpu_s); k6=$(med closed k6 req_per_cpu_s); wrk=$(med closed wrk req_per_cpu_s)
  veg=$(med closed vegeta req_per_cpu_s); hey=$(med closed hey req_per_cpu_s); oha=$(med closed oha req_per_cpu_s)
  dropped=$(awk -F'\t' '$1=="open" && $2=="loadlens" && $4=="dropped" { n += ($5=="NA" ? 1 : $5); any = 1 }
    END { if (any) print n + 0 }' "$RAW")
  echo
  echo "## Against the bar of issue 3"
  echo
  echo "loadlens's medians above, with its metrics on, against the peers' medians from this run."
  echo
  echo "| bar | met |"
  echo "| --- | --- |"
  check "requests per CPU-s ≥ 3× k6's" 'll >= 3 * k6' "ll=$ll" "k6=$k6"
  check "requests per CPU-s ≥ half of wrk's" 'll >= wrk / 2' "ll=$ll" "wrk=$wrk"
  check "requests per CPU-s ahead of vegeta's and hey's" 'll > veg && ll > hey' "ll=$ll" "veg=$veg" "hey=$hey"
  check "requests per CPU-s ahead of oha's (the aim)" 'll > oha' "ll=$ll" "oha=$oha"
  check "open model: achieved rate within 1 % of $OPEN_RATE/s" "r >= 0.99 * $OPEN_RATE && r <= 1.01 * $OPEN_RATE" \
    "r=$(med open loadlens rate)"
  check "open model: zero dropped iterations, every round" 'd == 0' "d=$dropped"
  check "open model: generator CPU below vegeta's" 'c < v' "c=$(med open loadlens cpu_pct)" "v=$(med open vegeta cpu_pct)"
  check "open model: generator CPU below oha's (the aim)" 'c < o' "c=$(med open loadlens cpu_pct)" "o=$(med open oha cpu_pct)"
  check "memory per idle VU under 32 KiB" 'm < 32' "m=$(med idle loadlens rss_per_vu_kib)"
  if [ ${#LOADLENS_OFF_FLAGS[@]} -gt 0 ]; then
    check "bookkeeping costs under 10 % of throughput" 'on >= 0.9 * off' \
      "on=$(med closed loadlens reqs)" "off=$(med closed loadlens-off reqs)"
  else
    echo "| bookkeeping costs under 10 % of throughput | not measured (no \`--no-metrics\` flag) |"
  fi
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
    grouped exit '$5!=0' "runs that exited non-zero (exit status; 124 and 137: killed by timeout)"
    grouped errors '$5!="NA" && $5>0' "runs with failed requests (count)"
    grouped redone '1' "runs done again because other processes used over $DISTURBED % of a core during the first try (% of that try; the less disturbed try is kept)"
    grouped other_cpu_pct '$5>15' "runs during which other processes on this machine used over 15 % of a core (% of a core)"
    grouped steal_pct '$5>5' "runs during which the hypervisor stole over 5 % of a core (%)"
    grouped quiet_wait_s '$5>='"$QUIET_WAIT" "runs started on a busy machine: other work did not stop within $QUIET_WAIT s (s waited)"
  } >"$OUT/notes.md"
  if [ -s "$OUT/notes.md" ]; then cat "$OUT/notes.md"
  else echo "- none: every run exited 0, parsed, had no failed requests and ran on a quiet machine."; fi
}

# analysis_section keeps the lead's Analysis text across regenerations.
analysis_section() {
  echo
  echo "## Analysis"
  echo
  local prev=""
  [ -f "$BENCH/RESULTS.md" ] && prev=$(awk '/^## Analysis$/{a=1; next} a && /^## /{exit} a' "$BENCH/RESULTS.md" | sed '/./,$!d')
  if [ -n "$prev" ] && ! grep -q '^_Placeholder' <<<"$prev"; then
    echo "$prev"
  else
    echo "_Placeholder: the lead writes the reading of these numbers here (kept when bench/run.sh regenerates this file)._"
  fi
}

# write_results writes bench/RESULTS.md.
write_results() {
  load_stats
  BASE_ROW=(); [ -n "$LOADLENS_BASE" ] && BASE_ROW=(loadlens-base)
  local tmp="$BENCH/RESULTS.md.new"
  {
    echo "# Peer benchmark results"
    echo
    echo "Generated by \`bench/run.sh\` on $RUN_DATE; the run took $RUNTIME."
    echo "$ROUNDS rounds, the generators interleaved in each (${ORDER[*]}). Every cell is the median"
    echo "(min–max) over the rounds. Raw numbers: \`bench/out/raw.tsv\`, per run \`bench/out/runs/\`."
    echo "Edit only the Analysis section: the rest is rewritten by \`bench/run.sh\`."
    echo
    machine_section
    echo
    tools_section
    echo
    closed_section
    open_section
    idle_section
    bookkeeping_section
    bar_section
    notes_section
    analysis_section
  } >"$tmp"
  mv "$tmp" "$BENCH/RESULTS.md"
}
