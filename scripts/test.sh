#!/usr/bin/env bash
# Runs every test of the project: formatting, lints, unit, property,
# fixture, command-line, load, soak and crash tests, the server's tests on
# PostgreSQL as well as SQLite, and a quick pass of the perft benchmark
# (which cross-checks pawnless-chess counts with cozy-chess).
# Fixtures are committed; the browser tests install what they need.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step says how long it took, so that a slow run shows where.
START=$(date +%s)
step() {
  local t
  t=$(date +%s)
  "$@"
  echo "test.sh: $(( $(date +%s) - t ))s (total $(( $(date +%s) - START ))s): $*" >&2
}

step cargo fmt --all -- --check
step cargo clippy --workspace --all-targets --locked -- -D warnings
step cargo test --workspace --locked
# Every later cargo step names --workspace too, with target filters: the
# same selection of packages resolves the same features, so they reuse the
# build above instead of rebuilding the dependencies (six minutes on 2 cores).
# The slow tests, marked #[ignore] so that a plain `cargo test` stays quick:
# the load, soak and fairness tests of the server and the kill -9 crash
# test, one at a time so that their timings mean something.
step cargo test --workspace --locked --test suite -- --ignored --test-threads=1 \
  two_hundred_games_at_once twenty_thousand_games
step cargo test --workspace --locked --test crash -- --ignored --test-threads=1
# The server's tests that take a database, again on PostgreSQL: a
# throwaway server (Debian's package), started and removed by the script.
# (The server's integration tests are one binary, crates/server/tests/suite:
# a module per subject, chosen here by name.)
step scripts/with-postgres.sh env LEGION_TEST_BACKEND=postgres \
  cargo test --workspace --locked --test suite -- \
  storage:: api:: accounts:: lobby:: players:: puzzles:: hosting:: languages:: cluster:: studies::
# Three `legion serve` processes on one PostgreSQL, 200 games, one server
# killed with SIGKILL mid-run (crates/cli/tests/cluster.rs).
step scripts/with-postgres.sh \
  cargo test --workspace --locked --test cluster -- --ignored --test-threads=1 three_servers
step cargo test --workspace --locked --bench perft -- --quick

# The web app in a real browser (installs Debian's Chromium and the pinned
# Playwright on first run), on the binary `cargo test` built above (opt-level 2,
# debug assertions on) rather than a second, release build.
step env LEGION_BIN=target/debug/legion bash e2e/run.sh
