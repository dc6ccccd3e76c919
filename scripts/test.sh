#!/usr/bin/env bash
# Runs every test of the project: formatting, lints, unit, property,
# fixture and command-line tests, and a quick pass of the perft benchmark
# (which cross-checks pawnless-chess counts with cozy-chess).
# The Rust toolchain is all it needs; fixtures are committed.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo test --workspace --locked
cargo test -p legion-rules --bench perft --locked -- --quick
