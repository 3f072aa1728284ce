# SPDX-License-Identifier: GPL-2.0-or-later
# tools/setup.sh -- sourced by tools/demo and tools/check: installs the
# Debian packages the build needs (libembree-dev: the simulator's mesh
# obstacles; the solver library does not link it), cmake (the install test builds a
# CMake project against the installed library), and Python 3 with NumPy and SciPy for
# the Python package python/corepcg and its tests, and venv, pip,
# setuptools and wheel to pip-install it offline (as root; otherwise
# prints the apt-get line and stops), then configures and builds into
# build/.
# Re-running it when nothing changed takes seconds.

COREPCG_PACKAGES="gcc libc6-dev locales pkg-config meson ninja-build cmake libsuitesparse-dev libopenblas-dev liblapacke-dev zlib1g-dev libembree-dev python3 python3-numpy python3-scipy python3-venv python3-pip python3-setuptools python3-wheel"

corepcg_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

corepcg_missing_packages() {
    local missing="" p
    for p in $COREPCG_PACKAGES "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
            || missing="$missing $p"
    done
    echo "$missing"
}

corepcg_install() {
    local missing
    missing=$(corepcg_missing_packages "$@")
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        echo "corepcg: missing Debian packages; run as root:" >&2
        echo "  apt-get update && apt-get install -y$missing" >&2
        return 1
    fi
    echo "corepcg: installing$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2 && apt-get install -y -qq $missing >&2
}

# corepcg_build BUILD_DIR [meson setup options...]; builds everything, or
# only the targets named in $corepcg_targets (e.g. "tools/corepcg").
corepcg_build() {
    local dir=$1
    shift
    cd "$corepcg_root" || return 1
    if [ ! -f "$dir/build.ninja" ]; then
        meson setup "$dir" "$@" >&2 || return 1
    fi
    # shellcheck disable=SC2086 -- a list of target names
    meson compile -C "$dir" ${corepcg_targets:-} >&2
}

# corepcg_methods CLI: the methods CLI offers, space-separated (its `solve
# --help` --method line: the library's table, auto first); fails when it
# lists none. The one reading of that line, so that no script writes the
# list out (tests/methods_named.sh).
corepcg_methods() {
    local methods
    methods=$("$1" solve --help | sed -n 's/^ *--method \([^ ]*\).*/\1/p' | tr '|' ' ')
    [ -n "$methods" ] || { echo "corepcg: $1 solve --help lists no methods" >&2; return 1; }
    echo "$methods"
}
