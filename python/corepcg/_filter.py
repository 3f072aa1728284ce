# SPDX-License-Identifier: GPL-2.0-or-later
"""corepcg.filter: S v with the library's own S (corepcg_filter), for a
simulator that filters vectors itself (Baraff & Witkin's filter())."""
import ctypes
from ctypes import POINTER, c_double

import numpy as np

from ._cdefs import MSG_SIZE, Constraint
from ._library import lib, text
from ._matrix import INT_MAX
from ._system import constraint_array, real_array
from . import errors


def filter(v, constraints=None):  # noqa: A001 -- the papers' name
    """S v: v with each constrained node's blocked directions removed
    (S_i = I - p p^T for ndof 2, t t^T for ndof 1, 0 for ndof 0, I for a
    free node), the S every method solves with. v: n = 3 N values, shape
    (n,) or (N, 3); returns a new array of v's shape. constraints: as for
    Solver (records of ndof 3 are free nodes)."""
    a = real_array(v, "v")
    if not ((a.ndim == 1 and a.size % 3 == 0) or
            (a.ndim == 2 and a.shape[1] == 3)) or a.size == 0:
        raise errors.DimensionError(f"v has shape {np.shape(v)}; it must be "
                                    "(n,) with n = 3 N, or (N, 3), N >= 1")
    if a.size // 3 > INT_MAX // 3 - 1:
        raise errors.TooLarge(f"v has {a.size} values: 3 N overflows the "
                              "library's int")
    con = constraint_array(constraints)
    out = np.empty_like(a)
    msg = ctypes.create_string_buffer(MSG_SIZE)
    rc = lib.corepcg_filter(
        a.size // 3, len(con),
        con.ctypes.data_as(POINTER(Constraint)) if len(con) else None,
        a.ctypes.data_as(POINTER(c_double)),
        out.ctypes.data_as(POINTER(c_double)), msg)
    errors.check(rc, text(msg.value))
    return out
