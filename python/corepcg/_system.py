# SPDX-License-Identifier: GPL-2.0-or-later
"""A corepcg_system built from Python inputs. The object keeps every array
it points to alive for as long as it lives; the library copies what it
keeps, so it is needed only for the duration of one call."""
import ctypes
from ctypes import POINTER, c_double, c_int

import numpy as np

from ._cdefs import Constraint, System
from ._matrix import INT_MAX, matrix_arrays
from .errors import ConstraintError, DimensionError

# The record layout of corepcg_constraint, taken from the ctypes Structure
# (its one definition): fields node, ndof, p (3), q (3).
CONSTRAINT_DTYPE = np.dtype(Constraint)


def pointer(array, ctype):
    """A ctypes pointer to a contiguous array's data, or NULL for None."""
    if array is None:
        return None
    return array.ctypes.data_as(POINTER(ctype))


def constraint_array(constraints):
    """The constraint records as a CONSTRAINT_DTYPE array: given as one
    (used as it is), as a structured array with the same field names, or
    as an iterable of (node, ndof[, p[, q]]) with p, q 3-vectors (zero
    when left out: fixed nodes need neither)."""
    if constraints is None:
        return np.zeros(0, CONSTRAINT_DTYPE)
    if isinstance(constraints, np.ndarray) and constraints.dtype.names:
        if constraints.dtype == CONSTRAINT_DTYPE:
            return np.ascontiguousarray(constraints.reshape(-1))
        return _from_fields(constraints.reshape(-1))
    try:
        records = list(constraints)
    except TypeError as err:
        raise TypeError(f"constraints must be records (node, ndof[, p[, "
                        f"q]]) or a structured array, got "
                        f"{type(constraints).__name__}") from err
    out = np.zeros(len(records), CONSTRAINT_DTYPE)
    for k, rec in enumerate(records):
        try:
            node, ndof, *vectors = rec
            if len(vectors) > 2:
                raise ValueError
            out["node"][k], out["ndof"][k] = _index(node), _index(ndof)
            vectors = [np.asarray(v) for v in vectors]
        except (TypeError, ValueError, OverflowError) as err:
            raise _record_error(k, rec) from err
        for name, v in zip(("p", "q"), vectors):
            refuse_complex(v, f"constraint {k}: {name}")
            try:
                out[name][k] = v.astype(np.float64).reshape(3)
            except (TypeError, ValueError) as err:
                raise _record_error(k, rec) from err
    return out


def _record_error(k, rec):
    return ConstraintError(f"constraint {k}: expected (node, ndof[, p[, q]])"
                           f" with 3-vectors p, q, got {rec!r}")


def _from_fields(records):
    """A structured array in other field types as CONSTRAINT_DTYPE, node
    and ndof refused where a tuple's would be (numpy's cast would wrap
    2**32 + 5 to 5 and cut 2.7 to 2 without a word)."""
    out = np.zeros(records.size, CONSTRAINT_DTYPE)
    for name in CONSTRAINT_DTYPE.names:
        try:
            field = records[name]
        except ValueError as err:  # no such field
            raise _field_error(name, err) from err
        if name in ("p", "q"):
            refuse_complex(field, f"the constraints array's field {name!r}")
        else:
            field = _index_field(field, name)
        try:
            out[name] = field
        except (TypeError, ValueError) as err:
            raise _field_error(name, err) from err
    return out


def _field_error(name, err):
    return ConstraintError(f"the constraints array's field {name!r}: {err}")


def _index_field(values, name):
    """A node or ndof field as int32, each value a whole number that fits
    the library's int (what _index asks of one), else ConstraintError
    naming the field and the first record that is not."""
    if values.ndim != 1:
        raise ConstraintError(f"the constraints array's field {name!r} must "
                              f"hold one number a record, not "
                              f"{values.shape[1:]}")
    kind = values.dtype.kind
    if kind in "iu":
        ok = (values >= -2**31) & (values <= INT_MAX)
    elif kind == "f":
        with np.errstate(invalid="ignore"):
            ok = (values == np.floor(values)) & (values >= -2**31) & \
                 (values <= INT_MAX)
    else:  # bool, complex, objects, text: one at a time, as tuples are
        ok = np.array([_is_index(v) for v in values], dtype=bool)
    bad = np.flatnonzero(~ok)
    if bad.size:
        k, v = bad[0], values[bad[0]]
        v = v.item() if isinstance(v, np.generic) else v  # numpy 2's repr
        raise ConstraintError(f"constraint {k}: field {name!r} must be a "
                              f"whole number that fits int, got {v!r}")
    return values.astype(np.int32)


def _is_index(v):
    try:
        _index(v)
    except (TypeError, ValueError, OverflowError):
        return False
    return True


def _index(v):
    """A whole number that fits the library's int (numpy 1.x would wrap
    a larger one silently)."""
    if isinstance(v, (bool, np.bool_)) or int(v) != v or \
            not -2**31 <= int(v) < 2**31:
        raise ValueError
    return int(v)


def refuse_complex(v, what):
    """TypeError naming what for complex values, as A gets: numpy would
    keep their real part with a mere ComplexWarning."""
    if np.iscomplexobj(v):
        raise TypeError(f"{what} must be real, got complex values")


def real_array(v, what):
    """v as a contiguous float64 array; complex values refused, and so are
    text, booleans and objects (numpy would turn "1.5" and True into
    numbers without a word)."""
    refuse_complex(v, what)
    a = np.asarray(v)
    if a.dtype.kind not in "iuf":
        raise TypeError(f"{what} must hold real numbers, got dtype {a.dtype}")
    return np.ascontiguousarray(a, dtype=np.float64)


def vector(v, n, what, required=False):
    """A float64 contiguous n-vector (a copy only if v is not one), or
    None for None (TypeError when required). v may also be (N, 3), one row
    per node as simulators keep positions and velocities: its rows are the
    n-vector's triples."""
    if v is None:
        if required:
            raise TypeError(f"{what} must be a vector of {n} numbers, got "
                            "None")
        return None
    a = real_array(v, what)
    if a.shape == (n // 3, 3):
        a = a.reshape(n)  # a view: a is contiguous
    if a.shape != (n,):
        raise DimensionError(f"{what} has shape {np.shape(v)}; the system "
                             f"needs ({n},) or ({n // 3}, 3)")
    return a


def shaped_like(x, v):
    """x (an n-vector) as (N, 3) when v came as one row per node (v is
    what vector() accepted), else x itself."""
    return x.reshape(-1, 3) if np.ndim(v) == 2 else x


def writable_vector(out, n, what="out"):
    """The n-vector view of a writable contiguous float64 array of shape
    (n,) or (N, 3), which the library writes into: TypeError for another
    kind of array (or object), DimensionError for another shape."""
    refuse_complex(out, what)
    want = (f"{what} must be a writable contiguous float64 array of shape "
            f"({n},) or ({n // 3}, 3)")
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{want}, got {type(out).__name__}")
    faults = [fault for fault, bad in (
        (f"dtype {out.dtype}", out.dtype != np.float64),
        ("read-only", not out.flags.writeable),
        ("not contiguous", not out.flags.c_contiguous)) if bad]
    if faults:
        raise TypeError(f"{want}; it is {', '.join(faults)}")
    if out.shape not in ((n,), (n // 3, 3)):
        raise DimensionError(f"{want}, got shape {out.shape}")
    return out.reshape(n)


def stretch_array(pairs):
    """The stretch pairs as a contiguous int32 (k, 2) array."""
    if pairs is None:
        return np.zeros((0, 2), np.int32)
    a = np.asarray(pairs)
    if a.size == 0:
        return np.zeros((0, 2), np.int32)
    if a.ndim != 2 or a.shape[1] != 2 or not np.issubdtype(a.dtype, np.integer):
        raise DimensionError(f"stretch_pairs must be integer node pairs of "
                             f"shape (k, 2), got {a.dtype} {a.shape}")
    if a.max() > INT_MAX or a.min() < -INT_MAX:
        raise DimensionError("stretch_pairs: a node index overflows int")
    return np.ascontiguousarray(a, dtype=np.int32)


class CSystem:
    """corepcg_system over Python inputs (see matrix_arrays for A)."""

    def __init__(self, A, constraints=None, z=None, stretch_pairs=None,
                 triangle="auto"):
        self.matrix = m = matrix_arrays(A, triangle)
        self.n = m.n
        self.num_nodes = m.n // 3
        self.constraints = constraint_array(constraints)
        self.z = vector(z, m.n, "z")
        self.stretch_pairs = stretch_array(stretch_pairs)
        self.struct = System(
            num_nodes=self.num_nodes,
            A_format=int(m.format),
            A_triangle=int(m.triangle),
            A_colptr=pointer(m.colptr, c_int),
            A_rowidx=pointer(m.rowidx, c_int),
            A_colidx=pointer(m.colidx, c_int),
            A_values=pointer(m.values, c_double),
            A_nnz=len(m.values),
            num_constraints=len(self.constraints),
            constraints=(self.constraints.ctypes.data_as(POINTER(Constraint))
                         if len(self.constraints) else None),
            z=pointer(self.z, c_double),
            num_stretch=len(self.stretch_pairs),
            stretch_pairs=(pointer(self.stretch_pairs, c_int)
                           if len(self.stretch_pairs) else None))

    def ref(self):
        return ctypes.byref(self.struct)
