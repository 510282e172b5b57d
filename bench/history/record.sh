#!/usr/bin/env bash
# Records real series for the history benchmark: the demo shop served once,
# one test repeated in three phases — the product page cached (base), then
# reading the database on every request (the regression), then cached again
# (the fix) — and the runs' history records written to testdata/demo.json.
# Sends traffic only to 127.0.0.1. About 4 minutes.
#
#   bench/history/record.sh [BASE_RUNS REGRESSION_RUNS FIX_RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
base=${1:-16} regression=${2:-6} fix=${3:-6}
work=$(mktemp -d)
trap 'kill "$shop" 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/loadlens" ./cmd/loadlens
port=$((20000 + RANDOM % 20000))
"$work/loadlens" demo --serve --addr "127.0.0.1:$port" >"$work/shop.log" 2>&1 &
shop=$!
for _ in $(seq 1 100); do curl -fs -o /dev/null "http://127.0.0.1:$port/products/1" && break; sleep 0.1; done
phase() { # name variant runs
  sed "s#BASE#http://127.0.0.1:$port#; s#VARIANT#$2#" bench/history/record.yaml >"$work/test.yaml"
  for i in $(seq 1 "$3"); do
    "$work/loadlens" run "$work/test.yaml" --quiet --results "$work/results" --tag "phase=$1" --tag "run=$i" >/dev/null
  done
}
phase base improved "$base"
phase regression naive "$regression"
phase fix improved "$fix"
go run ./bench/history -export "$work/results" >bench/history/testdata/demo.json
echo "wrote bench/history/testdata/demo.json"
