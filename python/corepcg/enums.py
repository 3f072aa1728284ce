# SPDX-License-Identifier: GPL-2.0-or-later
"""The enumerations of include/corepcg.h, with the values the C library
uses. Each choice's `label` is the name the library and the CLI spell it
("mpcg-bw"); tests/test_layout.py checks values and labels against the
header and the library's corepcg_*_name functions. Method is read from
the library's table of methods at import, so that a method added to the
library is a member here with no line of this file changed."""
import enum

from ._library import lib


class Status(enum.IntEnum):
    """corepcg_status: 0 OK, > 0 a warning (x usable), < 0 an error."""
    OK = 0
    NOT_CONVERGED = 1
    FELL_BACK = 2
    STOPPED = 3
    ERR_ARGUMENT = -1
    ERR_NO_MEMORY = -2
    ERR_IO = -3
    ERR_FORMAT = -4
    ERR_DIMENSION = -5
    ERR_NOT_FINITE = -6
    ERR_NOT_SYMMETRIC = -7
    ERR_CONSTRAINT = -8
    ERR_NOT_SPD = -9
    ERR_CORE_NOT_SPD = -10
    ERR_BREAKDOWN = -11
    ERR_NAN = -12
    ERR_NO_CORE = -13
    ERR_STATE = -14
    ERR_CHOLMOD = -15
    ERR_TOO_LARGE = -16
    ERR_IC_BREAKDOWN = -17


class Choice(enum.IntEnum):
    """A setting's value; `label` is the library's name for it."""

    @property
    def label(self):
        return self.name.lower().replace("_", "-")

    @classmethod
    def labels(cls):
        return [m.label for m in cls]

    @classmethod
    def parse(cls, value, what):
        """A member from its label ("mpcg-bw"), its name or the member."""
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            for m in cls:
                if value.lower() in (m.label, m.name.lower()):
                    return m
            raise ValueError(f"{what} must be one of {', '.join(cls.labels())};"
                             f" got {value!r}")
        raise TypeError(f"{what} must be a string ({', '.join(cls.labels())}),"
                        f" got {type(value).__name__}")


def _methods():
    """{MEMBER: value} of every method of the library's table
    (corepcg_method_at, corepcg_method_name: "mpcg-bw" is MPCG_BW), in
    the order of their values."""
    members, k = {}, 0
    while lib.corepcg_method_at(k) >= 0:
        value = lib.corepcg_method_at(k)
        label = lib.corepcg_method_name(value).decode()
        members[label.upper().replace("-", "_")] = value
        k += 1
    return dict(sorted(members.items(), key=lambda item: item[1]))


Method = Choice("Method", _methods(), module=__name__, qualname="Method")
Method.__doc__ = """corepcg_method: every method of the library's table (the
header's constants, and any method added since), Method.AUTO,
Method.MPCG_BW, ..."""


class AutoReason(Choice):
    NONE = 0
    FIRST = 1
    FASTEST = 2
    PROBE = 3
    RECHECK = 4
    FALLBACK = 5
    BREAKDOWN = 6


class Precond(Choice):
    DIAG = 0
    BLOCK = 1
    PROJECTED = 2


class Ordering(Choice):
    BEST = 0
    AMD = 1
    METIS = 2
    NESDIS = 3


class Factor(Choice):
    LDL = 0
    LL = 1
    AUTO = 2


class Core(Choice):
    STRETCH = 0
    AUTO = 1


class Stop(Choice):
    RESIDUAL = 0
    PRECONDITIONED = 1


class Option(enum.IntEnum):
    """corepcg_option: the settings more than one method reads, by number
    (tests/test_layout.py checks the table against it); the methods' own
    follow from COUNT on, found by name (settings.OPTIONS)."""
    TOL = 0
    MAX_ITER = 1
    PRECOND = 2
    ORDERING = 3
    FACTOR = 4
    STOP = 5


class Refusal(enum.IntEnum):
    """corepcg_refusal: why settings do not go together
    (corepcg_settings_refusal)."""
    NONE = 0
    METHOD = 1
    VALUE = 2
    NEEDS = 3


class ValueType(enum.IntEnum):
    """corepcg_value_type: how a setting's value is given
    (corepcg_option_info.type)."""
    REAL = 0
    INT = 1
    CHOICE = 2
    SWITCH = 3


class Report(enum.IntFlag):
    """corepcg_report: what a method's info reports beside its iterations
    (corepcg_method_reports)."""
    CHOLMOD = 1
    CORE = 2
    INCOMPLETE = 4


class Format(enum.IntEnum):
    """corepcg_format: how A's arrays are given."""
    CSC = 0
    TRIPLET = 1


class Triangle(Choice):
    """corepcg_triangle: which entries of A are given."""
    LOWER = 0
    UPPER = 1
    BOTH = 2


# Each C enum: its Python mirror and the prefix of its constants' names
# (COREPCG_METHOD_MPCG_BW is Method.MPCG_BW); *_COUNT constants are sizes.
C_ENUMS = {
    "corepcg_status": (Status, "COREPCG_"),
    "corepcg_method": (Method, "COREPCG_METHOD_"),
    "corepcg_auto_reason": (AutoReason, "COREPCG_AUTO_"),
    "corepcg_precond": (Precond, "COREPCG_PRECOND_"),
    "corepcg_ordering": (Ordering, "COREPCG_ORDERING_"),
    "corepcg_factor": (Factor, "COREPCG_FACTOR_"),
    "corepcg_core": (Core, "COREPCG_CORE_"),
    "corepcg_stop": (Stop, "COREPCG_STOP_"),
    "corepcg_option": (Option, "COREPCG_OPTION_"),
    "corepcg_value_type": (ValueType, "COREPCG_VALUE_"),
    "corepcg_refusal": (Refusal, "COREPCG_REFUSAL_"),
    "corepcg_report": (Report, "COREPCG_REPORT_"),
    "corepcg_format": (Format, "COREPCG_"),
    "corepcg_triangle": (Triangle, "COREPCG_"),
}
