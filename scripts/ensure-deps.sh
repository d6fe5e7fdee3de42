#!/usr/bin/env bash
# Installs what Pluck needs on a fresh Debian machine with Node 20: npm packages from the lock
# file, and Debian's chromium (or its headless shell, if CHROMIUM_PATH names it) when it is
# missing. Safe to run again: it skips what is present.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_install() {
  echo "ensure-deps: installing Debian's $1" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$1" >/dev/null
}

if [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  apt_install chromium
fi
# Chromium's headless shell, when CHROMIUM_PATH names Debian's (docs/browser-and-security.md).
case "${CHROMIUM_PATH:-}" in
  /usr/lib/chromium/chromium-headless-shell | /usr/bin/chromium-headless-shell)
    [ -x "$CHROMIUM_PATH" ] || apt_install chromium-headless-shell ;;
esac

# As root, Pluck runs Chromium (with its sandbox on) as this unprivileged user: Chromium refuses
# to sandbox itself as root. Its own user, so a browser exploit reaches nothing else's files.
chromium_user="${CHROMIUM_USER:-pluck-chromium}"
if [ "$(id -u)" -eq 0 ] && ! id "$chromium_user" >/dev/null 2>&1; then
  echo "ensure-deps: adding the user $chromium_user for Chromium" >&2
  useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$chromium_user"
fi

# Reinstall only when the lock file's content changed since the last install: its date changes
# with every fresh checkout, and a reinstall empties node_modules (shared, when it is a link).
stamp=node_modules/.pluck-lock-sha256
lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f node_modules/.package-lock.json ] || [ "$(cat "$stamp" 2>/dev/null)" != "$lock_sum" ]; then
  echo "ensure-deps: npm ci" >&2
  npm ci --no-audit --no-fund
  echo "$lock_sum" > "$stamp"
fi
