# SPDX-License-Identifier: GPL-2.0-or-later
"""The library's messages in Python's terms where they name C: a message
that names corepcg_system's fields or a bundle's files tells a Python
caller which keyword to pass instead."""
from ._library import lib, text
from .enums import Core, Status
from .settings import NUMBERS


def _choice(option, value):
    """keyword='value' as the library names them (its option table)."""
    name = lib.corepcg_option_value_name(NUMBERS[option], int(value))
    return f"{option}='{text(name)}'"


def python_message(code, message):
    """message (the library's detail of code) for a Python caller."""
    if code == Status.ERR_NO_CORE:
        # The library names stretch.mtx / corepcg_system.stretch_pairs.
        return ("the system has no stretch pairs to build the matrix core "
                "from: pass stretch_pairs= (the stretch springs' node "
                "pairs); a system with no springs (per-triangle forces): "
                "give the mesh edges as stretch_pairs, or "
                f"{_choice('core', Core.AUTO)} (a core of A's strongest "
                "blocks, no pairs needed)")
    return message
