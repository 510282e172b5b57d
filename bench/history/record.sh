#!/usr/bin/env bash
# Records a real series for the history benchmark: the demo shop served
# once, one test (record.yaml: 15 s of 20 coupon issues and 10 first pages
# a second) repeated in three phases — the coupon count taken with an
# atomic decrement (base), then read and written back (the regression: one
# more cache round trip a coupon), then atomically again (the fix) — and the
# runs' history records written to testdata/demo.json. The coupon event is
# reset before each run, so every run issues from the same state. Sends
# traffic only to 127.0.0.1. About 7 minutes.
#
#   bench/history/record.sh [BASE_RUNS REGRESSION_RUNS FIX_RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
base=${1:-10} regression=${2:-8} fix=${3:-8}
work=$(mktemp -d)
trap 'kill "$shop" 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/loadlens" ./cmd/loadlens
port=$((20000 + RANDOM % 20000))
url=http://127.0.0.1:$port
"$work/loadlens" demo --serve --addr "127.0.0.1:$port" >"$work/shop.log" 2>&1 &
shop=$!
for _ in $(seq 1 100); do curl -fs -o /dev/null "$url/healthz" && break; sleep 0.1; done
phase() { # name variant runs
  sed "s#BASE#$url#; s#VARIANT#$2#" bench/history/record.yaml >"$work/test.yaml"
  for i in $(seq 1 "$3"); do
    curl -fs -o /dev/null -X POST "$url/coupons/reset?count=100000"
    "$work/loadlens" run "$work/test.yaml" --quiet --results "$work/results" --tag "phase=$1" --tag "run=$i" >/dev/null
  done
}
phase base improved "$base"
phase regression naive-race "$regression"
phase fix improved "$fix"
go run ./bench/history -export "$work/results" >bench/history/testdata/demo.json
echo "wrote bench/history/testdata/demo.json"
