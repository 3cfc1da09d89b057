#!/usr/bin/env bash
# seeded-backoff/outbox (wasm/js/outbox): requests that outlive the page, in headless Chromium
# against a logging, de-duplicating server on 127.0.0.1, with expectations from tests/model:
#   a reload mid-schedule and a reopen past the stored time, the bad-storage cases | ten tabs with
#   one driver and one shared budget, the driver's tab closed | the service worker with the page
#   closed, 50 pages offline and back | the docs snippet as pasted.
# Times are checked against the model's waits, never early (but for the driver's 4 ms and whole-ms
# clocks) and before the schedule's next attempt could be due; offline spells by the pages' own
# events and fetch logs.
# Needs the built package (20-wasm.sh builds it; built here if missing). About 3 minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ ! -f wasm/dist/outbox/index.js ]; then
  npm --prefix wasm run build
fi
for t in outbox outbox-tabs outbox-sw outbox-docs; do
  echo "--- headless Chromium: $t"
  timeout 300 node "wasm/test/browser/$t.mjs"
done
