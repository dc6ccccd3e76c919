#!/usr/bin/env bash
# Runs the cluster benchmark's PostgreSQL-1 configuration for each server
# binary in turn, ROUNDS times, with one client (the test binary): issue
# 18's before-and-after on a shared machine (docs/BENCHMARKS.md). Prints,
# per run, the flood's moves/s and the CPU seconds of the server and of
# the client (the test binary's own, the server's taken out) for the
# 9,600 moves of the flood and the steady run.
#   tools/bench/ab-cluster.sh target/release/deps/cluster-<hash> 4 old/legion new/legion
# PAUSE_PID: a process to stop while measuring (a background datagen).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
test_bin="$(realpath "$1")"
rounds="$2"
shift 2
[ -n "${PAUSE_PID:-}" ] && kill -STOP "$PAUSE_PID"
trap '[ -n "${PAUSE_PID:-}" ] && kill -CONT "$PAUSE_PID"' EXIT
tmp="$(mktemp -d)"
for r in $(seq "$rounds"); do
  for bin in "$@"; do
    bin="$(realpath "$bin")"
    rm -f "$tmp"/cpu.* "$tmp/client"
    line=$("$root/scripts/with-postgres.sh" /usr/bin/time -f "%U %S" -o "$tmp/client" \
      env REAL_BIN="$bin" CPU_OUT="$tmp/cpu" LEGION_SERVE_BIN="$here/cpu-of.sh" \
      LEGION_BENCH_ONLY="PostgreSQL 1" "$test_bin" --ignored --nocapture --exact benchmark 2>&1 \
      | grep "^| PostgreSQL")
    server=$(awk '{printf "%.2f", $1 / 100}' "$tmp"/cpu.*)
    # The test binary's time includes its child, the server.
    client=$(awk -v s="$server" '{printf "%.2f", $1 + $2 - s}' "$tmp/client")
    flood=$(echo "$line" | awk -F'|' '{gsub(/ /, "", $4); print $4}')
    echo "round $r  $bin  flood $flood moves/s  server ${server} s  client ${client} s"
  done
done
rm -rf "$tmp"
