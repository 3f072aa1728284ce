# SPDX-License-Identifier: GPL-2.0-or-later
"""A scipy.sparse matrix as the arrays corepcg_system borrows, copying only
where the library could not read what the caller has. A dense 2-D ndarray
(a simulator's NumPy matrix) is converted to CSR first and then read as
any sparse matrix.

Which entries are used (`triangle`):
  "auto"  (default) the side that holds entries when A holds entries on
          one side of the diagonal only; the whole matrix ("both") when it
          holds entries on both: the library then checks that A is
          symmetric (one transpose and one sum, O(nnz)) and refuses it
          otherwise, so that no storage format decides the answer.
  "lower" / "upper": that triangle of A; entries outside it are ignored
          (LAPACK's convention), but a triangle with no off-diagonal entry
          while the other has some is refused (FormatError): a mistake.
  "both"  the whole matrix; the library checks that it is symmetric
          (to 1e-12 max|A|).

When a copy happens (nothing else is copied; the library copies what it
keeps, so nothing needs to outlive the call):
  - a format other than CSC, CSR and COO (BSR, DIA, LIL, DOK) is converted
    to CSC;
  - a triangle is selected from a matrix that holds entries outside it;
  - indices that are not int32 are converted, values that are not float64
    too (and any array that is not contiguous).
CSC arrays go in as they are; CSR arrays are the CSC arrays of A^T, so
they go in as they are too, with the triangle flipped (A symmetric: the
upper triangle of A^T is the lower one of A), except a whole CSR matrix,
which goes in as triplets (its rows expanded) so that a refusal names A's
entries, not A^T's; COO arrays go in as triplets."""
import os
import sys
import warnings
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from .enums import Format, Triangle
from .errors import DimensionError, FormatError, TooLarge

INT_MAX = np.iinfo(np.int32).max
TRIANGLES = ("auto",) + tuple(Triangle.labels())
# Below this many unknowns a dense A solves faster with numpy.linalg.solve
# (measured once, docs/python.md "The matrix A"): DenseFasterWarning.
DENSE_FASTER_BELOW = 400


class DenseFasterWarning(UserWarning):
    """A dense A so small that numpy.linalg.solve on the constrained
    system is faster than corepcg: advice, x is not affected (not a
    CorepcgWarning, which flags an answer)."""


@dataclass
class MatrixArrays:
    """What corepcg_system needs of A. colptr is None for triplets, colidx
    None for CSC. copies says what had to be copied (empty: nothing)."""
    n: int
    format: Format
    triangle: Triangle
    colptr: np.ndarray
    rowidx: np.ndarray
    colidx: np.ndarray
    values: np.ndarray
    copies: list = field(default_factory=list)


def matrix_arrays(A, triangle="auto"):
    """The arrays of A (any scipy.sparse format, or a dense 2-D ndarray)
    for the library."""
    copies = []
    if isinstance(A, np.ndarray):
        A = _from_dense(A)
        copies.append("dense converted to CSR")
    if not sp.issparse(A):
        raise TypeError("A must be a scipy.sparse matrix or array (any "
                        "format) or a 2-D numpy.ndarray, got "
                        f"{type(A).__name__}")
    if isinstance(triangle, str) and triangle.lower() == "auto":
        triangle = "auto"
    else:  # a label in any case, or a Triangle member
        try:
            triangle = Triangle.parse(triangle, "triangle").label
        except ValueError:
            raise ValueError(f"triangle must be one of "
                             f"{', '.join(TRIANGLES)}; got {triangle!r}") \
                from None
    n = _size(A)
    if np.issubdtype(A.dtype, np.complexfloating):
        raise TypeError("A must be real, got complex values")
    if A.format not in ("csc", "csr", "coo"):
        copies.append(f"{A.format} converted to CSC")
        A = A.tocsc()
    # The library reads M: A itself, or A^T for CSR (its arrays are M's CSC).
    transposed = A.format == "csr"
    if A.format == "coo":
        rows, cols, ptr, values = A.row, A.col, None, A.data
        below, above = bool(np.any(rows > cols)), bool(np.any(rows < cols))
    else:
        ptr, used = A.indptr, int(A.indptr[-1])
        if len(A.indices) < used or len(A.data) < used:
            raise FormatError(f"A's indptr ends at {used}, but it holds "
                              f"{min(len(A.indices), len(A.data))} entries")
        # SciPy may keep room past indptr[-1] (an unpruned matrix): not A's
        rows, values = A.indices[:used], A.data[:used]
        cols = None
        below, above = _csc_sides(ptr, rows, n)

    if triangle == "auto":  # in M's terms: the side that holds entries
        want = (Triangle.BOTH if above and below else
                Triangle.UPPER if above else Triangle.LOWER)
    else:
        want = Triangle.parse(triangle, "triangle")
        if transposed and want != Triangle.BOTH:
            want = Triangle.UPPER if want == Triangle.LOWER else Triangle.LOWER
    inside = above if want == Triangle.UPPER else below
    outside = below if want == Triangle.UPPER else above
    if triangle != "auto" and want != Triangle.BOTH and outside and not inside:
        raise FormatError(f"triangle={triangle!r}, but A holds entries only "
                          "on the other side of the diagonal")
    if want != Triangle.BOTH and outside:
        copies.append(f"{want.label} triangle selected")
        ptr, rows, cols, values = _select(want, n, ptr, rows, cols, values)
    if transposed and want == Triangle.BOTH:
        # A whole CSR matrix as triplets of A itself, not as A^T's CSC: the
        # library's symmetry check then names A's entries as A has them
        copies.append("CSR row indices expanded")
        rows, cols, ptr = _expand_rows(ptr, n), rows, None

    rows = _int32(rows, "row indices", copies)
    cols = None if cols is None else _int32(cols, "column indices", copies)
    ptr = None if ptr is None else _int32(ptr, "column pointers", copies)
    if values.dtype != np.float64 or not values.flags.c_contiguous:
        copies.append(f"values converted from {values.dtype} to float64")
        values = np.ascontiguousarray(values, dtype=np.float64)
    if len(values) > INT_MAX:
        raise TooLarge(f"A has {len(values)} stored entries; the library's "
                       f"int indices hold at most {INT_MAX}")
    fmt = Format.TRIPLET if ptr is None else Format.CSC
    return MatrixArrays(n, fmt, want, ptr, rows, cols, values, copies)


def _from_dense(A):
    """A dense A as CSR (its nonzeros; row by row is the fastest walk of a
    C-ordered array), so that a full matrix is read whole and checked for
    symmetry like any full sparse one. Below DENSE_FASTER_BELOW unknowns,
    DenseFasterWarning."""
    if A.ndim != 2:
        raise DimensionError(f"A is a {A.ndim}-D array of shape {A.shape}: "
                             "it must be n x n")
    if not (np.issubdtype(A.dtype, np.number) or A.dtype == np.bool_):
        raise TypeError(f"A must hold numbers, got dtype {A.dtype}")
    if np.issubdtype(A.dtype, np.complexfloating):
        raise TypeError("A must be real, got complex values")
    n = _size(A)
    if n < DENSE_FASTER_BELOW:
        warnings.warn(DenseFasterWarning(
            f"A is a dense {n} x {n} array: below {DENSE_FASTER_BELOW} "
            "unknowns numpy.linalg.solve on the constrained system is "
            "faster than corepcg (docs/python.md, \"The matrix A\")"),
            stacklevel=_outside_stacklevel())
    return sp.csr_matrix(A)


def _outside_stacklevel():
    """warnings.warn's stacklevel for its caller's caller that names the
    first frame outside this package: the user's line, whichever entry
    (Solver, update, solve, check, write_bundle) led here."""
    package = os.path.dirname(os.path.abspath(__file__))
    frame, level = sys._getframe(2), 2
    while frame is not None and os.path.dirname(
            os.path.abspath(frame.f_code.co_filename)) == package:
        frame, level = frame.f_back, level + 1
    return level


def _size(A):
    rows, cols = A.shape
    if rows != cols:
        raise DimensionError(f"A is {rows} x {cols}: it must be square")
    if rows == 0 or rows % 3:
        raise DimensionError(f"A is {rows} x {rows}: n must be 3 N (three "
                             "unknowns per node), N >= 1")
    if rows > INT_MAX:
        raise TooLarge(f"A is {rows} x {rows}: n overflows the library's int")
    return rows


def _csc_sides(ptr, rows, n):
    """(entries below the diagonal?, entries above?) of a CSC matrix, from
    each column's smallest and largest row: n numbers, not one per entry."""
    filled = np.flatnonzero(np.diff(ptr) > 0)
    if len(filled) == 0:
        return False, False
    starts = ptr[filled]
    lowest = np.minimum.reduceat(rows, starts)
    highest = np.maximum.reduceat(rows, starts)
    return bool(np.any(highest > filled)), bool(np.any(lowest < filled))


def _expand_rows(ptr, n):
    """Each stored entry's row of a CSR matrix (its indptr's runs)."""
    return np.repeat(np.arange(n, dtype=np.int32), np.diff(ptr))


def _select(want, n, ptr, rows, cols, values):
    """The entries of one triangle (a copy of that part of A)."""
    if cols is None:  # CSC: each entry's column, for the mask only
        cols_of = np.repeat(np.arange(n, dtype=np.int32), np.diff(ptr))
    else:
        cols_of = cols
    keep = rows >= cols_of if want == Triangle.LOWER else rows <= cols_of
    if cols is None:
        counts = np.bincount(cols_of[keep], minlength=n)
        ptr = np.concatenate(([0], np.cumsum(counts))).astype(np.int32)
        return ptr, rows[keep], None, values[keep]
    return None, rows[keep], cols[keep], values[keep]


def _int32(a, what, copies):
    if a.dtype == np.int32 and a.flags.c_contiguous:
        return a
    if len(a) and (a.max() > INT_MAX or a.min() < 0):
        raise TooLarge(f"A's {what} exceed the library's int range")
    copies.append(f"{what} converted from {a.dtype} to int32")
    return np.ascontiguousarray(a, dtype=np.int32)
