#!/usr/bin/env bash
# Records a real series with steps whose size is known: a server whose
# service time the script sets (go run ./bench/history -serve-steps: 50 ms
# of sleep a request; CPU work, -work, made the service time itself ten
# times slower on a busy host, so it was not the step the script set), one
# short test of its four paths (record-steps.yaml: 6 s, 8 requests a second
# each) repeated in
# three phases: base (every path at its service time), step (/a +10 %,
# /b +20 %, /c +50 %; /control unchanged) and fix (all back). After each
# run the server's own timing of it is kept, and the runs' history records
# and that timing are written to testdata/steps.json. loadlens runs under
# nice -n 10 (the server, asleep but for microseconds a request, does not):
# the noise recorded is that of a shared, busy machine.
# Sends traffic only to 127.0.0.1. About 4 minutes.
#
#   bench/history/record-steps.sh [BASE_RUNS STEP_RUNS FIX_RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
base=${1:-10} step=${2:-10} fix=${3:-10}
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
commit=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- cmd internal go.mod || commit="$commit+changes" # the binary is not that commit's
nice -n 10 go build -o "$work/loadlens" ./cmd/loadlens
nice -n 10 go build -o "$work/bench" ./bench/history
port=$((20000 + RANDOM % 20000))
url=http://127.0.0.1:$port
"$work/bench" -serve-steps "127.0.0.1:$port" -sleep 50ms -work 0 >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do curl -fs -o /dev/null "$url/_stats" && break; sleep 0.1; done
sed "s#BASE#$url#" bench/history/record-steps.yaml >"$work/test.yaml"
mkdir -p "$work/server"
n=0
phase() { # name factors runs
  curl -fs -o /dev/null "$url/_set?$2"
  for i in $(seq 1 "$3"); do
    n=$((n + 1))
    curl -fs -o /dev/null "$url/_stats" # forget what came between runs
    nice -n 10 "$work/loadlens" run "$work/test.yaml" --quiet --results "$work/results" \
      --tag "phase=$1" --tag "run=$i" --tag "commit=$1-$i" >/dev/null || echo "run $n exited $?" >&2
    curl -fs "$url/_stats" >"$work/server/$n.json"
  done
}
phase base "" "$base"
phase step "/a=1.1&/b=1.2&/c=1.5" "$step"
phase fix "" "$fix"
"$work/bench" -export "$work/results" -server "$work/server" -commit "$commit" \
  -title "a server of known service time (50 ms; /a +10 %, /b +20 %, /c +50 %, /control unchanged)" \
  -script bench/history/record-steps.sh >bench/history/testdata/steps.json
if [ -n "${KEEP_RESULTS:-}" ]; then cp -r "$work/results" "$KEEP_RESULTS"; fi
echo "wrote bench/history/testdata/steps.json"
