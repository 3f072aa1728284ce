# SPDX-License-Identifier: GPL-2.0-or-later
"""corepcg from Python: the constrained SPD systems of implicit cloth
simulation,

    S A x = S b,   (I - S) x = (I - S) z,

solved by the corepcg shared library (ctypes; nothing is compiled at
import). A is any symmetric scipy.sparse matrix or a dense NumPy array;
vectors are NumPy arrays, (n,) or (N, 3).

    import corepcg
    with corepcg.Solver(A, constraints=con, z=z, stretch_pairs=pairs) as s:
        x, info = s.solve(b)
        s.update(A_next, z=z_next)      # the next step: analysis reused
        x, info = s.solve(b_next, x0=x)

The API reference is docs/python.md in the repository."""
from . import _library

try:
    import numpy  # noqa: F401
    import scipy.sparse  # noqa: F401
except ImportError as err:  # name the interpreter: the usual cause
    import sys
    raise ImportError(
        f"corepcg needs NumPy and SciPy, which {sys.executable} cannot "
        f"import ({err}). On Debian 12: apt-get install python3-numpy "
        "python3-scipy, which serve /usr/bin/python3 (a pyenv or venv "
        "python3 earlier in PATH does not see them: run /usr/bin/python3)."
    ) from err

from .bundle import read_bundle, read_vector, write_bundle, write_vector
from .check import Measures, check
from .enums import (AutoReason, Core, Factor, Format, Method, Ordering,
                    Precond, Status, Stop, Triangle)
from .errors import (ArgumentError, Breakdown, CholmodError, ConstraintError,
                     CoreNotPositiveDefinite, CorepcgError, CorepcgWarning,
                     DimensionError, FellBackWarning, FileError, FormatError,
                     IncompleteCholeskyBreakdown, NanError, NoCore,
                     NotConvergedWarning, NotFinite, NotPositiveDefinite,
                     NotSymmetric, OutOfMemory, StateError, StoppedWarning,
                     TooLarge, strerror)
from ._library import LibraryNotFoundError
from ._system import CONSTRAINT_DTYPE
from ._filter import filter  # noqa: A001 -- the papers' name for S v
from ._matrix import DenseFasterWarning
from .settings import default_settings
from .solver import Solver, solve


def version():
    """The version of the loaded library ("0.2.0")."""
    return _library.text(_library.lib.corepcg_version())


__version__ = version()
library_path = _library.path  # the libcorepcg.so this process loaded

__all__ = [
    "Solver", "solve", "check", "Measures", "read_bundle", "write_bundle",
    "read_vector", "write_vector", "default_settings", "version",
    "strerror", "library_path", "CONSTRAINT_DTYPE", "filter",
    "DenseFasterWarning",
    "Status", "Method", "AutoReason", "Precond", "Ordering", "Factor",
    "Core", "Stop", "Format", "Triangle",
    "CorepcgError", "ArgumentError", "OutOfMemory", "FileError",
    "FormatError", "DimensionError", "NotFinite", "NotSymmetric",
    "ConstraintError", "NotPositiveDefinite", "CoreNotPositiveDefinite",
    "Breakdown", "NanError", "NoCore", "StateError", "CholmodError",
    "TooLarge", "IncompleteCholeskyBreakdown", "CorepcgWarning",
    "NotConvergedWarning", "FellBackWarning", "StoppedWarning",
    "LibraryNotFoundError",
]
