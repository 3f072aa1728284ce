#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_locale under a comma-decimal locale (de_DE, generated here with
# localedef into a temporary LOCPATH: a fresh machine has C and C.UTF-8
# only; the definitions come with Debian's `locales`, which tools/setup.sh
# installs). Usage: locale_io.sh TEST_LOCALE_BINARY
set -euo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! localedef -i de_DE -f UTF-8 "$tmp/de_DE.UTF-8" 2>"$tmp/localedef.log"; then
    # localedef warns (exit 1) yet writes the locale; no locale is a failure
    [ -d "$tmp/de_DE.UTF-8" ] || { cat "$tmp/localedef.log"; echo "0 passed, 1 failed: no de_DE locale (apt-get install locales)"; exit 1; }
fi
mkdir "$tmp/out"
LOCPATH=$tmp LC_ALL=de_DE.UTF-8 "$bin" "$tmp/out"
