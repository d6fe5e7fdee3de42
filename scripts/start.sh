#!/usr/bin/env bash
# Starts Pluck on the embedded default: SQLite and files under ./data, in-process limits, local
# Chromium. Any configuration variable from the README can be set in the environment.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
npm run build --silent
exec npm start --silent
