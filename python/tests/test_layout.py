# SPDX-License-Identifier: GPL-2.0-or-later
"""The Python mirror of include/corepcg.h against the header itself: every
struct's fields, offsets and sizes (a program compiled with cc against the
header prints them), every enum constant's value and the library's names
for them, every function's prototype. A header change that is not
mirrored in python/corepcg fails here."""
import ctypes
import inspect
import os
import unittest

import support
from support import corepcg
import cheader
from corepcg import _cdefs, _library, enums, settings
from corepcg.errors import ERRORS, WARNINGS


def _c_type(t):
    """A ctypes type as the header spells it, const and names dropped."""
    if t is None:
        return "void"
    if isinstance(t, type) and issubclass(t, ctypes._Pointer):
        return _c_type(t._type_) + "*"
    if hasattr(t, "_c_name_"):  # a struct, or the monitor's function type
        return t._c_name_
    return {ctypes.c_int: "int", ctypes.c_long: "long",
            ctypes.c_double: "double", ctypes.c_char_p: "char*",
            ctypes.c_void_p: "void*", ctypes.c_ubyte: "unsigned char"}[t]


def layout_problems(text):
    """Every difference between the header text and the ctypes mirror."""
    problems = []
    sizes, fields, _ = cheader.measure(text, support.INCLUDE.split(os.pathsep),
                                       support.CC)
    mirrors = {s._c_name_: s for s in _cdefs.STRUCTURES}
    for name in sorted(set(sizes) | set(mirrors)):
        py = mirrors.get(name)
        if py is None or name not in sizes:
            problems.append(f"struct {name}: only in "
                            f"{'the header' if py is None else 'Python'}")
            continue
        c_fields = fields.get(name, [])
        py_fields = [(f, getattr(py, f).offset, getattr(py, f).size)
                     for f, _ in py._fields_]
        if [f[0] for f in c_fields] != [f[0] for f in py_fields]:
            problems.append(f"struct {name}: fields {[f[0] for f in c_fields]}"
                            f" in C, {[f[0] for f in py_fields]} in Python")
        for c, p in zip(c_fields, py_fields):
            if c != p:
                problems.append(f"{name}.{c[0]}: offset, size {c[1:]} in C, "
                                f"{p[1:]} in Python")
        if sizes[name] != ctypes.sizeof(py):
            problems.append(f"sizeof({name}): {sizes[name]} in C, "
                            f"{ctypes.sizeof(py)} in Python")
    return problems


class Structures(unittest.TestCase):
    def test_every_struct_matches_the_header(self):
        problems = layout_problems(support.header_text())
        if problems:
            self.fail("the ctypes mirror differs from the header:\n"
                      + "\n".join(problems))

    def test_a_field_added_to_the_header_is_caught(self):
        # The check itself must be able to fail: a field in the padding
        # after status (sizeof unchanged) and one at the end.
        text = support.header_text()
        grown = text.replace("    int status;", "    int status;\n    int extra;", 1)
        self.assertNotEqual(grown, text)
        self.assertTrue(any("corepcg_info: fields" in p
                            for p in layout_problems(grown)))
        grown = text.replace("} corepcg_settings;",
                             "    double later;\n} corepcg_settings;", 1)
        self.assertNotEqual(grown, text)
        problems = layout_problems(grown)
        self.assertTrue(any("sizeof(corepcg_settings)" in p for p in problems),
                        problems)

    def test_constraint_records_are_the_c_struct(self):
        self.assertEqual(corepcg.CONSTRAINT_DTYPE.itemsize,
                         ctypes.sizeof(_cdefs.Constraint))
        self.assertEqual(corepcg.CONSTRAINT_DTYPE.names, ("node", "ndof", "p", "q"))

    def test_msg_size(self):
        _, _, constants = cheader.measure(support.header_text(),
                                          support.INCLUDE.split(os.pathsep),
                                          support.CC)
        self.assertEqual(constants["#define"]["COREPCG_MSG_SIZE"],
                         _cdefs.MSG_SIZE)


class Enumerations(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        _, _, cls.constants = cheader.measure(
            support.header_text(), support.INCLUDE.split(os.pathsep), support.CC)

    def test_every_enum_has_a_mirror(self):
        in_c = set(self.constants) - {"#define"}
        self.assertEqual(in_c, set(enums.C_ENUMS))

    def test_values_match(self):
        for cname, (py, prefix) in enums.C_ENUMS.items():
            consts = self.constants[cname]
            members, count = {}, None
            for const, value in consts.items():
                if const == "COREPCG_METHODS_NAMED":
                    count = value  # where the methods added since start
                    continue
                self.assertTrue(const.startswith(prefix), const)
                short = const[len(prefix):]
                if short.endswith("COUNT"):
                    count = value
                else:
                    members[short] = value
            mirror = {m.name: m.value for m in py}
            if py is enums.Method:
                # the library's table: the header's methods, then any
                # added since, valued from COREPCG_METHODS_NAMED on
                added = {k: v for k, v in mirror.items() if k not in members}
                self.assertTrue(all(v >= count for v in added.values()), added)
                mirror = {k: v for k, v in mirror.items() if k in members}
            elif count is not None:
                self.assertEqual(count, len(py), f"{cname} vs {py.__name__}")
            self.assertEqual(members, mirror, f"{cname} vs {py.__name__}")

    def test_labels_are_the_library_names(self):
        lib = corepcg._library.lib
        for py, what in ((enums.Method, "method"), (enums.Precond, "precond"),
                         (enums.Ordering, "ordering"), (enums.Factor, "factor"),
                         (enums.Core, "core"), (enums.AutoReason, "auto_reason")):
            name_of = getattr(lib, f"corepcg_{what}_name")
            for m in py:
                self.assertEqual(name_of(m.value).decode(), m.label)
            self.assertEqual(name_of(len(py)).decode(), "unknown")
            from_name = getattr(lib, f"corepcg_{what}_from_name", None)
            if from_name:
                for m in py:
                    self.assertEqual(from_name(m.label.encode()), m.value)

    def test_every_status_has_its_class(self):
        for s in enums.Status:
            self.assertNotIn("unknown", corepcg.strerror(s), s)
            if s < 0:
                cls = ERRORS[s]
                self.assertTrue(issubclass(cls, corepcg.CorepcgError))
                self.assertEqual(cls.code, s)
            elif s > 0:
                self.assertEqual(WARNINGS[s].code, s)
                self.assertTrue(issubclass(WARNINGS[s], corepcg.CorepcgWarning))
        self.assertEqual(len(set(ERRORS.values())), len(ERRORS))


class Registry(unittest.TestCase):
    """Python's Method and Option against the library's one table of
    methods (corepcg_method_at, corepcg_method_takes,
    corepcg_auto_candidate)."""

    lib = corepcg._library.lib

    def table(self):
        out, k = [], 0
        while self.lib.corepcg_method_at(k) >= 0:
            out.append(self.lib.corepcg_method_at(k))
            k += 1
        return out

    def test_every_method_is_in_the_table_once(self):
        self.assertEqual(sorted(self.table()), sorted(m.value for m in enums.Method))
        self.assertEqual(self.lib.corepcg_method_at(-1), -1)
        self.assertEqual(self.table()[-1], enums.Method.AUTO)

    def test_auto_candidates_are_methods(self):
        cands, k = [], 0
        while self.lib.corepcg_auto_candidate(k) >= 0:
            cands.append(enums.Method(self.lib.corepcg_auto_candidate(k)))
            k += 1
        self.assertEqual(cands, [enums.Method.ICPCG, enums.Method.COREPCG,
                                 enums.Method.MPCG, enums.Method.AMGPCG,
                                 enums.Method.DIRECT])

    def test_takes(self):
        takes = self.lib.corepcg_method_takes
        count = self.lib.corepcg_option_count()
        self.assertGreater(count, len(enums.Option))  # the methods' own
        for m in enums.Method:
            for o in range(count):
                self.assertIn(takes(m, o), (0, 1))
            self.assertEqual(takes(m, count), 0)
            self.assertEqual(takes(m, -1), 0)
        number = self.lib.corepcg_option_from_name
        self.assertEqual(takes(len(enums.Method), enums.Option.TOL), 0)
        self.assertEqual(takes(enums.Method.DIRECT, enums.Option.TOL), 0)
        self.assertEqual(takes(enums.Method.ICPCG, number(b"ic_fill")), 1)
        self.assertEqual(takes(enums.Method.UPCG, number(b"core")), 0)
        # auto reads what any of its candidates reads
        for o in range(count):
            any_cand = any(takes(self.lib.corepcg_auto_candidate(k), o)
                           for k in range(8)
                           if self.lib.corepcg_auto_candidate(k) >= 0)
            self.assertEqual(takes(enums.Method.AUTO, o), int(any_cand), o)

    def test_python_reads_the_table(self):
        """settings.TAKEN_BY is the library's table (no copy of its
        rules): every setting corepcg_option names, each with exactly the
        methods corepcg_method_takes says take it, in the table's order."""
        taken = settings.TAKEN_BY
        count = self.lib.corepcg_option_count()
        names = [self.lib.corepcg_option_describe(o).contents.name.decode()
                 for o in range(count)]
        self.assertEqual(names[:len(enums.Option)],
                         [o.name.lower() for o in enums.Option])
        self.assertEqual(list(taken), names)
        for o, name in enumerate(names):
            want = tuple(enums.Method(m).label for m in self.table()
                         if self.lib.corepcg_method_takes(m, o))
            self.assertEqual(taken[name], want, name)
        self.assertNotIn("direct", taken["tol"])
        self.assertEqual(taken["ic_fill"], ("icpcg", "auto"))
        self.assertEqual(taken["ordering"], ("direct", "corepcg", "auto"))
        self.assertEqual(taken["precond"], ("mpcg-bw", "mpcg", "upcg", "auto"))
        with self.assertRaises(corepcg.ArgumentError):
            settings.make_settings(method="direct", tol=1e-3)
        settings.make_settings(method="icpcg", tol=1e-3, ic_fill=1)


class Functions(unittest.TestCase):
    def test_prototypes_match_the_header(self):
        in_c = cheader.functions(support.header_text())
        in_py = {name: (_c_type(ret), [_c_type(a) for a in args])
                 for name, ret, args in _cdefs.PROTOTYPES}
        self.assertEqual(sorted(in_c), sorted(in_py))
        for name in in_c:
            self.assertEqual(in_py[name], in_c[name], name)

    def test_the_loaded_library_has_them_all(self):
        for name, _, _ in _cdefs.PROTOTYPES:
            self.assertTrue(hasattr(corepcg._library.lib, name), name)


class Keywords(unittest.TestCase):
    def test_every_setting_is_a_keyword(self):
        """The method and the shared settings are Solver's own keywords;
        a method's own setting one of them too, or taken through
        **options (a method added later: test_options.py passes each)."""
        params = inspect.signature(corepcg.Solver).parameters
        shared = ["method"] + [o.name.lower() for o in enums.Option]
        for name in settings.NAMES:
            if name in params or name not in shared:
                self.assertIn(name in params and params[name].kind,
                              (inspect.Parameter.KEYWORD_ONLY, False), name)
            else:
                self.fail(f"{name}: not a keyword of Solver")
        self.assertEqual(params["options"].kind, inspect.Parameter.VAR_KEYWORD)

    def test_defaults_are_the_library_defaults(self):
        d = corepcg.default_settings()
        self.assertEqual(list(d), list(settings.NAMES))
        with corepcg.Solver(_tiny()["A"], stretch_pairs=_tiny()["stretch_pairs"]) as s:
            self.assertEqual(s.settings, d)
        self.assertEqual(d["method"], "auto")
        self.assertEqual(d["tol"], 1e-5)

    def test_info_has_every_field(self):
        t = _tiny()
        _, info = corepcg.solve(t["A"], t["b"], stretch_pairs=t["stretch_pairs"])
        # the kept fields in their order, then the items of the methods
        # added since, which have none (amgpcg's), in the library's order
        kept = [f for f, _ in _cdefs.Info._fields_]
        added = []
        for k in range(_library.lib.corepcg_info_count()):
            name = _library.lib.corepcg_info_describe(k).contents.name.decode()
            if name not in kept and name not in added:
                added.append(name)
        self.assertIn("amg_levels", added)
        self.assertEqual(list(info), kept + added)


def _tiny():
    return corepcg.read_bundle(support.DATA / "tiny")


if __name__ == "__main__":
    unittest.main()
