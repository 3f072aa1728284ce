#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A new cloth force model is its file, its row, its meson line and its
# test (docs/design.md, "Adding a force model"): in a copy of the tree,
# add a model "none" (gravity and this step's contact springs only: no
# force between the nodes) by those three edits alone, check that the
# copy differs from the tree in exactly those files, build the tool, and
# check that `corepcg gen --model none` writes a system whose A is the
# masses and whose b is gravity's impulse, that --help lists it and that
# it refuses fem's --poisson.
# Usage: scratch_force_model.sh SOURCE_ROOT
set -euo pipefail
root=$(cd "$1" && pwd)
copy=$(mktemp -d "${TMPDIR:-/tmp}/scratch_force_model.XXXXXX")
trap 'rm -rf "$copy"' EXIT
fail() { echo "$*"; echo "0 passed, 1 failed"; exit 1; }

# the tree as committed and as being edited, without build directories
mkdir "$copy/tree" "$copy/base"
if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$root" && git ls-files -z --cached --others --exclude-standard) |
        (cd "$root" && tar --null -T - -cf -) | tee >(tar -xf - -C "$copy/base") |
        tar -xf - -C "$copy/tree"
else
    tar -C "$root" --exclude='./build*' -cf - . | tee >(tar -xf - -C "$copy/base") |
        tar -xf - -C "$copy/tree"
fi
wait
t=$copy/tree

# 1. its file: its row
cat > "$t/cloth/none_model.c" <<'MODEL'
/* SPDX-License-Identifier: GPL-2.0-or-later */
/* none_model.c -- a force model without forces between the nodes:
 * gravity and this step's contact springs only (tests/scratch_force_model.sh). */
#include "cloth_model.h"
#include "cloth_sim.h"

#include <stdio.h>

static void none_add_system(cloth_sim *sim)
{
    cloth_add_inertia(sim);
    cloth_add_springs(sim, sim->model.num_fixed);
}

static double none_energy(const cloth_sim *sim)
{
    (void)sim;
    return 0.0;
}

static void none_summary(const cloth_params *par, char *buf, size_t len)
{
    (void)par;
    snprintf(buf, len, ", no forces");
}

const cloth_force_model_ops cloth_none_ops = {
    .name = "none",
    .description = "gravity alone, the nodes unconnected",
    .needs_mesh = 0,
    .params = 0,
    .add_system = none_add_system,
    .energy = none_energy,
    .summary = none_summary,
};
MODEL
# 2. its row: the extern and a line in rows[]
sed -i 's/^extern const cloth_force_model_ops cloth_fem_ops;/&\nextern const cloth_force_model_ops cloth_none_ops;/' \
    "$t/cloth/force_model.c"
sed -i 's/^    \[CLOTH_MODEL_FEM\] = &cloth_fem_ops,/&\n    \&cloth_none_ops,/' "$t/cloth/force_model.c"
# 3. its meson line
sed -i "s|^  'spring_model.c',|&\n  'none_model.c',|" "$t/cloth/meson.build"
grep -q cloth_none_ops "$t/cloth/force_model.c" && grep -q '&cloth_none_ops,' "$t/cloth/force_model.c" &&
    grep -q none_model.c "$t/cloth/meson.build" || fail "the scratch edits did not apply"

# exactly the checklist's files differ
changed=$({ diff -rq "$copy/base" "$t" || true; } | sed "s|$copy/base/||; s|$t/||" | sort | tr '\n' ';')
expected="Files cloth/force_model.c and cloth/force_model.c differ;Files cloth/meson.build and cloth/meson.build differ;Only in cloth: none_model.c;"
[ "$changed" = "$expected" ] || fail "the copy differs in other files than the checklist's: $changed"

# the library and the tool alone, unoptimised
meson setup "$copy/build" "$t" -Dtests=false -Dpython=false -Doptimization=0 >"$copy/setup.log" 2>&1 ||
    { tail -n 20 "$copy/setup.log"; fail "meson setup failed"; }
meson compile -C "$copy/build" -j 1 tools/corepcg >"$copy/compile.log" 2>&1 ||
    { tail -n 30 "$copy/compile.log"; fail "the scratch tree does not build"; }

cli=$copy/build/tools/corepcg
out=$("$cli" gen free --size 5 --model none --steps 3 --out "$copy/free") ||
    fail "gen --model none failed: $out"
# A: the masses on the diagonal (9.5e-6 kg a node), no other value
awk 'FNR > 2 && $1 != $2 && $3 != 0 { bad++ }
     FNR > 2 && $1 == $2 && ($3 - 9.5e-6 > 1e-18 || 9.5e-6 - $3 > 1e-18) { bad++ }
     FNR > 2 && $1 == $2 { diagonal++ }
     END { exit !(bad == 0 && diagonal == 75) }' "$copy/free/A.mtx" ||
    fail "A is not the 75 masses alone: $(head -n 5 "$copy/free/A.mtx")"
# b: gravity's impulse -h m g on z (h 6.67 ms), 0 on x and y
awk 'FNR > 2 { k++; want = (k % 3 == 0) ? -6.67e-3 * 9.5e-6 * 9.81 : 0;
               d = $1 - want; if (d > 1e-18 || d < -1e-18) bad++ }
     END { exit !(bad == 0 && k == 75) }' "$copy/free/b.mtx" ||
    fail "b is not gravity's impulse: $(head -n 5 "$copy/free/b.mtx")"
"$cli" gen --help | grep -q "| none (gravity alone, the nodes unconnected)" ||
    fail "gen --help does not list none"
out=$("$cli" gen free --size 5 --model none --poisson 0.3 --out "$copy/x" 2>&1) &&
    fail "--model none took --poisson"
grep -q -- "--poisson applies to --model fem only" <<<"$out" || fail "the refusal: $out"
out=$("$cli" gen hang --mesh "$root/data/meshes/tshirt_coarse.obj" --model none --steps 2 \
      --out "$copy/hang") || fail "gen hang --model none failed: $out"
grep -q "(414 vertices), no forces," <<<"$out" || fail "gen's summary lacks the row's: $out"
echo "gen --model none: A the masses, b gravity's; listed; refuses --poisson"
echo "1 passed, 0 failed"
