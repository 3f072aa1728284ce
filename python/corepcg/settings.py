# SPDX-License-Identifier: GPL-2.0-or-later
"""Solver settings: keywords to corepcg_settings and back. Defaults come
from the library (corepcg_settings_default); types and names are checked
here, and so is which settings the method takes (as the CLI refuses
them); ranges by the library itself at setup (one place for the rules)."""
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

# ---------------------------------------------------------------------
# Which settings each method takes: the rules of tools/cmd_solve.c's
# check_combination, in its order, kept in this ONE place. A setting given
# (not None) to a method that does not take it is refused, as the CLI
# refuses the option, instead of being ignored as by the C library.
# TO DERIVE: when the library exposes its registry of the options each
# method takes, build TAKEN_BY from it and drop this copy of the rules.
AUTO_CANDIDATES = ("icpcg", "corepcg", "mpcg")  # auto takes what they take
TAKEN_BY = (  # (settings, the methods that take them, why not for others)
    (("precond",), ("upcg", "mpcg", "mpcg-bw"), ""),
    (("ordering", "factor"), ("direct", "corepcg"), ""),
    (("core", "core_threshold", "fallback_upcg"), ("corepcg",), ""),
    (("ic_fill",), ("icpcg",), ""),
    (("tol", "max_iter", "stop"), ("icpcg", "corepcg", "upcg", "mpcg", "mpcg-bw"),
     "direct does not iterate"),
)


def _takers(methods):
    """The methods, and auto when one of its candidates is among them."""
    auto = any(m in AUTO_CANDIDATES for m in methods)
    return ", ".join(methods) + (" and auto" if auto else "")


def check_combination(values, given):
    """Raises ArgumentError for the first setting in `given` (the names
    the caller set) that the method in `values` (settings_dict) does not
    take, naming the setting and the method."""
    method = values["method"]
    refused = None
    for names, methods, why in TAKEN_BY:
        takes = method in methods or (
            method == "auto" and any(m in AUTO_CANDIDATES for m in methods))
        bad = [n for n in names if n in given]
        if bad and not takes:
            refused = (f"{bad[0]} (it is for {_takers(methods)}"
                       f"{': ' + why if why else ''})")
        elif names == ("precond",) and values["precond"] == "projected" \
                and method != "upcg":
            refused = ("precond='projected' (projected is for upcg; mpcg "
                       "applies it in effect with diag)")
        if refused:
            raise ArgumentError(f"method {method!r} does not take {refused}")
    if "core_threshold" in given and values["core"] != "auto":
        raise ArgumentError(f"core_threshold is for core='auto', not core="
                            f"{values['core']!r}")
# ---------------------------------------------------------------------


def make_settings(**given):
    """corepcg_settings: the library's defaults, then every keyword whose
    value is not None; refuses a setting the method does not take."""
    unknown = sorted(set(given) - set(NAMES))
    if unknown:
        raise TypeError(f"unknown setting {unknown[0]!r}; the settings are "
                        f"{', '.join(NAMES)}")
    s = Settings()
    lib.corepcg_settings_default(ctypes.byref(s))
    for name, value in given.items():
        if value is not None:
            setattr(s, name, _c_value(name, value))
    check_combination(settings_dict(s),
                      {n for n, v in given.items() if v is not None})
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
