#!/usr/bin/env bash
# Runs every strength and speed measurement of docs/STRENGTH.md and writes
# the raw output to tools/strength/results/ (one file per measurement).
# Takes a few hours on two cores; each step can be run alone:
#   tools/strength/measure.sh [random|greedy|levels|material|tuned|speed]...
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -p legion-cli --locked -q
L=target/release/legion
OUT=tools/strength/results
mkdir -p "$OUT"
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(speed random greedy material tuned levels)

for step in "${steps[@]}"; do
  case "$step" in
    random)
      # Level 10 at 100 ms per move against a uniformly random mover.
      $L match --engine1 engine --engine2 random --games 100 --movetime 100 --quiet > "$OUT/random.txt" ;;
    greedy)
      # Against the one-ply greedy material player.
      $L match --engine1 engine --engine2 greedy --games 100 --movetime 100 --quiet > "$OUT/greedy.txt" ;;
    material)
      # Full evaluation against material only, 200 ms per move.
      $L match --engine1 engine --engine2 engine:eval=material --games 200 --movetime 200 --quiet > "$OUT/material.txt" ;;
    tuned)
      # Tuned weights against the hand-set start.
      $L match --engine1 engine:eval=tuned --engine2 engine:eval=handset --games 400 --nodes 10000 --seed 77 --quiet > "$OUT/tuned.txt" ;;
    levels)
      # Each level against the one below; level 10 gets 600,000 nodes a move (twice
      # level 9's cap); the others are held by their own caps.
      : > "$OUT/levels.txt"
      for n in 1 2 3 4 5 6 7 8 9; do
        echo "level $((n + 1)) vs level $n" >> "$OUT/levels.txt"
        $L match --engine1 engine:level=$((n + 1)) --engine2 engine:level=$n --games 100 --nodes 600000 --quiet >> "$OUT/levels.txt"
      done ;;
    speed)
      {
        echo "== bench, 1 thread"; $L bench
        echo "== bench depth 10, 1 thread"; $L bench --depth 10 | tail -3
        echo "== bench depth 10, 2 threads"; $L bench --depth 10 --threads 2 | tail -3
        echo "== depth reached in 1 s from the initial position"
        printf 'position startpos\ngo movetime 1000\n' | $L uci | grep -E "^info depth" | tail -1
      } > "$OUT/speed.txt" ;;
    *) echo "unknown step $step" >&2; exit 2 ;;
  esac
  echo "$step done"
done
