#!/usr/bin/env bash
# Installs what Pluck needs on a fresh Debian machine with Node 20: npm packages from the lock
# file, and Debian's chromium when it is missing. Safe to run again: it skips what is present.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  echo "ensure-deps: installing Debian's chromium" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

# Reinstall only when the lock file changed since the last install.
stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  echo "ensure-deps: npm ci" >&2
  npm ci --no-audit --no-fund
fi
