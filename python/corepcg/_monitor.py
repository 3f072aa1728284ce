# SPDX-License-Identifier: GPL-2.0-or-later
"""One solve watched from Python: the library's monitor (corepcg_monitor)
calling the user's callback(iteration, residual) and keeping the residual
history. A Python exception cannot cross the C call: it is kept, the solve
is stopped, and the caller re-raises it once the C call has returned."""
import numpy as np

from ._cdefs import Monitor
from ._library import lib

_NO_MONITOR = Monitor()  # the NULL function pointer


class Watch:
    """Set on a handle for the length of one corepcg_solve (a context
    manager); callback or history (or both) asked for."""

    def __init__(self, handle, callback, history):
        if callback is not None and not callable(callback):
            raise TypeError(f"callback must be callable, got {callback!r}")
        self._handle = handle
        self._callback = callback
        self._residuals = [] if history else None
        self.error = None  # what the callback raised
        self._function = Monitor(self._called)  # alive while set

    def _called(self, iteration, residual, _user):
        try:
            if self._residuals is not None:
                if iteration == 1:  # auto's fallback starts again at 1
                    self._residuals.clear()
                self._residuals.append(residual)
            if self._callback is not None and self._callback(iteration,
                                                             residual):
                return 1
            return 0
        except BaseException as err:  # KeyboardInterrupt too: stop at once
            self.error = err
            return 1

    def residuals(self):
        """The history as a float64 array (None when not asked for)."""
        if self._residuals is None:
            return None
        return np.array(self._residuals, dtype=np.float64)

    def __enter__(self):
        lib.corepcg_set_monitor(self._handle, self._function, None)
        return self

    def __exit__(self, *exc):
        lib.corepcg_set_monitor(self._handle, _NO_MONITOR, None)
