# SPDX-License-Identifier: GPL-2.0-or-later
"""Solver settings: keywords to corepcg_settings and back. The keywords
are the method and the library's options as it describes them
(corepcg_option_count, corepcg_option_describe: the shared settings and
each method's own), set and read by number (corepcg_option_set, _get).
Defaults come from the library (corepcg_settings_default); types and
names are checked here; which settings go with the method by the
library's rule for the keywords given (corepcg_settings_refusal, as the
CLI refuses options), ranges by the library itself at setup (one place
for the rules)."""
import ctypes
import numbers

import numpy as np

from . import enums
from ._cdefs import MSG_SIZE, Settings
from ._library import lib
from .enums import Method, ValueType
from .errors import ArgumentError

# Every option as the library describes it (corepcg_option_describe), the
# description the CLI parses by, in the library's order: {keyword:
# corepcg_option_info}. A CHOICE takes the members of the enum named as it
# is (precond: Precond), a SWITCH True or False.
OPTIONS = {info.name.decode(): info for info in
           (lib.corepcg_option_describe(k).contents
            for k in range(lib.corepcg_option_count()))}
# Each option's number (corepcg_option_set, _get, _method_takes).
NUMBERS = {name: k for k, name in enumerate(OPTIONS)}

# The keywords: the method, then every option; the monitor is solve()'s
# callback instead.
NAMES = ("method",) + tuple(OPTIONS)


def _choice(name, info):
    """The enum of a CHOICE option: enums' class named as it (precond:
    Precond), or for one it has none of (a newer method's own) one built
    from the library's names of its values."""
    known = getattr(enums, name.capitalize(), None)
    if known is not None:
        return known
    values = {lib.corepcg_option_value_name(NUMBERS[name], v).decode()
              .upper().replace("-", "_"): v for v in range(int(info.max) + 1)}
    return enums.Choice(name.capitalize(), values, module=enums.__name__)


CHOICES = {"method": Method,
           **{name: _choice(name, info) for name, info in OPTIONS.items()
              if info.type == ValueType.CHOICE}}
FLAGS = tuple(name for name, info in OPTIONS.items()
              if info.type == ValueType.SWITCH)

# ---------------------------------------------------------------------
# Which settings each method takes, read at import from the library's one
# table of methods (corepcg_method_at, corepcg_method_takes; auto takes
# what its candidates take): {setting: the labels of the methods that
# take it, in the table's order}. Whether the settings given go together
# is the library's to say (corepcg_settings_refusal, the rule the CLI and
# setup apply): a setting given (not None) that the method does not take
# is refused, as the CLI refuses the option.


def _methods_in_table_order():
    out, k = [], 0
    while lib.corepcg_method_at(k) >= 0:
        out.append(Method(lib.corepcg_method_at(k)))
        k += 1
    return out


TAKEN_BY = {name: tuple(m.label for m in _methods_in_table_order()
                        if lib.corepcg_method_takes(int(m), number))
            for name, number in NUMBERS.items()}


def check_combination(s, given):
    """Raises ArgumentError with the library's message for the first
    refusal of the settings s (corepcg_settings) with `given` (the names
    the caller set): a setting the method does not take, a value one
    method alone takes (precond 'projected': upcg) for another, a setting
    read only while another has a value (core_threshold needs core
    'auto') without it."""
    mask = (ctypes.c_ubyte * len(NUMBERS))(
        *(name in given for name in NUMBERS))
    msg = ctypes.create_string_buffer(MSG_SIZE)
    if lib.corepcg_settings_refusal(ctypes.byref(s), mask, None, msg):
        raise ArgumentError(msg.value.decode().removeprefix("settings: "))
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
        if value is None:
            continue
        if name == "method":
            s.method = _c_value(name, value)
        else:
            lib.corepcg_option_set(ctypes.byref(s), NUMBERS[name],
                                   _c_value(name, value))
    check_combination(s, {n for n, v in given.items() if v is not None})
    return s


def settings_dict(s):
    """corepcg_settings as a dict: choices by label, flags as bool."""
    out = {}
    for name in NAMES:
        v = s.method if name == "method" else \
            lib.corepcg_option_get(ctypes.byref(s), NUMBERS[name])
        if name in CHOICES:
            v = CHOICES[name](int(v)).label
        elif name in FLAGS:
            v = bool(v)
        elif OPTIONS[name].type == ValueType.INT:
            v = int(v)
        out[name] = v
    return out


def default_settings():
    """The library's defaults, as a dict."""
    return settings_dict(make_settings())


def _c_value(name, value):
    if name in CHOICES:
        return int(CHOICES[name].parse(value, name))
    if name in FLAGS:
        if not isinstance(value, (bool, np.bool_, numbers.Integral)) or \
                value not in (0, 1):
            raise TypeError(f"{name} must be True or False, got {value!r}")
        return int(value)
    if OPTIONS[name].type == ValueType.REAL:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"{name} must be a number, got {value!r}")
        return float(value)
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if not -2**31 <= value < 2**31:  # the library then reports the range
        raise ArgumentError(f"{name} = {value} overflows the library's int")
    return int(value)
