# SPDX-License-Identifier: GPL-2.0-or-later
"""Finds and loads libcorepcg.so, and declares its functions' prototypes.

Lookup order (the first that exists is loaded; a failure to load it is an
error, not a reason to try the next):
  1. the path in the environment variable COREPCG_LIBRARY;
  2. the repository's own builds, next to this package: build/src/ (the
     README's `meson setup build`), then build-rel/src/;
  3. an installed copy, by its name through the dynamic loader (which reads
     LD_LIBRARY_PATH and ld.so.cache), then in the usual library folders.
ctypes.util.find_library is not used: when ldconfig does not know the
library it runs the C compiler, and importing this package must not."""
import ctypes
import os
import sysconfig
from pathlib import Path

from . import _cdefs

LIBRARY_ENV = "COREPCG_LIBRARY"
SONAMES = ("libcorepcg.so.0", "libcorepcg.so")
_REPO = Path(__file__).resolve().parent.parent.parent
_BUILD_DIRS = ("build", "build-rel")
_MULTIARCH = sysconfig.get_config_var("MULTIARCH") or "x86_64-linux-gnu"
_LIB_DIRS = (f"/usr/local/lib/{_MULTIARCH}", "/usr/local/lib64",
             "/usr/local/lib", f"/usr/lib/{_MULTIARCH}", "/usr/lib64",
             "/usr/lib")


class LibraryNotFoundError(ImportError):
    """No libcorepcg.so could be loaded; the message lists what was tried."""


def _candidates():
    """(description, path or soname) in lookup order."""
    env = os.environ.get(LIBRARY_ENV)
    if env:
        yield f"${LIBRARY_ENV}", env
        return  # an explicit choice: never fall back to another copy
    for build in _BUILD_DIRS:
        yield "repository build", str(_REPO / build / "src" / "libcorepcg.so")
    for soname in SONAMES:
        yield "dynamic loader", soname
    for folder in _LIB_DIRS:
        yield "library folder", os.path.join(folder, "libcorepcg.so")


def _load():
    tried = []
    for how, where in _candidates():
        is_path = os.sep in where
        if is_path and not os.path.exists(where):
            tried.append(f"  {how}: {where} (no such file)")
            if how == f"${LIBRARY_ENV}":
                break
            continue
        try:
            return ctypes.CDLL(where)
        except OSError as err:
            tried.append(f"  {how}: {where} ({err})")
            if is_path:  # it exists but does not load: say so, do not hide it
                break
    raise LibraryNotFoundError(
        "corepcg: cannot load the shared library libcorepcg.so. Tried:\n"
        + "\n".join(tried)
        + "\nBuild it in the repository (meson setup build && meson compile"
        " -C build), install it, or set COREPCG_LIBRARY to its path.")


def _declare(lib):
    for name, restype, argtypes in _cdefs.PROTOTYPES:
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = list(argtypes)
    return lib


lib = _declare(_load())
path = lib._name  # what was loaded, for messages and tests

# The C library's free(), for the one array the library allocates for us
# (corepcg_vector_read).
libc = ctypes.CDLL(None)
libc.free.restype = None
libc.free.argtypes = [ctypes.c_void_p]


def text(raw):
    """A char * from the library as str."""
    return raw.decode("utf-8", "replace") if raw is not None else ""
