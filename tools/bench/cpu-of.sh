#!/usr/bin/env bash
# Runs `$REAL_BIN "$@"` in this process and writes, every 0.1 s, the CPU
# it has used so far (user + system, in hundredths of a second) to
# $CPU_OUT.<pid>: the last value is what the process cost, even when it
# is killed. Used as LEGION_SERVE_BIN to measure what a server spends
# per move in the cluster benchmark (docs/BENCHMARKS.md).
set -euo pipefail
pid=$$
out="${CPU_OUT:-/tmp/cpu}.$pid"
(
  while kill -0 "$pid" 2>/dev/null; do
    awk '{print $14 + $15}' "/proc/$pid/stat" > "$out.tmp" 2>/dev/null && mv "$out.tmp" "$out"
    sleep 0.1
  done
) &
exec "$REAL_BIN" "$@"
