#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A new method is its file, its registry row, its meson line and its test
# (docs/design.md, "Adding a method"): in a copy of the tree, add a method
# "scratch" by those three edits alone (its file: upcg's, renamed, with a
# report item of its own beside its ops), build only the library and the
# tool, and check that `corepcg solve --method scratch` runs, lists it and
# prints its item, and that Python's `import corepcg` has it
# (Method.SCRATCH), solves with it and reports its item.
# Usage: scratch_method.sh SOURCE_ROOT PYTHON3
set -euo pipefail
root=$(cd "$1" && pwd)
python=$2
copy=$(mktemp -d "${TMPDIR:-/tmp}/scratch_method.XXXXXX")
trap 'rm -rf "$copy"' EXIT
fail() { echo "$*"; echo "0 passed, 1 failed"; exit 1; }

# the tree as committed and as being edited, without build directories
if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$root" && git ls-files -z --cached --others --exclude-standard) |
        (cd "$root" && tar --null -T - -cf -) | tar -xf - -C "$copy"
else
    tar -C "$root" --exclude='./build*' -cf - . | tar -xf - -C "$copy"
fi

# 1. its file: the ops of a method (upcg's loop, under the new name)
m=$copy/src/methods
sed 's/cpg_upcg_ops/cpg_scratch_ops/; s/^\/\* method_upcg\.c/\/* method_scratch.c/' \
    "$m/method_upcg.c" > "$m/method_scratch.c"
#    and a report item of its own, described beside its ops
cat > "$copy/item.c" <<'ITEM'
static double scratch_unknowns(const void *state, const corepcg_info *rec)
{
    (void)state;
    return rec->r;
}

static const cpg_report_item scratch_report[] = {
    {{"scratch_unknowns", COREPCG_VALUE_INT, "unknowns", "what it solved for"},
     scratch_unknowns, NULL},
};

ITEM
awk -v item="$copy/item.c" '/^const cpg_method_ops cpg_scratch_ops = [{]/ {
        while ((getline line < item) > 0) print line
        print; print "    .report = scratch_report,"; print "    .report_count = 1,"; next
    } { print }' "$m/method_scratch.c" > "$copy/scratch.c" && mv "$copy/scratch.c" "$m/method_scratch.c"
rm "$copy/item.c"
# 2. its registry row (before auto's, auto last), valued after the
#    header's constants and the rows added since, and the extern of its ops
added=$(grep -c '^    {\.method = (corepcg_method)COREPCG_METHODS_NAMED' "$m/registry.c" || true)
sed -i 's/^extern const cpg_method_ops cpg_auto_ops;/&\nextern const cpg_method_ops cpg_scratch_ops;/' \
    "$m/registry.c"
sed -i 's|^    {\.method = COREPCG_METHOD_AUTO,|    {.method = (corepcg_method)COREPCG_METHODS_NAMED + '"$added"', .name = "scratch", .ops = \&cpg_scratch_ops, .options = ITERATES \| CPG_TAKES(COREPCG_OPTION_PRECOND)},\n&|' \
    "$m/registry.c"
# 3. its meson line
sed -i "s|^  'methods/method_upcg.c',|&\n  'methods/method_scratch.c',|" "$copy/src/meson.build"
grep -q cpg_scratch_ops "$m/registry.c" && grep -q '"scratch"' "$m/registry.c" &&
    grep -q method_scratch "$copy/src/meson.build" || fail "the scratch edits did not apply"

# the library and the tool alone, unoptimised: what a new method must
# build with (the tests' build is the suite's own)
meson setup "$copy/build" "$copy" -Dtests=false -Dpython=false -Doptimization=0 >"$copy/setup.log" 2>&1 ||
    { tail -n 20 "$copy/setup.log"; fail "meson setup failed"; }
meson compile -C "$copy/build" -j 2 tools/corepcg >"$copy/compile.log" 2>&1 ||
    { tail -n 30 "$copy/compile.log"; fail "the scratch tree does not build"; }

cli=$copy/build/tools/corepcg
out=$("$cli" solve "$root/data/tiny" --method scratch --json) ||
    fail "corepcg solve --method scratch failed"
grep -q '"method": "scratch"' <<<"$out" || fail "solve did not run scratch: $out"
grep -q '"converged": true' <<<"$out" || fail "scratch did not converge: $out"
grep -q '"scratch_unknowns": 6' <<<"$out" || fail "solve --json lacks scratch's item: $out"
out=$("$cli" solve "$root/data/tiny" --method scratch) || fail "the summary of scratch failed"
grep -qx 'scratch_unknowns  6 unknowns' <<<"$out" || fail "the summary lacks scratch's item: $out"
out=$("$cli" solve "$root/data/tiny" --method upcg --json) || fail "upcg failed"
grep -q '"scratch_unknowns": 0' <<<"$out" || fail "another method's JSON lacks the item at 0: $out"
"$cli" solve --help | grep -qw scratch || fail "solve --help does not list scratch"
"$cli" solve "$root/data/tiny" --method scratch --ordering amd >/dev/null 2>&1 &&
    fail "scratch took --ordering, which its row does not list"

lib=$(ls "$copy"/build/src/libcorepcg.so.*.*.* | head -n 1)
COREPCG_LIBRARY=$lib PYTHONPATH=$copy/python "$python" - "$root/data/tiny" <<'PY' ||
import sys
import corepcg
assert "scratch" in corepcg.Method.labels(), corepcg.Method.labels()
assert corepcg.Method.SCRATCH.label == "scratch"
assert corepcg.Method.AUTO.label == "auto" and corepcg.Method.MPCG_BW == 4
d = corepcg.read_bundle(sys.argv[1])
x, info = corepcg.solve(d["A"], d["b"], constraints=d["constraints"],
                        z=d["z"], method="scratch", precond="block")
assert info["method"] == "scratch" and info["converged"], info
assert info["scratch_unknowns"] == 6, info
try:
    corepcg.Solver(d["A"], method="scratch", ordering="amd")
    raise SystemExit("scratch took ordering")
except corepcg.ArgumentError as e:
    assert "does not take ordering" in e.message, e.message
print("python: scratch listed and solved,", info["iterations"], "iterations")
PY
    fail "Python does not list or run scratch"
echo "1 passed, 0 failed"
