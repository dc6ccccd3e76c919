#!/usr/bin/env bash
# Runs every test of the project: formatting, lints, unit, property,
# fixture and command-line tests, and a quick pass of the perft benchmark
# (which cross-checks pawnless-chess counts with cozy-chess).
# Fixtures are committed; the browser tests install what they need.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo test --workspace --locked
cargo test -p legion-rules --bench perft --locked -- --quick

# The web app in a real browser (installs Debian's Chromium and the pinned
# Playwright on first run).
bash e2e/run.sh
