# SPDX-License-Identifier: GPL-2.0-or-later
"""The solver handle (corepcg_create / setup / update / solve / free) as a
Python class, and the one-shot solve()."""
import threading
from contextlib import contextmanager, nullcontext
from ctypes import POINTER, byref, c_double

import numpy as np

from ._cdefs import Handle, Info
from ._library import lib, text
from ._messages import python_message
from ._monitor import Watch
from ._system import CSystem, shaped_like, vector, writable_vector
from .enums import AutoReason, Method, ValueType
from . import errors
from .settings import make_settings, settings_dict

_KEEP = object()  # update(): keep the previous step's value

# corepcg_info fields given as a label or as bool rather than an int
# (the methods' report items: as their descriptions say).
_INFO_CHOICES = {"method": Method, "method_used": Method,
                 "auto_reason": AutoReason}
_INFO_FLAGS = ("converged", "analysis_reused")


def _report_items():
    """[(k, name, type)] of every report item the library describes
    (corepcg_info_describe): a name may recur, one item per method."""
    items = []
    for k in range(lib.corepcg_info_count()):
        d = lib.corepcg_info_describe(k).contents
        items.append((k, d.name.decode(), d.type))
    return items


_ITEMS = _report_items()


def _item_value(k, kind, v):
    """A report item's value as its type says: an int, a float, a bool,
    or a CHOICE's label."""
    if kind == ValueType.SWITCH:
        return bool(v)
    if kind == ValueType.CHOICE:
        name = lib.corepcg_info_value_name(k, int(v))
        return text(name) if name is not None else None
    return float(v) if kind == ValueType.REAL else int(v)


def info_dict(info, handle=None):
    """corepcg_info as a dict with every field: status as a Status, the
    enumerations by their labels ("corepcg"), flags as bool; then every
    report item of the library's descriptions by name, from handle
    (corepcg_info_get) when the method that ran reports it, else from
    the kept field of its name (0 when there is none)."""
    out = {}
    for name, _ in Info._fields_:
        v = getattr(info, name)
        if name == "status":
            v = errors._status(v)
        elif name in _INFO_CHOICES:
            v = _INFO_CHOICES[name](v).label
        elif name in _INFO_FLAGS:
            v = bool(v)
        out[name] = v
    items, value = {}, c_double()
    for k, name, kind in _ITEMS:
        if name not in items and handle is not None and \
                lib.corepcg_info_get(handle, k, byref(value)) == 0:
            items[name] = _item_value(k, kind, value.value)
    for k, name, kind in _ITEMS:
        if name not in items:
            items[name] = _item_value(k, kind, getattr(info, name, 0))
    out.update(items)  # a kept field keeps its place; a new item comes last
    return out


class Solver:
    """A constrained system set up for repeated solves (one corepcg handle).

    Solver(A, constraints=None, z=None, stretch_pairs=None, triangle="auto",
           method=None, tol=None, max_iter=None, precond=None, ordering=None,
           factor=None, core=None, core_threshold=None, fallback_upcg=None,
           ic_fill=None, stop=None, **options)

    A: symmetric n x n scipy.sparse matrix or dense ndarray, n = 3 N (see
    docs/python.md for which triangle is read and when A is copied).
    Settings left None take
    the library's defaults (corepcg.default_settings()); **options: any
    other setting the library describes (corepcg.settings.NAMES: a newer
    method's own), by name. Set-up failures
    raise the CorepcgError subclass of the library's code. Not for use
    from two threads at once; two Solvers may run in two threads."""

    def __init__(self, A, *, constraints=None, z=None, stretch_pairs=None,
                 triangle="auto", method=None, tol=None, max_iter=None,
                 precond=None, ordering=None, factor=None, core=None,
                 core_threshold=None, fallback_upcg=None, ic_fill=None,
                 stop=None, **options):
        self._h = None
        # held by the thread inside update, solve or close: another
        # thread's call, or a callback's, is refused (StateError)
        self._lock = threading.Lock()
        self._owner = None
        self._settings = make_settings(
            method=method, tol=tol, max_iter=max_iter, precond=precond,
            ordering=ordering, factor=factor, core=core,
            core_threshold=core_threshold, fallback_upcg=fallback_upcg,
            ic_fill=ic_fill, stop=stop, **options)
        system = CSystem(A, constraints, z, stretch_pairs, triangle)
        h = POINTER(Handle)()
        rc = lib.corepcg_create(byref(h))
        if rc != 0:
            raise errors.error_for(rc, "corepcg_create failed")
        self._h = h
        rc = lib.corepcg_setup(h, system.ref(), byref(self._settings))
        if rc < 0:
            message = python_message(rc, self.message)
            self.close()
            raise errors.error_for(rc, message)
        self._keep(system)

    def _keep(self, system):
        """What update() reuses when a keyword is left out: copies, since
        a simulator may refill the arrays it passed before the next step."""
        self.n, self.num_nodes = system.n, system.num_nodes
        self._constraints = system.constraints.copy()
        self._z = None if system.z is None else system.z.copy()
        self._stretch = system.stretch_pairs.copy()

    @property
    def settings(self):
        """The settings in force, as a dict (a copy)."""
        return settings_dict(self._settings)

    @property
    def message(self):
        """The library's detail of the last failure on this handle."""
        return text(lib.corepcg_message(self._h)) if self._h else ""

    @property
    def closed(self):
        return self._h is None

    @contextmanager
    def _use(self, call):
        """The handle, held for this thread during the call: the library's
        handle serves one call at a time (two threads on one Solver gave
        wrong answers silently, an outside review). Closed is checked
        with the lock held: another thread may close it until then."""
        if not self._lock.acquire(blocking=False):
            if self._owner == threading.get_ident():
                raise errors.StateError(
                    f"{call} called from the solve's callback: the Solver "
                    "is solving (return True from the callback to stop it)")
            raise errors.StateError(
                f"{call} while another thread is using the Solver: one "
                "Solver serves one thread at a time (give each thread its "
                "own Solver)")
        self._owner = threading.get_ident()
        try:
            if self._h is None:
                raise errors.StateError("the Solver is closed")
            yield self._h
        finally:
            self._owner = None
            self._lock.release()

    def update(self, A, *, constraints=_KEEP, z=_KEEP, stretch_pairs=_KEEP,
               triangle="auto"):
        """The next step's system. A keyword left out keeps the previous
        step's value (None means none). When the reduced pattern holds the
        symbolic analysis is reused (info["analysis_reused"] is True).
        Returns the info dict of the update (status, analysis_reused, setup
        times). On an error the previous system stays set up if the new
        one could not be read, else (NoCore, a failed factorisation) the
        handle is empty: solve raises
        StateError until the next successful update, which sets its
        system up afresh with the Solver's settings."""
        with self._use("update") as h:
            self._check_kept_fit(A, constraints is _KEEP, z is _KEEP,
                                 stretch_pairs is _KEEP)
            system = CSystem(
                A,
                self._constraints if constraints is _KEEP else constraints,
                self._z if z is _KEEP else z,
                self._stretch if stretch_pairs is _KEEP else stretch_pairs,
                triangle)
            info = Info()
            rc = lib.corepcg_update(h, system.ref(), byref(info))
            errors.check(rc, python_message(rc, self.message))
            self._keep(system)
            return info_dict(info, h)

    def _check_kept_fit(self, A, keep_constraints, keep_z, keep_stretch):
        """A of another size than the system set up, with values kept from
        that system that do not fit it: A is the argument to blame (the
        kept ones were not even passed)."""
        shape = np.shape(A) if hasattr(A, "shape") else None
        if shape is None or len(shape) != 2 or shape[0] != shape[1] \
                or shape[0] == self.n or shape[0] % 3:
            return  # the same size, or A's own checks say what is wrong
        nodes = shape[0] // 3
        misfits = []
        if keep_z and self._z is not None:
            misfits.append(f"z of shape ({self.n},)")
        if keep_constraints and len(self._constraints) and \
                self._constraints["node"].max() >= nodes:
            misfits.append(f"constraints up to node "
                           f"{self._constraints['node'].max()}")
        if keep_stretch and len(self._stretch) and self._stretch.max() >= nodes:
            misfits.append(f"stretch_pairs up to node {self._stretch.max()}")
        if misfits:
            raise errors.DimensionError(
                f"A is {shape[0]} x {shape[1]} ({nodes} nodes), but the "
                f"system set up has {self.n} unknowns and update keeps its "
                f"{' and '.join(misfits)}: pass A of {self.n} x {self.n}, "
                f"or pass those for the new size")

    def solve(self, b, x0=None, *, out=None, callback=None, history=False):
        """Solves A x = b under the constraints. x0: the initial guess
        (None: zero). out: a float64 contiguous n-vector to write x into
        (else a new array). Returns (x, info). Errors raise (x untouched);
        NOT_CONVERGED, FELL_BACK and STOPPED warn (x written, flagged in
        info).

        callback(iteration, residual), as SciPy's callback= but handed the
        iteration (1, 2, ...) and the value the stopping rule compares with
        tol instead of x: called after each iteration of the iterative
        methods (never by direct). A true return value stops the solve
        there (StoppedWarning, x written), unless that iteration met tol
        (then the solve ends converged, no warning); an exception stops it and is
        re-raised once the library returns (out, if given, then holds the
        iterate it stopped at). history=True: info["residuals"], the same
        values as a float64 array, one an iteration (len ==
        info["iterations"])."""
        return self._solve(b, x0, out, callback, history, stacklevel=4)

    def _solve(self, b, x0, out, callback, history, stacklevel):
        """solve(); stacklevel makes a warning point at the user's line."""
        with self._use("solve") as h:
            return self._solve_held(h, b, x0, out, callback, history,
                                    stacklevel + 1)

    def _solve_held(self, h, b, x0, out, callback, history, stacklevel):
        """_solve with the handle held."""
        if not lib.corepcg_ready(h):
            raise errors.StateError(
                "no system is set up: the last update failed (the next "
                "update sets its system up)")
        b_given = b
        b = vector(b, self.n, "b", required=True)
        x0 = vector(x0, self.n, "x0")
        x = self._out(out)
        info = Info()
        watch = Watch(h, callback, history) \
            if callback is not None or history else None
        with watch if watch is not None else nullcontext():
            rc = lib.corepcg_solve(
                h, b.ctypes.data_as(POINTER(c_double)),
                None if x0 is None
                else x0.ctypes.data_as(POINTER(c_double)),
                x.ctypes.data_as(POINTER(c_double)), byref(info))
        if watch is not None and watch.error is not None:
            raise watch.error
        errors.check(rc, self._solve_message(rc, info), stacklevel)
        result = info_dict(info, h)
        if history:
            result["residuals"] = watch.residuals()
        # x in the shape b came in (out: as the caller made it)
        return (out if out is not None else shaped_like(x, b_given)), result

    def _out(self, out):
        if out is None:
            return np.empty(self.n)
        return writable_vector(out, self.n)

    def _solve_message(self, rc, info):
        message = self.message
        if rc == errors.Status.NOT_CONVERGED:
            where = (f"{info.iterations} iterations, relative residual "
                     f"{info.rel_residual:.3e}")
            message = f"{where}: {message}" if message else where
        return message

    def close(self):
        """Frees the handle; safe to call twice (not from the solve's
        callback: StateError)."""
        if self._h is None:
            return
        try:
            with self._use("close") as h:
                lib.corepcg_free(byref(h))
                self._h = None
        except errors.StateError:
            if self._h is not None:  # not closed by another thread meanwhile
                raise

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: the library may be gone
            pass

    def __repr__(self):
        state = "closed" if self.closed else f"N={self.num_nodes}"
        return f"<corepcg.Solver {self.settings['method']} {state}>"


def solve(A, b, x0=None, *, constraints=None, z=None, stretch_pairs=None,
          triangle="auto", callback=None, history=False, **settings):
    """One shot: Solver(A, ..., **settings).solve(b, x0, callback=callback,
    history=history), then freed. Returns (x, info)."""
    with Solver(A, constraints=constraints, z=z, stretch_pairs=stretch_pairs,
                triangle=triangle, **settings) as s:
        return s._solve(b, x0, None, callback, history, stacklevel=4)
