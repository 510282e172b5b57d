# shellcheck shell=bash
# bench/proto.sh's block of bench/RESULTS.md: one table per measurement, medians (min–max)
# over the rounds, loadlens's units per CPU-second ÷ each peer's paired by round, and issue
# 24's targets. The block sits between two markers in the Analysis section (which
# bench/run.sh keeps); the text around it is hand-written. Sourced by bench/proto.sh.

PROTO_BEGIN='<!-- bench/proto.sh: begin (rewritten by each run) -->'
PROTO_END='<!-- bench/proto.sh: end -->'

# proto_write aggregates $RAW into $OUT/stats.tsv and S, writes the block to
# $OUT/block.md, and puts it into RESULTS.md unless NO_WRITE=1.
proto_write() {
  awk -f "$BENCH/lib/stats.awk" "$RAW" | sort >"$OUT/stats.tsv"
  local m t k med mn mx c
  while IFS=$'\t' read -r m t k med mn mx c; do S[$m/$t/$k]="$med $mn $mx $c"; done <"$OUT/stats.tsv"
  proto_block >"$OUT/block.md"
  [ "${NO_WRITE:-0}" = 1 ] && { log "wrote $OUT/block.md"; return; }
  local res=$BENCH/RESULTS.md
  if grep -qF "$PROTO_BEGIN" "$res"; then
    awk -v b="$PROTO_BEGIN" -v e="$PROTO_END" -v f="$OUT/block.md" '
      $0 == b { while ((getline l < f) > 0) print l; skip = 1; next }
      $0 == e { skip = 0; next }
      !skip' "$res" >"$res.new" && mv "$res.new" "$res"
  else
    { echo; cat "$OUT/block.md"; } >>"$res"   # the Analysis section is the file's last
  fi
  log "wrote its block of bench/RESULTS.md"
}

# proto_block prints the block, markers included.
proto_block() {
  local meas
  echo "$PROTO_BEGIN"
  echo
  echo "Measured by \`bench/proto.sh\` on $RUN_DATE (it took $RUNTIME), loadlens at $LOADLENS_REV;"
  echo "load average $LOADAVG_START at the start, $LOADAVG_END at the end. $ROUNDS rounds, the"
  echo "generators interleaved in each; $PROTO_VUS connections (VUs), one call, message or request in flight"
  echo "on each, ${PROTO_DUR} s a run. Cells: median (min–max) over the rounds; \"loadlens ÷ tool\" is"
  echo "loadlens's units per CPU-second ÷ the tool's in the same round, then their median (min–max)."
  echo "CPU is user + sys of the generator's process tree; \"target CPU\" is the target's process"
  echo "(% of a core), \"other CPU\" everything else on the machine (others' work: a disturbance)."
  echo "loadlens runs with its defaults (per-second metrics, run.db, a dashboard read by a client)."
  for meas in "${PROTO_MEAS[@]}"; do
    in_only "$meas" && proto_table "$meas"
  done
  echo
  echo "$PROTO_END"
}

# proto_table MEAS prints MEAS's table and its targets' verdicts.
proto_table() {
  local m=$1 u t line tool f ratio lo
  u=$(proto_unit "$m")
  echo
  case $m in
  grpc) echo "**gRPC unary calls** (\`$GRPC_METHOD\`, grpc-go's interop server, a 100-byte reply)" ;;
  ws) echo "**WebSocket messages** (16-byte text, each echo answered; 100 echoes a session; received messages counted)" ;;
  h2) echo "**HTTP/2 requests** (GET of a 100-byte file from nghttpd over TLS; loadlens with \`http2: true\`)" ;;
  esac
  echo
  echo "| tool | ${u}s/s | ${u}s per CPU-s | loadlens ÷ tool (paired) | CPU µs per $u | user µs per $u | peak RSS MiB | errors | target CPU % | other CPU % |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  for tool in $(proto_order "$m"); do
    if [ -z "${S[$m/$tool/reqs]:-}" ]; then
      echo "| $(proto_label "$tool") | no result | | | | | | | | |"; continue
    fi
    ratio=$(rcell "$m" "$tool" llx_req_per_cpu_s); [ "$tool" = loadlens ] && ratio="1.00×"
    echo "| $(proto_label "$tool") | $(proto_rate "$m" "$tool") | $(cell "$m" "$tool" req_per_cpu_s 0) | $ratio | $(cell "$m" "$tool" cpu_us_per_req 2) | $(cell "$m" "$tool" user_us_per_req 2) | $(cell "$m" "$tool" rss_mib 1) | $(cell "$m" "$tool" errors 0) | $(cell "$m" "$tool" nginx_cpu_pct 0) | $(cell "$m" "$tool" other_cpu_pct 0) |"
  done
  while read -r tool f; do
    [ -n "${S[$m/$tool/llx_req_per_cpu_s]:-}" ] || { echo; echo "Target ≥ ${f}× $tool: not measured ($tool did not run)."; continue; }
    read -r ratio lo _ <<<"${S[$m/$tool/llx_req_per_cpu_s]}"
    echo
    echo "Target ≥ ${f}× $tool: loadlens ÷ $tool $(rcell "$m" "$tool" llx_req_per_cpu_s) — $(proto_verdict "$ratio" "$lo" "$f")."
  done < <(proto_targets "$m")
  if [ -n "${S[$m/loadlens-off/bk_cpu]:-}" ]; then
    echo
    echo "loadlens's bookkeeping (defaults ÷ \`${LOADLENS_OFF_FLAGS[*]}\`, ${u}s per CPU-second, paired): $(rcell "$m" loadlens-off bk_cpu)."
  fi
}

# proto_rate MEAS TOOL prints the units per second of wall time: the tool's own figure where it
# reports one, else units ÷ the planned duration.
proto_rate() {
  local a x lo hi
  read -r -a a <<<"${S[$1/$2/reqs]:-}"
  x=$(num "$(awk -v v="${a[0]}" -v d="$PROTO_DUR" 'BEGIN { print v / d }')" 0)
  [ "${a[3]}" -gt 1 ] || { echo "$x"; return; }
  lo=$(num "$(awk -v v="${a[1]}" -v d="$PROTO_DUR" 'BEGIN { print v / d }')" 0)
  hi=$(num "$(awk -v v="${a[2]}" -v d="$PROTO_DUR" 'BEGIN { print v / d }')" 0)
  echo "$x ($lo–$hi)"
}

# proto_verdict MEDIAN MIN FACTOR says whether a target is met in every round, at the median
# only, or not.
proto_verdict() {
  awk -v m="$1" -v lo="$2" -v f="$3" 'BEGIN {
    if (lo >= f) print "**met** in every round"
    else if (m >= f) print "met at the median, not in every round"
    else printf "**missed** (%.0f %% of the target at the median)\n", 100 * m / f }'
}
