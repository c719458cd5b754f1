#!/usr/bin/env bash
# Captures every command's output for one trawl binary, so two builds can be
# compared byte for byte (issue 13: a refactor must not change any output).
#
#   scripts/output_identity.sh BINARY OUTDIR      # then: diff -r OUT_A OUT_B
#
# Needs ../shared/datasets. Crawls only loopback (python3 http.server on
# 127.0.0.77 and 127.0.0.78 serving dataset pages); time fields are dropped.
set -euo pipefail
bin=$(realpath "$1"); out=$(mkdir -p "$2" && realpath "$2")
here=$(cd "$(dirname "$0")/.." && pwd); data="$here/../shared/datasets"
work=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT

"$bin" eval --dataset "$data/wcxb-dev" --predictions "$out/wcxb.jsonl" > "$out/wcxb.txt"
"$bin" eval --dataset "$data/cleaneval" --predictions "$out/cleaneval.jsonl" > "$out/cleaneval.txt"
"$bin" eval --dataset "$data/swde-book" > "$out/swde.txt"
sed -i -E '/pages\/s|MB\/s/d' "$out"/*.txt
find "$data/multilingual-dev/html" "$data/trafilatura-eval/html" -type f | sort > "$work/all"; sed -n 1,400p "$work/all" > "$work/ml"
"$bin" extract --jsonl -j 2 $(cat "$work/ml") > "$out/multilingual.jsonl"
(cd "$here"/crates/trawl-extract/tests/fixtures && "$bin" extract --jsonl -j 1 *.html) > "$out/fixtures.jsonl"

# A loopback site of 120 wcxb-dev pages (article mode) and a shop of 30 SWDE
# book pages (ecommerce mode), each behind an index page.
mkdir -p "$work/a" "$work/b"
i=0; printf '<html><body>' > "$work/a/index.html"
for f in $(ls "$data/wcxb-dev/html" | sort | sed -n 1,120p); do
  i=$((i+1)); gzip -dcf "$data/wcxb-dev/html/$f" > "$work/a/p$i.html"
  printf '<a href="p%d.html">page %d</a> ' $i $i >> "$work/a/index.html"
done
i=0; printf '<html><body>' > "$work/b/index.html"
for f in $(ls "$data/swde-book/booksamillion" | sort | sed -n 1,30p); do
  i=$((i+1)); gzip -dcf "$data/swde-book/booksamillion/$f" > "$work/b/book$i.html"
  printf '<a href="book%d.html">book %d</a> ' $i $i >> "$work/b/index.html"
done
(cd "$work/a" && exec python3 -m http.server -b 127.0.0.77 8077 >/dev/null 2>&1) &
(cd "$work/b" && exec python3 -m http.server -b 127.0.0.78 8078 >/dev/null 2>&1) &
sleep 1
mkdir -p "$work/seeds"
printf 'http://127.0.0.77:8077/index.html\nhttp://127.0.0.78:8078/index.html mode=ecommerce\n' > "$work/seeds/s.txt"
cat > "$work/config.toml" <<CFG
[crawl]
data_dir = "$work/storage"
seeds_dir = "$work/seeds"
status_addr = ""
min_delay_ms = 0
sitemaps = false
CFG
RUST_LOG=warn "$bin" --config "$work/config.toml" crawl --once > /dev/null 2> "$work/crawl.log"
strip() { python3 -c '
import sys, json
for l in sys.stdin:
    d = json.loads(l)
    # seq and record numbers follow the order two hosts finish in.
    for k in ("fetched_at", "time", "elapsed_ms", "crawled_at", "learned_at", "seq", "record"):
        d.pop(k, None)
    print(json.dumps(d, sort_keys=True, ensure_ascii=False))' | sort; }
"$bin" --config "$work/config.toml" export | strip > "$out/crawl-records.jsonl"
"$bin" --config "$work/config.toml" export --outcomes | strip > "$out/crawl-outcomes.jsonl"
"$bin" --config "$work/config.toml" templates list > "$out/templates.txt" 2>&1 || true
wc -l "$out"/*.jsonl
