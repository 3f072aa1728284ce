# SPDX-License-Identifier: GPL-2.0-or-later
"""corepcg_check: docs/format.md's two measures of an answer."""
import collections
import ctypes
from ctypes import POINTER, byref, c_double

from ._cdefs import MSG_SIZE
from ._library import lib, text
from ._system import CSystem, vector
from . import errors

Measures = collections.namedtuple("Measures",
                                  "constraint_error rel_residual")


def check(A, b, x, *, constraints=None, z=None, stretch_pairs=None,
          triangle="auto"):
    """Measures x as an answer of the system: Measures(constraint_error =
    max |(I - S)(x - z)|, rel_residual = |S(b - A x)| / |S(b - A(I-S)z)|,
    the residual norm itself when that denominator is 0). The system is
    validated as Solver validates it (same errors)."""
    system = CSystem(A, constraints, z, stretch_pairs, triangle)
    b = vector(b, system.n, "b", required=True)
    x = vector(x, system.n, "x", required=True)
    cerr, rres = c_double(), c_double()
    msg = ctypes.create_string_buffer(MSG_SIZE)
    rc = lib.corepcg_check(system.ref(), b.ctypes.data_as(POINTER(c_double)),
                           x.ctypes.data_as(POINTER(c_double)), byref(cerr),
                           byref(rres), msg)
    errors.check(rc, text(msg.value))
    return Measures(cerr.value, rres.value)
