# SPDX-License-Identifier: GPL-2.0-or-later
"""Finds and loads libcorepcg.so, and declares its functions' prototypes.

Lookup order (the first that exists is loaded; a failure to load it is an
error, not a reason to try the next):
  1. the path in the environment variable COREPCG_LIBRARY;
  2. when this package is the repository's python/corepcg (not an
     installed copy), the repository's own builds: build/src/ (the
     README's `meson setup build`), then build-rel/src/;
  3. pkg-config's libdir of corepcg (`pkg-config --variable=libdir
     corepcg`: PKG_CONFIG_PATH names a custom prefix);
  4. the libdir meson installed the library to, recorded in
     _install_paths.py when `meson install` (-Dpython=true) installed this
     package; then next to sys.prefix (a venv that meson installed into:
     --prefix=VENV);
  5. the system: by name through the dynamic loader (LD_LIBRARY_PATH,
     ld.so.cache), then the usual library folders.
ctypes.util.find_library is not used: when ldconfig does not know the
library it runs the C compiler, and importing this package must not."""
import ctypes
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

from . import _cdefs

try:  # written by meson at install time; absent in the source tree
    from ._install_paths import LIBDIR as _INSTALLED_LIBDIR
except ImportError:
    _INSTALLED_LIBDIR = None

LIBRARY_ENV = "COREPCG_LIBRARY"
LIBRARY_FILE = "libcorepcg.so"
SONAMES = ("libcorepcg.so.0.2", LIBRARY_FILE)
_REPO = Path(__file__).resolve().parent.parent.parent
_BUILD_DIRS = ("build", "build-rel")
_MULTIARCH = sysconfig.get_config_var("MULTIARCH") or "x86_64-linux-gnu"
# meson's default libdir on Debian is lib/<multiarch>; elsewhere lib64, lib
_PREFIX_LIBDIRS = (f"lib/{_MULTIARCH}", "lib64", "lib")
_LIB_DIRS = tuple(f"{prefix}/{d}" for prefix in ("/usr/local", "/usr")
                  for d in _PREFIX_LIBDIRS)


class LibraryNotFoundError(ImportError):
    """No libcorepcg.so could be loaded; the message lists what was tried."""


def _in_repository():
    """This package is python/corepcg of a source tree (not installed)."""
    return (_REPO / "meson.build").is_file() and \
        (_REPO / "include" / "corepcg.h").is_file()


def _pkg_config_libdir():
    """pkg-config's libdir of corepcg, or None (no pkg-config, no .pc)."""
    try:
        proc = subprocess.run(["pkg-config", "--variable=libdir", "corepcg"],
                              capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    libdir = proc.stdout.strip()
    return libdir if proc.returncode == 0 and libdir else None


def _candidates():
    """(description, path or soname) in lookup order."""
    env = os.environ.get(LIBRARY_ENV)
    if env:
        yield f"${LIBRARY_ENV}", env
        return  # an explicit choice: never fall back to another copy
    if _in_repository():
        for build in _BUILD_DIRS:
            yield "repository build", str(_REPO / build / "src" / LIBRARY_FILE)
    libdir = _pkg_config_libdir()
    if libdir:
        yield "pkg-config libdir", os.path.join(libdir, LIBRARY_FILE)
    else:
        yield "pkg-config libdir", "(pkg-config --variable=libdir corepcg: none)"
    if _INSTALLED_LIBDIR:
        yield "meson install libdir", os.path.join(_INSTALLED_LIBDIR,
                                                   LIBRARY_FILE)
    for d in _PREFIX_LIBDIRS:
        yield "next to sys.prefix", os.path.join(sys.prefix, d, LIBRARY_FILE)
    for soname in SONAMES:
        yield "dynamic loader", soname
    for folder in _LIB_DIRS:
        yield "library folder", os.path.join(folder, LIBRARY_FILE)


def _load():
    tried = []
    for how, where in _candidates():
        if where.startswith("("):  # a lookup that found no path
            tried.append(f"  {how}: {where}")
            continue
        is_path = os.sep in where
        if is_path and not os.path.exists(where):
            tried.append(f"  {how}: {where} (no such file)")
            if how == f"${LIBRARY_ENV}":
                break
            continue
        try:
            return how, ctypes.CDLL(where)
        except OSError as err:
            tried.append(f"  {how}: {where} ({err})")
            if is_path:  # it exists but does not load: say so, do not hide it
                break
    raise LibraryNotFoundError(
        "corepcg: cannot load the shared library libcorepcg.so. Tried:\n"
        + "\n".join(tried)
        + "\nBuild it in the repository (meson setup build && meson compile"
        " -C build), install it (meson install; under a custom prefix set "
        "PKG_CONFIG_PATH to its pkgconfig folder), or set COREPCG_LIBRARY "
        "to its path.")


def _declare(lib):
    for name, restype, argtypes in _cdefs.PROTOTYPES:
        try:
            fn = getattr(lib, name)
        except AttributeError:
            raise LibraryNotFoundError(
                f"corepcg: {lib._name} has no {name}: not the corepcg "
                f"library this package was made for (an older version, or "
                f"another library; ${LIBRARY_ENV} or the lookup found it)") \
                from None
        fn.restype = restype
        fn.argtypes = list(argtypes)
    return lib


found_by, _lib = _load()  # found_by: which step of the lookup, for tests
lib = _declare(_lib)
path = lib._name  # what was loaded, for messages and tests

# The C library's free(), for the one array the library allocates for us
# (corepcg_vector_read).
libc = ctypes.CDLL(None)
libc.free.restype = None
libc.free.argtypes = [ctypes.c_void_p]


def text(raw):
    """A char * from the library as str."""
    return raw.decode("utf-8", "replace") if raw is not None else ""
