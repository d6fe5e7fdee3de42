#!/bin/sh
# Starts Chromium as an unprivileged user, with its sandbox on, for a Pluck running as root.
# Playwright runs this in Chromium's place (src/browser/chromium-process.ts); the environment
# says what to run and as whom. The process keeps its pid through every exec, so Playwright's
# pipe and its kill of the process group reach Chromium itself.
set -eu
: "${PLUCK_CHROMIUM_PATH:?}" "${PLUCK_CHROMIUM_USER:?}"
profile=""
for arg in "$@"; do
  case "$arg" in --user-data-dir=*) profile="${arg#--user-data-dir=}" ;; esac
done
[ -n "$profile" ] || { echo "chromium-as-user: no --user-data-dir given" >&2; exit 64; }
# Playwright made the profile directory as root (0700); the browser must own it.
chown -R "$PLUCK_CHROMIUM_USER:" "$profile"
exec setpriv --reuid="$PLUCK_CHROMIUM_USER" --regid="$(id -g "$PLUCK_CHROMIUM_USER")" --init-groups \
  --inh-caps=-all --bounding-set=-all --no-new-privs \
  env HOME="$profile" "$PLUCK_CHROMIUM_PATH" "$@"
