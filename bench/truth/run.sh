#!/usr/bin/env bash
# Issue 20's accuracy catalogue: starts real services with known faults on
# loopback, runs loadlens against each, scores its verdicts and rewrites
# docs/accuracy.md (about an hour and a half on 2 cores; it never runs in CI,
# whose test command runs the -quick subset through TestAccuracySubset).
#
#   bench/truth/run.sh                         # the whole catalogue, 3 runs each
#   bench/truth/run.sh -cases pool-small -repeat 1
#   bench/truth/run.sh -h                      # every flag
set -euo pipefail
cd "$(dirname "$0")/../.."
exec go run ./bench/truth "$@"
