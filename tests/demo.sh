#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/demo names the fastest method only when its warm step is long
# enough to time: below the floor it says it names none, above it names
# one. The floor is set here, not the machine's speed (a sanitizer or a
# loaded machine may take data/tiny's microseconds past the default
# 1e-4 s): 10 s for data/tiny, whose steps never take that long, and the
# default for data/ballhit41-k60, whose steps take milliseconds. There
# it also says what auto's warm steps ran (one method or several).
# Usage: demo.sh SOURCE_DIR (COREPCG_CLI and COREPCG_DATA_DIR set)
set -euo pipefail
src=$1
fail() { echo "demo: $*"; echo "$out"; exit 1; }
out=$(COREPCG_DEMO_RANK_FLOOR_S=10 "$src/tools/demo" "$COREPCG_DATA_DIR/tiny")
grep -q "^fastest warm step: none named: the shortest took [0-9.]*e-[0-9]* s, under the 10 s" <<<"$out" \
    || fail "data/tiny: no 'none named' line"
! grep -q "faster than\|^  why:\|x the fastest" <<<"$out" || fail "data/tiny: methods ranked"
[ "$(grep -c "check failed\|failed (exit" <<<"$out")" = 0 ] || fail "data/tiny: a method failed"
out=$("$src/tools/demo" "$COREPCG_DATA_DIR/ballhit41-k60")
# the CLI's methods, "auto|amgpcg|...": no list written here (methods_named.sh)
source "$src/tools/setup.sh"
methods=$(corepcg_methods "$COREPCG_CLI" | tr ' ' '|')
grep -Eq "^fastest warm step: ($methods) \(0\.[0-9]{5} s, " <<<"$out" \
    || fail "data/ballhit41-k60: no fastest method named"
grep -q "^  why: " <<<"$out" || fail "data/ballhit41-k60: no reason given"
grep -Eq "^  auto, the default: [0-9.]+ x the fastest warm step; its 5 warm steps ran [a-z-]+ [0-9]" <<<"$out" \
    || fail "data/ballhit41-k60: auto's line does not say what its warm steps ran"
# The demo's check measures the written answers: a corepcg whose solve
# writes zeros (its printed figures unchanged) fails the demo (an
# outside review: the check's result was thrown away, so nothing failed).
fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
cat >"$fake/corepcg" <<FAKE
#!/usr/bin/env bash
out="" prev=""
for a in "\$@"; do [ "\$prev" = --out ] && out=\$a; prev=\$a; done
"$COREPCG_CLI" "\$@"; rc=\$?
if [ "\$1" = solve ] && [ -n "\$out" ] && [ -f "\$out" ]; then
    awk 'NR <= 2 || /^%/ { print; next } { print 0 }' "\$out" >"\$out.zero" && mv "\$out.zero" "\$out"
fi
exit \$rc
FAKE
chmod +x "$fake/corepcg"
rc=0
out=$(COREPCG_CLI="$fake/corepcg" COREPCG_DEMO_RANK_FLOOR_S=10 "$src/tools/demo" "$COREPCG_DATA_DIR/tiny" 2>&1) || rc=$?
[ "$rc" = 1 ] || fail "answers of zeros: exit $rc, not 1"
[ "$(grep -c "check failed: the written answer's relative residual" <<<"$out")" -ge 7 ] \
    || fail "answers of zeros: not every method's check failed"
# and a solve that fails (exit 1) fails the demo too (the review after:
# it printed "failed (exit 1)" for every method and exited 0)
cat >"$fake/corepcg" <<FAKE
#!/usr/bin/env bash
[ "\$1" = solve ] && [ "\$2" != --help ] && { echo "solve: refused" >&2; exit 1; }
exec "$COREPCG_CLI" "\$@"
FAKE
rc=0
out=$(COREPCG_CLI="$fake/corepcg" COREPCG_DEMO_RANK_FLOOR_S=10 "$src/tools/demo" "$COREPCG_DATA_DIR/tiny" 2>&1) || rc=$?
[ "$rc" = 1 ] || fail "every solve failing: exit $rc, not 1"
[ "$(grep -c ": failed (exit 1)" <<<"$out")" -ge 7 ] || fail "every solve failing: not said"
