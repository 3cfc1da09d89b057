#!/usr/bin/env bash
# The simulator's scenarios and the README's chart: the default run's table (contention, outage,
# shed, 7 strategies x 50 runs), `simulate --svg` rendered to PNG by rsvg-convert (Debian's
# librsvg2-bin), checked to be a full-size, non-blank picture and kept in artifacts/simulate.png for
# a person to look at; the quota scenario's goals for the send rate; 10^5 outage clients.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
cargo build -q --release -p seeded-backoff-cli
bin=target/release/seeded-backoff
mkdir -p artifacts

echo "-- seeded-backoff simulate (defaults: contention 100 clients, outage 1000, shed 1000, 7 strategies x 50 runs)"
"$bin" simulate --svg artifacts/simulate.svg
echo "-- the chart, rendered with rsvg-convert"
rsvg-convert -o artifacts/simulate.png artifacts/simulate.svg
python3 - artifacts/simulate.png <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
width, height = struct.unpack(">II", data[16:24])
assert (width, height) == (1100, 1880), (width, height)
# Non-blank: the chart draws lines and text, so the image holds many distinct colours; a white page
# compresses to a few hundred bytes.
assert len(data) > 30_000, len(data)
print(f"artifacts/simulate.png: {width} x {height}, {len(data)} bytes")
PY
# Every text a reader needs is in the SVG: titles in the README's order, axes, reference lines.
for text in "1. contention" "2. outage" "3. shed" "clients done (%)" "requests per second" "capacity: 100 requests/s" \
  "server recovers (120 s)" "off scale" "pacer + paced clients" "the limit: every client done (10 s)" \
  "4. quota" "attempts sent per second" "AWS adaptive (model)" "send rate (ours)" \
  "the quota: 100 requests/s, 50 from 20 s to 40 s"; do
  grep -q "$text" artifacts/simulate.svg || { echo "chart: missing '$text'"; exit 1; }
done
[ "$(grep -n '1. contention' artifacts/simulate.svg | cut -d: -f1)" -lt \
  "$(grep -n '2. outage' artifacts/simulate.svg | cut -d: -f1)" ]

[ "$(grep -n '3. shed' artifacts/simulate.svg | cut -d: -f1)" -lt \
  "$(grep -n '4. quota' artifacts/simulate.svg | cut -d: -f1)" ]

echo "-- quota: the send rate's goals (goodput >= 97 %, refused <= 3 %, back within 5 % in <= 10 s)"
"$bin" simulate --scenario quota | tee artifacts/simulate-quota.txt
sed -n 's/^goals for the send rate: \(.*\): met$/goal: met: simulated quota: \1/p; s/^goals for the send rate: \(.*\): NOT met$/goal: missed: simulated quota: \1/p' artifacts/simulate-quota.txt

echo "-- fleet scale: 100,000 outage clients, one run per strategy"
"$bin" simulate --scenario outage --clients 100000 --runs 1 | tail -1
