#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs the build into a scratch prefix and builds examples/step_loop.c
# against the installed header and library through pkg-config alone, then
# runs it (it checks its own answers). Usage: install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
meson install -C "$build" --destdir "$dest" --no-rebuild --quiet >/dev/null
prefix=$(meson introspect "$build" --buildoptions | sed -n 's/.*"name": "prefix", "value": "\([^"]*\)".*/\1/p')
[ -n "$prefix" ] || prefix=/usr/local
pc=$(find "$dest" -name corepcg.pc | head -n 1)
[ -n "$pc" ] || { echo "corepcg.pc not installed"; exit 1; }
libdir=$(dirname "$(dirname "$pc")")
bin=$(find "$dest" -path '*/bin/corepcg' | head -n 1)
[ -x "$bin" ] || { echo "corepcg not installed to bin"; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$dest
# A sanitized library (tools/check --sanitize) needs its runtime in the program.
san=$(meson introspect "$build" --buildoptions | sed -n 's/.*"name": "b_sanitize", "value": "\([^"]*\)".*/\1/p')
sanitize=()
[ -z "$san" ] || [ "$san" = none ] || sanitize=(-fsanitize="$san")
cc -std=c11 "${sanitize[@]}" -o "$dest/step_loop" "$src/examples/step_loop.c" \
    $(pkg-config --cflags --libs corepcg)
LD_LIBRARY_PATH=$libdir "$dest/step_loop"
# one version: pkg-config's, the installed CLI's (the library's) and the
# installed header's
want="corepcg $(pkg-config --modversion corepcg)"
got=$(LD_LIBRARY_PATH=$libdir "$bin" --version)
[ "$got" = "$want" ] || { echo "version: CLI says '$got', pkg-config '$want'"; exit 1; }
grep -q "COREPCG_VERSION \"${want#corepcg }\"" "$(find "$dest" -name corepcg_version.h | head -n 1)" \
    || { echo "corepcg_version.h not installed or disagrees"; exit 1; }
