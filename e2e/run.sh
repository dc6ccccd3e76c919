#!/usr/bin/env bash
# The end-to-end browser tests, as CI runs them: Debian's Chromium (installed
# if missing), the pinned Playwright (no browser download), the release
# binary (built if out of date), then the tests. Quiet on success: one
# closing line. On failure it prints what failed and exits non-zero.
set -euo pipefail
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

(cd "$ROOT" && quietly cargo cargo build --release -p legion-cli --locked)

start=$(date +%s)
status=0
PLAYWRIGHT_JSON_OUTPUT_NAME="$LOG/results.json" \
  npx --no-install playwright test --reporter=list,json >"$LOG/tests.log" 2>&1 || status=$?
secs=$(( $(date +%s) - start ))

# The closing line: counts from the JSON report.
summary=$(node -e '
  const fs = require("fs");
  let s = {};
  try { s = JSON.parse(fs.readFileSync(process.argv[1], "utf8")).stats || {}; } catch {}
  const failed = (s.unexpected || 0) + (s.flaky || 0);
  console.log(`${s.expected || 0} passed, ${failed} failed` + (s.skipped ? `, ${s.skipped} skipped` : ""));
' "$LOG/results.json")

if [ "$status" -ne 0 ]; then
  cat "$LOG/tests.log" >&2
  echo "e2e: $summary (${secs}s); traces of failures are in $E2E/test-results" >&2
  exit "$status"
fi
echo "e2e: $summary (${secs}s)"
