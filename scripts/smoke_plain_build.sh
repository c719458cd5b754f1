#!/usr/bin/env bash
# The binary a user builds (`cargo build --release`, no dev-dependencies)
# against a running daemon: `trawl status` and `trawl export` must answer,
# not panic. The test suite cannot see this: `cargo test` unifies the
# dev-dependencies' features into the binary it tests (spider's reqwest
# brings a TLS provider there), which once hid a panic in every plain build
# ("No rustls crypto provider is configured").
#
#   scripts/smoke_plain_build.sh            # builds, then checks
# Loopback only: the seed is a closed port on 127.0.0.2.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --bin trawl
bin=target/release/trawl
work=$(mktemp -d)
daemon=""
cleanup() {
  if [ -n "$daemon" ]; then kill "$daemon" 2>/dev/null || true; wait "$daemon" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
echo "http://127.0.0.2:9/" > "$work/seeds.txt"
# The commands find the daemon through the config's status address.
printf '[crawl]\nstatus_addr = "127.0.0.1:%s"\n' "$port" > "$work/config.toml"
"$bin" crawl --config "$work/config.toml" --seeds "$work/seeds.txt" --data "$work/data" \
  > "$work/daemon.log" 2>&1 &
daemon=$!

# Wait for the status endpoint (at most 20 s).
for _ in $(seq 1 200); do
  if python3 -c "import socket,sys; socket.create_connection(('127.0.0.1',$port),0.2)" 2>/dev/null; then
    break
  fi
  sleep 0.1
done

fail=0
for cmd in "status" "export"; do
  if ! "$bin" $cmd --config "$work/config.toml" --data "$work/data" > "$work/$cmd.out" 2> "$work/$cmd.err"; then
    echo "smoke: trawl $cmd failed against a running daemon:" >&2
    cat "$work/$cmd.err" >&2
    fail=1
  elif grep -q "panicked" "$work/$cmd.err"; then
    echo "smoke: trawl $cmd panicked:" >&2
    cat "$work/$cmd.err" >&2
    fail=1
  fi
done
if ! grep -q '"data_dir"\|data_dir\|pages' "$work/status.out" 2>/dev/null && [ "$fail" = 0 ]; then
  echo "smoke: trawl status printed nothing recognisable:" >&2
  cat "$work/status.out" >&2
  fail=1
fi
[ "$fail" = 0 ] && echo "smoke: plain build answers status and export against a running daemon"
exit "$fail"
