# SPDX-License-Identifier: GPL-2.0-or-later
"""Exceptions and warnings mirroring the library's status codes.

Every error code has its own subclass of CorepcgError, which carries the
code (`.code`, a Status) and the library's one-line message (`.message`).
Where a code means a bad input value the class is also a ValueError (and
ERR_NO_MEMORY a MemoryError, ERR_IO an OSError), so generic handlers work.
The warning codes are issued as CorepcgWarning subclasses."""
import warnings

from .enums import Status
from . import _library


class CorepcgError(Exception):
    """Base of every corepcg error. code: a Status; message: the
    library's detail ("" when it gave none)."""
    code = None

    def __init__(self, message="", code=None):
        if code is not None:
            self.code = _status(code)
        self.message = message
        super().__init__(_text(self.code, message))


def _text(code, message):
    """Text such as 'invalid argument (ERR_ARGUMENT): detail'."""
    if code is None:
        head = "corepcg"
    else:
        head = f"{strerror(int(code))} ({getattr(code, 'name', code)})"
    return f"{head}: {message}" if message else head


class ArgumentError(CorepcgError, ValueError):
    """A NULL pointer or an invalid setting (ERR_ARGUMENT)."""
    code = Status.ERR_ARGUMENT


class OutOfMemory(CorepcgError, MemoryError):
    """An allocation failed (ERR_NO_MEMORY)."""
    code = Status.ERR_NO_MEMORY


class FileError(CorepcgError, OSError):
    """A file missing, unreadable or unwritable (ERR_IO)."""
    code = Status.ERR_IO


class FormatError(CorepcgError, ValueError):
    """Malformed file or array content (ERR_FORMAT)."""
    code = Status.ERR_FORMAT


class DimensionError(CorepcgError, ValueError):
    """Sizes disagree or an index is out of range (ERR_DIMENSION)."""
    code = Status.ERR_DIMENSION


class NotFinite(CorepcgError, ValueError):
    """NaN or Inf in the input (ERR_NOT_FINITE)."""
    code = Status.ERR_NOT_FINITE


class NotSymmetric(CorepcgError, ValueError):
    """A is not symmetric to round-off (ERR_NOT_SYMMETRIC)."""
    code = Status.ERR_NOT_SYMMETRIC


class ConstraintError(CorepcgError, ValueError):
    """A bad constraint record (ERR_CONSTRAINT)."""
    code = Status.ERR_CONSTRAINT


class NotPositiveDefinite(CorepcgError):
    """A~ (or A, or a diagonal block) is not positive definite
    (ERR_NOT_SPD)."""
    code = Status.ERR_NOT_SPD


class CoreNotPositiveDefinite(CorepcgError):
    """The matrix core is not positive definite (ERR_CORE_NOT_SPD);
    fallback_upcg=True solves with block PCG instead."""
    code = Status.ERR_CORE_NOT_SPD


class Breakdown(CorepcgError):
    """CG found p^T A p <= 0: A~ is not positive definite
    (ERR_BREAKDOWN)."""
    code = Status.ERR_BREAKDOWN


class NanError(CorepcgError, ArithmeticError):
    """NaN or Inf appeared while iterating (ERR_NAN)."""
    code = Status.ERR_NAN


class NoCore(CorepcgError, ValueError):
    """corepcg with core "stretch" and no stretch pairs (ERR_NO_CORE)."""
    code = Status.ERR_NO_CORE


class StateError(CorepcgError, RuntimeError):
    """A call out of order, e.g. solve on a handle whose update failed, or
    on a closed Solver (ERR_STATE)."""
    code = Status.ERR_STATE


class CholmodError(CorepcgError):
    """CHOLMOD failed for another reason (ERR_CHOLMOD)."""
    code = Status.ERR_CHOLMOD


class TooLarge(CorepcgError, ValueError):
    """Sizes overflow the library's int indices (ERR_TOO_LARGE)."""
    code = Status.ERR_TOO_LARGE


class IncompleteCholeskyBreakdown(CorepcgError):
    """icpcg's incomplete Cholesky factor was not positive definite even
    with a diagonal shift (ERR_IC_BREAKDOWN)."""
    code = Status.ERR_IC_BREAKDOWN


class CorepcgWarning(UserWarning):
    """Base of the warnings: x is usable but flagged. code: a Status."""
    code = None

    def __init__(self, message="", code=None):
        if code is not None:
            self.code = _status(code)
        self.message = message
        super().__init__(_text(self.code, message))


class NotConvergedWarning(CorepcgWarning):
    """The tolerance was not met (NOT_CONVERGED): the iteration limit
    reached, the residual at round-off above tol, or the answer's residual
    from b above tol (direct: one showing round-off lost A~); x is
    written and info["converged"] is False, the message says which."""
    code = Status.NOT_CONVERGED


class FellBackWarning(CorepcgWarning):
    """corepcg's core was not positive definite; solved by block PCG
    (FELL_BACK); info["fell_back"] is True."""
    code = Status.FELL_BACK


class StoppedWarning(CorepcgWarning):
    """solve()'s callback returned a true value: the solve stopped after
    that iteration (STOPPED); x is its answer, info["converged"] is
    False."""
    code = Status.STOPPED


ERRORS = {cls.code: cls for cls in (
    ArgumentError, OutOfMemory, FileError, FormatError, DimensionError,
    NotFinite, NotSymmetric, ConstraintError, NotPositiveDefinite,
    CoreNotPositiveDefinite, Breakdown, NanError, NoCore, StateError,
    CholmodError, TooLarge, IncompleteCholeskyBreakdown)}
WARNINGS = {cls.code: cls for cls in (NotConvergedWarning, FellBackWarning,
                                      StoppedWarning)}


def strerror(code):
    """The library's text for any int code."""
    return _library.text(_library.lib.corepcg_strerror(int(code)))


def error_for(code, message=""):
    """The exception for an error code (< 0); unknown codes give the base
    class with that code."""
    cls = ERRORS.get(code)
    return cls(message) if cls else CorepcgError(message, code)


def check(code, message="", stacklevel=3):
    """Raises for an error code, warns for a warning code; returns the code
    as a Status (or the int, if the library returned one we do not know)."""
    if code < 0:
        raise error_for(code, message)
    if code > 0:
        cls = WARNINGS.get(code)
        warning = cls(message) if cls else CorepcgWarning(message, code)
        warnings.warn(warning, stacklevel=stacklevel)
    return _status(code)


def _status(code):
    """A Status member, or the int itself for a code this package does not
    know (a newer library)."""
    try:
        return Status(code)
    except ValueError:
        return int(code)
