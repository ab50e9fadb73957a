#!/usr/bin/env bash
# End-to-end tests of the web page: installs what is missing (Debian's chromium, a CJK font
# for the screenshots, poppler's pdftotext for the printed papers, playwright-core from
# package-lock.json), builds qipai-server, and runs the tests in headless Chromium.
# Screenshots go to e2e/artifacts/ (QIPAI_E2E_ARTIFACTS to change it). Run from anywhere;
# needs root (or the packages already there) and node >= 20.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
dpkg -s fonts-wqy-zenhei >/dev/null 2>&1 || missing+=(fonts-wqy-zenhei)
# pdftotext: the organiser's papers are printed to PDF and read back as text.
command -v pdftotext >/dev/null || missing+=(poppler-utils)
if [ ${#missing[@]} -gt 0 ]; then
  echo "== apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

echo "== npm ci (e2e/)"
(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)

# The test profile (opt-level 1) is the one `cargo test --workspace` already built the
# binary with, so after the Rust tests this is a no-op; its output is target/debug.
echo "== cargo build --profile test -p qipai-server"
(cd "$root" && cargo build --locked --profile test -p qipai-server --bin qipai-server)
export QIPAI_SERVER_BIN="$root/target/debug/qipai-server"

echo "== e2e tests (screenshots: ${QIPAI_E2E_ARTIFACTS:-$here/artifacts})"
cd "$here"
node --test --test-concurrency=1 --test-reporter=spec tests/
