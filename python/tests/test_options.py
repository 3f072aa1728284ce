# SPDX-License-Identifier: GPL-2.0-or-later
"""Options described once: the library's description of each setting
(corepcg_option_describe) against every other place that lists them --
Python's keywords and their defaults, the CLI's `solve --help`, and the
docs' table of keywords (docs/python.md). A setting added to the library
and missing from one of them, or listed with another default, fails
here."""
import re
import unittest

import support
from support import corepcg
from corepcg import enums, settings
from corepcg._library import lib

# Options of `corepcg solve` that are not settings of the library.
CLI_ONLY = {"--method", "--out", "--repeat", "--json", "--monitor", "--help"}


def described():
    """[corepcg_option_info] in the library's order: the shared options
    (corepcg_option), then the methods' own."""
    return [lib.corepcg_option_describe(k).contents
            for k in range(lib.corepcg_option_count())]


def number(info):
    return lib.corepcg_option_from_name(info.name)


def shown_default(info):
    """The default as Python's settings show it."""
    if info.type == enums.ValueType.CHOICE:
        return lib.corepcg_option_value_name(
            number(info), int(info.default_value)).decode()
    if info.type == enums.ValueType.SWITCH:
        return bool(info.default_value)
    if info.type == enums.ValueType.INT:
        return int(info.default_value)
    return info.default_value


class Python(unittest.TestCase):
    def test_keywords_are_the_options(self):
        names = [i.name.decode() for i in described()]
        self.assertEqual(list(settings.NAMES), ["method"] + names)
        self.assertEqual(list(settings.OPTIONS), names)

    def test_defaults(self):
        d = corepcg.default_settings()
        for info in described():
            self.assertEqual(d[info.name.decode()], shown_default(info))

    def test_choices_are_the_enums(self):
        for info in described():
            name = info.name.decode()
            if info.type != enums.ValueType.CHOICE:
                self.assertNotIn(name, settings.CHOICES)
                continue
            labels = [lib.corepcg_option_value_name(number(info), v).decode()
                      for v in range(int(info.max) + 1)]
            self.assertEqual([m.label for m in settings.CHOICES[name]], labels)


    def test_solver_takes_every_option_by_name(self):
        """Solver takes every option the library describes as a keyword
        (its own or through **options), and an unknown one is a
        TypeError."""
        from corepcg.bundle import read_bundle
        d = read_bundle(support.DATA / "tiny")
        system = dict(constraints=d["constraints"], z=d["z"],
                      stretch_pairs=d["stretch_pairs"])
        for info in described():
            name = info.name.decode()
            method = next(m.label for m in enums.Method
                          if lib.corepcg_method_takes(int(m), number(info)))
            given = {name: shown_default(info)}
            if info.needs is not None:
                given[info.needs.decode()] = lib.corepcg_option_value_name(
                    lib.corepcg_option_from_name(info.needs),
                    info.needs_value).decode()
            with self.subTest(option=name):
                s = corepcg.Solver(d["A"], method=method, **system, **given)
                self.assertEqual(s.settings[name], shown_default(info))
        with self.assertRaises(TypeError):
            corepcg.Solver(d["A"], **system, no_such_option=1)


class Cli(unittest.TestCase):
    def test_help_lists_every_option(self):
        usage = support.cli("solve", "--help").stdout
        flags = set(re.findall(r"^\s+(--[a-z-]+)", usage, re.M)) - CLI_ONLY
        self.assertEqual(flags, {i.flag.decode() for i in described()})

    def test_each_option_is_parsed(self):
        """Every option with its default value is accepted by a method
        that takes it (and gives the same answer as without it)."""
        for info in described():
            method = next(lib.corepcg_method_name(int(m)).decode()
                          for m in enums.Method
                          if lib.corepcg_method_takes(int(m), number(info)))
            value = shown_default(info)
            if info.type == enums.ValueType.SWITCH:
                name = info.name.decode()
                value = name[len(info.flag.decode()) - 1:]  # --STEM WORD
            args = ["solve", support.DATA / "tiny", "--method", method,
                    info.flag.decode(), str(value)]
            if info.name == b"core_threshold":
                args += ["--core", "auto"]
            with self.subTest(option=info.name):
                support.cli(*args)
                # past its range: refused as a usage error
                if info.type in (enums.ValueType.INT, enums.ValueType.REAL):
                    support.cli(*args[:-1], repr(info.max * 2 + 1), expect=(2,))


class Docs(unittest.TestCase):
    def test_python_md_table(self):
        """docs/python.md's table of keywords: every setting once, with
        the library's default."""
        text = (support.REPO / "docs" / "python.md").read_text()
        start = text.index("| keyword | values | default | meaning |")
        section = text[start:text.index("\n\n", start)]
        rows = re.findall(r"^\| `(\w+)` \| [^|]* \| ([^|]*) \|", section, re.M)
        table = dict(rows)
        self.assertEqual(len(rows), len(table), "a keyword twice")
        self.assertEqual(sorted(table), sorted(settings.NAMES))
        for info in described():
            shown = table[info.name.decode()].strip().strip("`").strip('"')
            want = shown_default(info)
            if isinstance(want, bool):
                self.assertEqual(shown, str(want))
            elif isinstance(want, str):
                self.assertEqual(shown, want)
            else:
                self.assertEqual(float(shown), want, info.name)

    def test_method_tables(self):
        """README's table of methods and docs/python.md's row of the
        method keyword name every method of the library's table, once."""
        methods = sorted(m.label for m in enums.Method)
        readme = (support.REPO / "README.md").read_text()
        start = readme.index("| method | what it runs |")
        section = readme[start:readme.index("\n\n", start)]
        rows = re.findall(r"^\| `([\w-]+)`", section, re.M)
        self.assertEqual(sorted(rows), methods, "README.md's table of methods")
        text = (support.REPO / "docs" / "python.md").read_text()
        row = re.search(r"^\| `method` \| ([^|]*) \|", text, re.M).group(1)
        self.assertEqual(sorted(re.findall(r'`"([\w-]+)"`', row)), methods,
                         "docs/python.md's method keyword")


if __name__ == "__main__":
    unittest.main()
