# SPDX-License-Identifier: GPL-2.0-or-later
"""Solver settings: keywords to corepcg_settings and back. Defaults come
from the library (corepcg_settings_default); types and names are checked
here, ranges by the library itself at setup (one place for the rules)."""
import ctypes
import numbers

from ._cdefs import Settings
from ._library import lib
from .enums import Core, Factor, Method, Ordering, Precond, Stop
from .errors import ArgumentError

# The keywords, one per field of corepcg_settings, in its order.
NAMES = tuple(name for name, _ in Settings._fields_)
CHOICES = {"method": Method, "precond": Precond, "ordering": Ordering,
           "factor": Factor, "core": Core, "stop": Stop}
FLAGS = ("fallback_upcg",)


def make_settings(**given):
    """corepcg_settings: the library's defaults, then every keyword whose
    value is not None."""
    unknown = sorted(set(given) - set(NAMES))
    if unknown:
        raise TypeError(f"unknown setting {unknown[0]!r}; the settings are "
                        f"{', '.join(NAMES)}")
    s = Settings()
    lib.corepcg_settings_default(ctypes.byref(s))
    for name, value in given.items():
        if value is not None:
            setattr(s, name, _c_value(name, value))
    return s


def settings_dict(s):
    """corepcg_settings as a dict: choices by label, flags as bool."""
    out = {}
    for name in NAMES:
        v = getattr(s, name)
        if name in CHOICES:
            v = CHOICES[name](v).label
        elif name in FLAGS:
            v = bool(v)
        out[name] = v
    return out


def default_settings():
    """The library's defaults, as a dict."""
    return settings_dict(make_settings())


def _c_value(name, value):
    if name in CHOICES:
        return int(CHOICES[name].parse(value, name))
    if name in FLAGS:
        if not isinstance(value, (bool, numbers.Integral)) or value not in (0, 1):
            raise TypeError(f"{name} must be True or False, got {value!r}")
        return int(value)
    ctype = dict(Settings._fields_)[name]
    if ctype is ctypes.c_double:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"{name} must be a number, got {value!r}")
        return float(value)
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if not -2**31 <= value < 2**31:  # the library then reports the range
        raise ArgumentError(f"{name} = {value} overflows the library's int")
    return int(value)
