#!/usr/bin/env bash
# Runs the whole test suite: type check, then every vitest suite (SQLite always; PostgreSQL and
# Redis when reachable, and required when CI=true). Ends with one "N passed, N failed" line.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh || exit 1
npm run typecheck --silent || exit 1

report=$(mktemp)
npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@"
status=$?
node -e '
  const fs = require("fs");
  try {
    const r = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    const skipped = r.numPendingTests + r.numTodoTests;
    console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed` + (skipped ? `, ${skipped} skipped` : ""));
  } catch { console.log("0 passed, 1 failed"); }
' "$report"
rm -f "$report"
exit $status
