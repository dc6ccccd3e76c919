#!/usr/bin/env bash
# The end-to-end browser tests, as CI runs them: Debian's Chromium (installed
# if missing), the pinned Playwright (no browser download), the release
# binary (built if out of date; or LEGION_BIN), then the tests. Quiet on success: one
# closing line. On failure it prints what failed and exits non-zero.
set -euo pipefail
# A relative LEGION_BIN names a file from where the script was called.
if [ -n "${LEGION_BIN:-}" ] && [ "${LEGION_BIN#/}" = "$LEGION_BIN" ]; then
  LEGION_BIN="$PWD/$LEGION_BIN"
fi
cd "$(dirname "$0")"
E2E="$PWD"
ROOT="$(cd .. && pwd)"
LOG="$(mktemp -d)"
trap 'rm -rf "$LOG"' EXIT

# Runs a step with its output in a log, shown only when the step fails.
quietly() {
  local name="$1"; shift
  if ! "$@" >"$LOG/$name.log" 2>&1; then
    echo "e2e: '$*' failed:" >&2
    cat "$LOG/$name.log" >&2
    exit 1
  fi
}

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v npm >/dev/null || missing+=(nodejs npm)
if [ "${#missing[@]}" -gt 0 ]; then
  quietly apt-update apt-get update
  quietly apt-install env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
quietly npm-ci npm ci --no-audit --no-fund

# The web app's scripts, type-checked (// @ts-check and JSDoc): all of them,
# and the strict ones strictly.
quietly tsc npx --no-install tsc -p tsconfig.json
quietly tsc-strict npx --no-install tsc -p tsconfig.strict.json

# The binary under test: LEGION_BIN if given (scripts/test.sh passes the one
# its `cargo test` already built, to spare CI a second full build), else the
# release binary, built here if out of date.
if [ -n "${LEGION_BIN:-}" ]; then
  [ -x "$LEGION_BIN" ] || { echo "e2e: LEGION_BIN=$LEGION_BIN is not an executable" >&2; exit 1; }
  export LEGION_BIN
else
  (cd "$ROOT" && quietly cargo cargo build --release -p legion-cli --locked)
fi

start=$(date +%s)
status=0
PLAYWRIGHT_JSON_OUTPUT_NAME="$LOG/results.json" \
  npx --no-install playwright test --reporter=list,json >"$LOG/tests.log" 2>&1 || status=$?
secs=$(( $(date +%s) - start ))

# The closing line: counts from the JSON report.
summary=$(node -e '
  const fs = require("fs");
  let report = {};
  try { report = JSON.parse(fs.readFileSync(process.argv[1], "utf8")); } catch {}
  const s = report.stats || {};
  const failed = (s.unexpected || 0) + (s.flaky || 0);
  // The slowest tests, so that a run that grew shows which.
  const times = [];
  const walk = (suite, file) => {
    for (const spec of suite.specs || []) {
      for (const t of spec.tests || []) {
        const ms = (t.results || []).reduce((a, r) => a + (r.duration || 0), 0);
        times.push([ms, `${file}: ${spec.title}`]);
      }
    }
    for (const child of suite.suites || []) walk(child, file);
  };
  for (const suite of report.suites || []) walk(suite, suite.file || suite.title);
  times.sort((a, b) => b[0] - a[0]);
  const slowest = times.slice(0, 3).map(([ms, name]) => `${name} ${(ms / 1000).toFixed(1)}s`).join("; ");
  console.log(`${s.expected || 0} passed, ${failed} failed` + (s.skipped ? `, ${s.skipped} skipped` : "") +
    (slowest ? `; slowest: ${slowest}` : ""));
' "$LOG/results.json")

if [ "$status" -ne 0 ]; then
  cat "$LOG/tests.log" >&2
  echo "e2e: $summary (${secs}s); traces of failures are in $E2E/test-results" >&2
  exit "$status"
fi
echo "e2e: $summary (${secs}s)"
