#!/usr/bin/env bash
# Installs what Pluck needs on a fresh Debian machine with Node 20: npm packages from the lock
# file, and the Debian packages below when they are missing. Safe to run again: it skips what is
# present.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_install() {
  echo "ensure-deps: installing Debian's $*" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

# chromium-headless-shell: the browser Pluck runs by default (CHROMIUM_PATH's default,
# /usr/lib/chromium/chromium-headless-shell). chromium: the full build, which stays supported and
# which test/web/chromium-builds.test.ts runs beside the shell.
# fonts-noto-color-emoji: without a colour emoji font, emoji in screenshots and PDFs come out as
# empty boxes or black outlines, on both builds alike. fonts-liberation: Arial, Times and Courier
# metrics (chromium-common only recommends it, so an install without recommends lacks it).
missing=()
for package in chromium-headless-shell chromium fonts-noto-color-emoji fonts-liberation; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
if [ -n "${CHROMIUM_PATH:-}" ] && [ ! -x "$CHROMIUM_PATH" ]; then
  echo "ensure-deps: CHROMIUM_PATH=$CHROMIUM_PATH is not an executable; Pluck will not start a browser" >&2
fi

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
