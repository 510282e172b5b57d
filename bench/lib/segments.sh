#!/usr/bin/env bash
# segments.sh N DIR LOADLENS ARGS... runs N loadlens processes at once, process i with
# --segment i/N:(i+1)/N, each under /usr/bin/time (DIR/seg<i>/time), each writing its summary
# to DIR/seg<i>/summary.json and its run directory under DIR/seg<i>/results. The scale test
# uses it for more VUs than one process may hold sockets for (the open-files limit). It
# prints the sum of the processes' peak RSS in KiB and exits non-zero if any of them did.
set -uo pipefail
n=$1 dir=$2; shift 2
pids=()
for i in $(seq 0 $((n - 1))); do
  mkdir -p "$dir/seg$i"
  /usr/bin/time -o "$dir/seg$i/time" -f '%e %U %S %M' "$@" --segment "$i/$n:$((i + 1))/$n" \
    --summary-json "$dir/seg$i/summary.json" --results "$dir/seg$i/results" \
    >"$dir/seg$i/stdout" 2>"$dir/seg$i/stderr" &
  pids+=($!)
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
awk '{ s += $4 } END { print s + 0 }' "$dir"/seg*/time
exit "$rc"
