#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs the build into a scratch prefix and builds examples/step_loop.c
# against the installed header and library twice -- through pkg-config
# alone, and as a CMake project (find_package(corepcg), the imported
# target corepcg::corepcg) -- then runs both (the example checks its own
# answers); the CMake build again with a libdir and includedir outside
# the prefix, configured -Dtests=false (nothing of the tests configured);
# the static variant's link list; the versions find_package accepts, a
# range among them, and the library file and soname the package records.
# Usage: install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
fail() { echo "install: $*"; exit 1; }
meson install -C "$build" --destdir "$dest" --no-rebuild --quiet >/dev/null
prefix=$(meson introspect "$build" --buildoptions | sed -n 's/.*"name": "prefix", "value": "\([^"]*\)".*/\1/p')
[ -n "$prefix" ] || prefix=/usr/local
pc=$(find "$dest" -name corepcg.pc | head -n 1)
[ -n "$pc" ] || fail "corepcg.pc not installed"
libdir=$(dirname "$(dirname "$pc")")
bin=$(find "$dest" -path '*/bin/corepcg' | head -n 1)
[ -x "$bin" ] || fail "corepcg not installed to bin"
export PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$dest
# A sanitized library (tools/check --sanitize) needs its runtime in the program.
san=$(meson introspect "$build" --buildoptions | sed -n 's/.*"name": "b_sanitize", "value": "\([^"]*\)".*/\1/p')
sanitize=()
[ -z "$san" ] || [ "$san" = none ] || sanitize=(-fsanitize="$san")

# pkg-config
cc -std=c11 "${sanitize[@]}" -o "$dest/step_loop" "$src/examples/step_loop.c" \
    $(pkg-config --cflags --libs corepcg)
LD_LIBRARY_PATH=$libdir "$dest/step_loop" >/dev/null || fail "the pkg-config build of step_loop failed"

# CMake: the package beside the library, found from the prefix alone
cmakedir=$libdir/cmake/corepcg
[ -f "$cmakedir/corepcgConfig.cmake" ] || fail "corepcgConfig.cmake not installed in $cmakedir"
[ -f "$cmakedir/corepcgConfigVersion.cmake" ] || fail "corepcgConfigVersion.cmake not installed in $cmakedir"
cmake -S "$src/examples/cmake" -B "$dest/cmake-build" -G Ninja \
    -DCMAKE_PREFIX_PATH="$dest$prefix" -DCMAKE_C_FLAGS="${sanitize[*]}" >"$dest/cmake.log" 2>&1 \
    || { cat "$dest/cmake.log"; fail "cmake could not configure examples/cmake"; }
cmake --build "$dest/cmake-build" >>"$dest/cmake.log" 2>&1 \
    || { cat "$dest/cmake.log"; fail "cmake could not build examples/cmake"; }
# linked with the installed library, found through the rpath CMake gives
# it (meson test points LD_LIBRARY_PATH at the build's copy)
cmake_exe=$dest/cmake-build/step_loop
linked=$(env -u LD_LIBRARY_PATH ldd "$cmake_exe" | grep libcorepcg || true)
[[ "$linked" == *"$libdir/libcorepcg.so"* ]] \
    || fail "the CMake build of step_loop is not linked with $libdir: '$linked'"
env -u LD_LIBRARY_PATH "$cmake_exe" >/dev/null || fail "the CMake build of step_loop failed"

# CMake with a libdir and an includedir outside the prefix, given as
# absolute paths: the package names them as they are. Only configured (a
# second build of the library would double the test): this build's
# installed library and headers are put where that configuration says.
# Configured as an install-only build is (README: -Dtests=false), which
# configures and compiles nothing of the tests: no target of tests/, none
# compiled with the tests' mode (COREPCG_TEST_BUILD), no test.
abs=$dest/abs
meson setup "$abs/build" "$src" --prefix="$abs/prefix" --libdir="$abs/lib" \
    --includedir="$abs/include" -Dtests=false >"$dest/abs.log" 2>&1 \
    || { cat "$dest/abs.log"; fail "meson could not configure with an absolute libdir"; }
test_only=$(meson introspect "$abs/build" --targets --tests | python3 -c '
import json, sys
found = json.load(sys.stdin)  # {"targets": [...], "tests": [...]}
targets, tests = found["targets"], found["tests"]
for t in targets:
    flags = [f for s in t["target_sources"] for f in s.get("parameters", [])]
    if "/tests/" in t["defined_in"] or "-DCOREPCG_TEST_BUILD" in flags:
        print(t["name"])
for t in tests:
    print("test " + t["name"])
') || fail "meson introspect failed on the -Dtests=false build"
[ -z "$test_only" ] || fail "-Dtests=false still configures: $(echo $test_only)"
abs_config=$abs/build/src/cmake/corepcgConfig.cmake
! grep -n 'PACKAGE_PREFIX_DIR}//' "$abs_config" \
    || fail "corepcgConfig.cmake appends an absolute libdir or includedir to the prefix"
mkdir -p "$abs/lib/cmake/corepcg" "$abs/include"
cp "$abs_config" "$abs/build/src/cmake/corepcgConfigVersion.cmake" "$abs/lib/cmake/corepcg/"
cp -P "$libdir"/libcorepcg.so* "$abs/lib/"
cp "$(dirname "$(find "$dest" -name corepcg.h | head -n 1)")"/corepcg*.h "$abs/include/"
cmake -S "$src/examples/cmake" -B "$abs/cmake-build" -G Ninja \
    -Dcorepcg_DIR="$abs/lib/cmake/corepcg" -DCMAKE_C_FLAGS="${sanitize[*]}" \
    >"$dest/abs.log" 2>&1 && cmake --build "$abs/cmake-build" >>"$dest/abs.log" 2>&1 \
    || { cat "$dest/abs.log"; fail "cmake could not build examples/cmake with an absolute libdir"; }
linked=$(env -u LD_LIBRARY_PATH ldd "$abs/cmake-build/step_loop" | grep libcorepcg || true)
[[ "$linked" == *"$abs/lib/libcorepcg.so"* ]] \
    || fail "the CMake build of step_loop is not linked with $abs/lib: '$linked'"
env -u LD_LIBRARY_PATH "$abs/cmake-build/step_loop" >/dev/null \
    || fail "the CMake build of step_loop with an absolute libdir failed"

# The static variant's link list is the library's dependencies as meson
# found them: each one named, the library itself not. Only configured:
# linking a program against it would need a second, static build.
meson setup "$dest/static" "$src" -Ddefault_library=static >"$dest/static.log" 2>&1 \
    || { cat "$dest/static.log"; fail "meson could not configure a static library"; }
links=$(sed -n 's/.*INTERFACE_LINK_LIBRARIES "\(.*\)")$/;\1;/p' \
    "$dest/static/src/cmake/corepcgConfig.cmake")
for want in -lcholmod -lsuitesparseconfig -lopenblas -llapacke -fopenmp -pthread -lm; do
    [[ "$links" == *";$want;"* ]] \
        || fail "the static corepcgConfig.cmake links no $want: '$links'"
done
[[ "$links" != *";-lcorepcg;"* ]] || fail "the static corepcgConfig.cmake links itself: '$links'"

# one version: pkg-config's, the installed CLI's (the library's), the
# installed header's and the CMake package's
version=$(pkg-config --modversion corepcg)
got=$(LD_LIBRARY_PATH=$libdir "$bin" --version)
[ "$got" = "corepcg $version" ] || fail "version: CLI says '$got', pkg-config '$version'"
grep -q "COREPCG_VERSION \"$version\"" "$(find "$dest" -name corepcg_version.h | head -n 1)" \
    || fail "corepcg_version.h not installed or disagrees"
# find_package(corepcg X.Y): this version and its major.minor are
# accepted, the next minor (an interface change while major is 0) and
# the next major are not
IFS=. read -r major minor _ <<<"$version"
cat >"$dest/compatible.cmake" <<'CMAKE'
include("${VERSION_FILE}")
message("${PACKAGE_VERSION} ${PACKAGE_VERSION_COMPATIBLE}")
CMAKE
# X.Y, or a range MIN...MAX / MIN...<MAX as find_package hands it over
compatible() {
    local min=${1%%...*} max= last=INCLUDE range=()
    if [[ "$1" == *...* ]]; then
        max=${1#*...}
        [[ "$max" != "<"* ]] || { max=${max#<}; last=EXCLUDE; }
        range=(-DPACKAGE_FIND_VERSION_RANGE="$1" -DPACKAGE_FIND_VERSION_MIN="$min"
               -DPACKAGE_FIND_VERSION_MAX="$max" -DPACKAGE_FIND_VERSION_RANGE_MIN=INCLUDE
               -DPACKAGE_FIND_VERSION_RANGE_MAX="$last")
    fi
    cmake -DPACKAGE_FIND_VERSION="$min" -DPACKAGE_FIND_VERSION_MAJOR="${min%%.*}" \
          -DPACKAGE_FIND_VERSION_MINOR="$(cut -d. -f2 <<<"$min")" "${range[@]}" \
          -DVERSION_FILE="$cmakedir/corepcgConfigVersion.cmake" -P "$dest/compatible.cmake"
}
# a range that holds this version is accepted (0.1...0.3 for 0.2.0), one
# that does not, or ends just below it, is not
lower=$major.$((minor > 0 ? minor - 1 : 0))
for want in "$version TRUE" "$major.$minor TRUE" "$major.$((minor + 1)) FALSE" \
            "$((major + 1)).0 FALSE" "$lower...$major.$((minor + 1)) TRUE" \
            "$major.$minor...<$major.$((minor + 1)) TRUE" "$lower...<$version FALSE" \
            "$major.$((minor + 1))...$((major + 1)).0 FALSE"; do
    got=$(compatible "${want% *}" 2>&1)
    [ "$got" = "$version ${want#* }" ] || fail "corepcgConfigVersion.cmake asked for ${want% *}: '$got', want '$version ${want#* }'"
done

# find_package with a version range in a CMake project, and the files the
# package records: the library and its soname, both there, the soname the
# library's own
mkdir -p "$dest/range"
cat >"$dest/range/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.19)
project(range NONE)
find_package(corepcg $lower...$major.$((minor + 1)) REQUIRED)
get_target_property(location corepcg::corepcg IMPORTED_LOCATION)
get_target_property(soname corepcg::corepcg IMPORTED_SONAME)
message(STATUS "corepcg: \${location} \${soname}")
CMAKE
# (no language, so no compiler to find: the package's directory given)
cmake -S "$dest/range" -B "$dest/range/build" -Dcorepcg_DIR="$cmakedir" >"$dest/range.log" 2>&1 \
    || { cat "$dest/range.log"; fail "find_package(corepcg $lower...$major.$((minor + 1))) refused $version"; }
read -r location soname < <(sed -n 's/^-- corepcg: //p' "$dest/range.log")
[ -f "$location" ] || fail "corepcgConfig.cmake records the library as '$location', which is not installed"
[ -e "$(dirname "$location")/$soname" ] \
    || fail "corepcgConfig.cmake records the soname '$soname', which is not installed beside $location"
own=$(objdump -p "$location" | sed -n 's/^ *SONAME *//p')
[ "$soname" = "$own" ] || fail "corepcgConfig.cmake records the soname '$soname', the library's is '$own'"
