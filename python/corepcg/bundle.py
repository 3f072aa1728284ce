# SPDX-License-Identifier: GPL-2.0-or-later
"""System bundles (docs/format.md) and Matrix Market vectors, read and
written by the library's own reader and writer."""
import ctypes
import os
from ctypes import POINTER, byref, c_double

import numpy as np
import scipy.sparse as sp

from ._cdefs import Bundle, MSG_SIZE
from ._library import lib, libc, text
from ._matrix import INT_MAX
from ._system import CONSTRAINT_DTYPE, CSystem, real_array, vector
from . import errors


def _path(path):
    return os.fsencode(os.fspath(path))


def _copy(ptr, count, dtype):
    """A NumPy copy of count items at a C pointer (which the library will
    free), or None for NULL."""
    if not ptr:
        return None
    return np.ctypeslib.as_array(ptr, shape=(count,)).astype(dtype, copy=True)


def read_bundle(path):
    """Reads the bundle in directory path. Returns a dict:
      A              scipy.sparse.csc_matrix, full symmetric (both triangles)
      b              float64 (n,)
      z, x0          float64 (n,), or None when z.mtx / x0.mtx is absent
      constraints    structured array (fields node, ndof, p, q), maybe empty
      stretch_pairs  int32 (k, 2), i < j, ordered; (0, 2) when absent
    write_bundle(path, **read_bundle(other)) writes the same bundle."""
    msg = ctypes.create_string_buffer(MSG_SIZE)
    bp = POINTER(Bundle)()
    rc = lib.corepcg_bundle_read(_path(path), byref(bp), msg)
    errors.check(rc, text(msg.value))
    try:
        return _from_bundle(bp.contents)
    finally:
        lib.corepcg_bundle_free(byref(bp))


def _from_bundle(bundle):
    s = bundle.system
    n = 3 * s.num_nodes
    colptr = _copy(s.A_colptr, n + 1, np.int32)
    rowidx = _copy(s.A_rowidx, colptr[-1], np.int32)
    values = _copy(s.A_values, colptr[-1], np.float64)
    # Mirror the strictly lower part by its entries, not by a sum of
    # matrices: SciPy's sum drops stored zeros, which are part of A's
    # pattern (docs/format.md), so a read and a write would not copy the
    # bundle. The two patterns are disjoint: no value is summed.
    cols = np.repeat(np.arange(n, dtype=np.int32), np.diff(colptr))
    strict = rowidx != cols
    A = sp.coo_matrix((np.concatenate([values, values[strict]]),
                       (np.concatenate([rowidx, cols[strict]]),
                        np.concatenate([cols, rowidx[strict]]))),
                      shape=(n, n)).tocsc()
    A.sort_indices()
    constraints = np.zeros(s.num_constraints, CONSTRAINT_DTYPE)
    if s.num_constraints:
        ctypes.memmove(constraints.ctypes.data, s.constraints,
                       constraints.nbytes)
    pairs = _copy(s.stretch_pairs, 2 * s.num_stretch, np.int32)
    return {
        "A": A,
        "b": _copy(bundle.b, n, np.float64),
        "z": _copy(s.z, n, np.float64) if bundle.has_z else None,
        "x0": _copy(bundle.x0, n, np.float64),
        "constraints": constraints,
        "stretch_pairs": (pairs.reshape(-1, 2) if pairs is not None
                          else np.zeros((0, 2), np.int32)),
    }


def write_bundle(path, A, b, *, z=None, x0=None, constraints=None,
                 stretch_pairs=None, triangle="auto"):
    """Writes a bundle into directory path (created if missing), all or
    nothing: A.mtx (symmetric, lower), b.mtx, and z.mtx, constraints.txt,
    stretch.mtx, x0.mtx when given; optional files of an older bundle
    that this one lacks are removed. The system is validated as Solver
    validates it; values must also be below 1e308 and A's diagonal
    positive."""
    system = CSystem(A, constraints, z, stretch_pairs, triangle)
    b = vector(b, system.n, "b", required=True)
    x0 = vector(x0, system.n, "x0")
    msg = ctypes.create_string_buffer(MSG_SIZE)
    rc = lib.corepcg_bundle_write(
        _path(path), system.ref(), b.ctypes.data_as(POINTER(c_double)),
        None if x0 is None else x0.ctypes.data_as(POINTER(c_double)), msg)
    errors.check(rc, text(msg.value))


def read_vector(path, n):
    """Reads an n x 1 Matrix Market `array` vector (x.mtx) as float64."""
    n = _length(n)
    msg = ctypes.create_string_buffer(MSG_SIZE)
    out = POINTER(c_double)()
    rc = lib.corepcg_vector_read(_path(path), n, byref(out), msg)
    errors.check(rc, text(msg.value))
    try:
        return _copy(out, n, np.float64)
    finally:
        libc.free(out)


def _length(n):
    """n as the library's int: a whole number from 1 to INT_MAX (ctypes
    would wrap 2**32 + 30 to 30 without a word)."""
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"n must be a whole number (the vector's length), "
                        f"got {n!r}")
    if n > INT_MAX:
        raise errors.TooLarge(f"n = {n} overflows the library's int")
    if n < 1:
        raise errors.DimensionError(f"n must be at least 1, got {n}")
    return int(n)


def write_vector(path, x):
    """Writes x as an n x 1 Matrix Market `array` vector, atomically, with
    values that read back bit for bit."""
    x = real_array(x, "x")
    if x.ndim != 1:
        raise errors.DimensionError(f"x must be a vector, got shape {x.shape}")
    msg = ctypes.create_string_buffer(MSG_SIZE)
    rc = lib.corepcg_vector_write(_path(path), len(x),
                                  x.ctypes.data_as(POINTER(c_double)), msg)
    errors.check(rc, text(msg.value))
