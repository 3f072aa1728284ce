# SPDX-License-Identifier: GPL-2.0-or-later
"""The C structures of include/corepcg.h as ctypes, defined here and nowhere
else. tests/test_layout.py compiles a program against the header and fails
when a field, an offset or a size differs from these."""
import ctypes
from ctypes import CFUNCTYPE, POINTER, c_char_p, c_double, c_int, c_long, \
    c_ubyte, c_void_p

MSG_SIZE = 512  # COREPCG_MSG_SIZE: every msg buffer holds this many bytes

# C enums are int-sized; their values are in enums.py.
c_enum = c_int

# corepcg_monitor: int (*)(int iteration, double residual, void *user).
Monitor = CFUNCTYPE(c_int, c_int, c_double, c_void_p)
Monitor._c_name_ = "corepcg_monitor"
# The settings' fields that hold the monitor: set per solve by
# corepcg_set_monitor (solver.py), never keywords of the settings.
MONITOR_FIELDS = ("monitor", "monitor_user")


class Settings(ctypes.Structure):
    _c_name_ = "corepcg_settings"
    _fields_ = [
        ("method", c_enum),
        ("tol", c_double),
        ("max_iter", c_int),
        ("precond", c_enum),
        ("ordering", c_enum),
        ("factor", c_enum),
        ("stop", c_enum),
        # COREPCG_METHOD_OPTION_SLOTS: the methods' own settings, read and
        # written by option number (corepcg_option_set, _get)
        ("method_options", c_double * 8),
        ("monitor", Monitor),
        ("monitor_user", c_void_p),
    ]


class OptionInfo(ctypes.Structure):
    _c_name_ = "corepcg_option_info"
    _fields_ = [
        ("name", c_char_p),
        ("flag", c_char_p),
        ("type", c_int),
        ("min", c_double),
        ("max", c_double),
        ("default_value", c_double),
        ("family", c_char_p),
        ("needs", c_char_p),
        ("needs_value", c_int),
        ("help", c_char_p),
    ]


class Constraint(ctypes.Structure):
    _c_name_ = "corepcg_constraint"
    _fields_ = [
        ("node", c_int),
        ("ndof", c_int),
        ("p", c_double * 3),
        ("q", c_double * 3),
    ]


class System(ctypes.Structure):
    _c_name_ = "corepcg_system"
    _fields_ = [
        ("num_nodes", c_int),
        ("A_format", c_enum),
        ("A_triangle", c_enum),
        ("A_colptr", POINTER(c_int)),
        ("A_rowidx", POINTER(c_int)),
        ("A_colidx", POINTER(c_int)),
        ("A_values", POINTER(c_double)),
        ("A_nnz", c_int),
        ("num_constraints", c_int),
        ("constraints", POINTER(Constraint)),
        ("z", POINTER(c_double)),
        ("num_stretch", c_int),
        ("stretch_pairs", POINTER(c_int)),
    ]


class Info(ctypes.Structure):
    _c_name_ = "corepcg_info"
    _fields_ = [
        ("status", c_int),
        ("method", c_enum),
        ("method_used", c_enum),
        ("auto_reason", c_enum),
        ("n", c_int),
        ("r", c_int),
        ("iterations", c_int),
        ("converged", c_int),
        ("fell_back", c_int),
        ("rel_residual", c_double),
        ("constraint_error", c_double),
        ("nnz_reduced", c_long),
        ("nnz_core", c_long),
        ("nnz_factor", c_long),
        ("core_blocks", c_long),
        ("core_compensated", c_int),
        ("ordering", c_enum),
        ("factor_supernodal", c_int),
        ("analysis_reused", c_int),
        ("ic_fill", c_int),
        ("ic_shift", c_double),
        ("ic_retries", c_int),
        ("ic_compensation", c_double),
        ("time_reduce_s", c_double),
        ("time_analyze_s", c_double),
        ("time_factor_s", c_double),
        ("factor_flops", c_double),
        ("time_setup_s", c_double),
        ("time_iterate_s", c_double),
        ("time_solve_s", c_double),
        ("time_total_s", c_double),
    ]


class InfoItem(ctypes.Structure):
    _c_name_ = "corepcg_info_item"
    _fields_ = [
        ("name", c_char_p),
        ("type", c_int),
        ("unit", c_char_p),
        ("help", c_char_p),
    ]


class Bundle(ctypes.Structure):
    _c_name_ = "corepcg_bundle"
    _fields_ = [
        ("system", System),
        ("b", POINTER(c_double)),
        ("x0", POINTER(c_double)),
        ("A_general", c_int),
        ("A_file_entries", c_long),
        ("has_z", c_int),
        ("has_constraints", c_int),
        ("has_stretch", c_int),
    ]


class Handle(ctypes.Structure):
    """corepcg_solver: opaque, only ever behind a pointer."""
    _c_name_ = "corepcg_solver"
    _fields_ = []


STRUCTURES = (Settings, OptionInfo, Constraint, System, Info, InfoItem,
              Bundle)

# Each function of the header: (name, result type, argument types). The
# layout test compares these with the prototypes in the header.
PROTOTYPES = (
    ("corepcg_version", c_char_p, ()),
    ("corepcg_strerror", c_char_p, (c_int,)),
    ("corepcg_method_name", c_char_p, (c_int,)),
    ("corepcg_precond_name", c_char_p, (c_int,)),
    ("corepcg_ordering_name", c_char_p, (c_int,)),
    ("corepcg_factor_name", c_char_p, (c_int,)),
    ("corepcg_core_name", c_char_p, (c_int,)),
    ("corepcg_auto_reason_name", c_char_p, (c_int,)),
    ("corepcg_stop_name", c_char_p, (c_int,)),
    ("corepcg_method_from_name", c_int, (c_char_p,)),
    ("corepcg_stop_from_name", c_int, (c_char_p,)),
    ("corepcg_precond_from_name", c_int, (c_char_p,)),
    ("corepcg_ordering_from_name", c_int, (c_char_p,)),
    ("corepcg_factor_from_name", c_int, (c_char_p,)),
    ("corepcg_core_from_name", c_int, (c_char_p,)),
    ("corepcg_method_at", c_int, (c_int,)),
    ("corepcg_method_takes", c_int, (c_int, c_int)),
    ("corepcg_auto_candidate", c_int, (c_int,)),
    ("corepcg_method_reports", c_int, (c_int,)),
    ("corepcg_settings_default", None, (POINTER(Settings),)),
    ("corepcg_option_count", c_int, ()),
    ("corepcg_option_from_name", c_int, (c_char_p,)),
    ("corepcg_option_describe", POINTER(OptionInfo), (c_int,)),
    ("corepcg_option_value_name", c_char_p, (c_int, c_int)),
    ("corepcg_option_value_from_name", c_int, (c_int, c_char_p)),
    ("corepcg_option_value_method", c_int,
     (c_int, c_int, POINTER(c_char_p))),
    ("corepcg_option_set", c_int, (POINTER(Settings), c_int, c_double)),
    ("corepcg_option_get", c_double, (POINTER(Settings), c_int)),
    ("corepcg_settings_refusal", c_int,
     (POINTER(Settings), POINTER(c_ubyte), POINTER(c_int), c_char_p)),
    ("corepcg_settings_for_method", None, (POINTER(Settings),)),
    ("corepcg_info_count", c_int, ()),
    ("corepcg_info_describe", POINTER(InfoItem), (c_int,)),
    ("corepcg_info_method", c_int, (c_int,)),
    ("corepcg_info_value_name", c_char_p, (c_int, c_int)),
    ("corepcg_create", c_int, (POINTER(POINTER(Handle)),)),
    ("corepcg_setup", c_int,
     (POINTER(Handle), POINTER(System), POINTER(Settings))),
    ("corepcg_update", c_int,
     (POINTER(Handle), POINTER(System), POINTER(Info))),
    ("corepcg_ready", c_int, (POINTER(Handle),)),
    ("corepcg_solve", c_int,
     (POINTER(Handle), POINTER(c_double), POINTER(c_double),
      POINTER(c_double), POINTER(Info))),
    ("corepcg_set_monitor", c_int, (POINTER(Handle), Monitor, c_void_p)),
    ("corepcg_info_get", c_int, (POINTER(Handle), c_int, POINTER(c_double))),
    ("corepcg_message", c_char_p, (POINTER(Handle),)),
    ("corepcg_free", None, (POINTER(POINTER(Handle)),)),
    ("corepcg_check", c_int,
     (POINTER(System), POINTER(c_double), POINTER(c_double),
      POINTER(c_double), POINTER(c_double), c_char_p)),
    ("corepcg_filter", c_int,
     (c_int, c_int, POINTER(Constraint), POINTER(c_double),
      POINTER(c_double), c_char_p)),
    ("corepcg_bundle_read", c_int,
     (c_char_p, POINTER(POINTER(Bundle)), c_char_p)),
    ("corepcg_bundle_free", None, (POINTER(POINTER(Bundle)),)),
    ("corepcg_bundle_write", c_int,
     (c_char_p, POINTER(System), POINTER(c_double), POINTER(c_double),
      c_char_p)),
    ("corepcg_vector_read", c_int,
     (c_char_p, c_int, POINTER(POINTER(c_double)), c_char_p)),
    ("corepcg_vector_write", c_int,
     (c_char_p, c_int, POINTER(c_double), c_char_p)),
)
