#!/usr/bin/env bash
# Captures demo-shop.har: starts the demo shop, browses it with headless Chromium through
# Playwright (installed from npm into a temporary directory; Chromium is the system's,
# /usr/bin/chromium), and writes the recording beside this script. Needs node, npm and
# chromium; sends traffic only to 127.0.0.1. Not run by the tests, which read the
# committed recording; run it again when the demo shop's API changes.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../../../.." && pwd)
WORK=$(mktemp -d)
trap 'kill "${SHOP:-0}" 2>/dev/null || true; rm -rf "$WORK"' EXIT
(cd "$REPO" && go build -o "$WORK/loadlens" ./cmd/loadlens)
PORT=${PORT:-18090}
"$WORK/loadlens" demo --serve --addr "127.0.0.1:$PORT" >"$WORK/shop.log" 2>&1 &
SHOP=$!
for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/healthz" && break; sleep 0.2; done
(cd "$WORK" && npm init -y >/dev/null && npm install --silent --no-audit --no-fund playwright-core@1.65.1 >/dev/null)
cp "$HERE/capture.mjs" "$WORK/"
(cd "$WORK" && node capture.mjs "http://127.0.0.1:$PORT" "$HERE/demo-shop.har")
echo "wrote $HERE/demo-shop.har"
