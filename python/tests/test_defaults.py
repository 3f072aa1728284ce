# SPDX-License-Identifier: GPL-2.0-or-later
"""Every default the documentation quotes against the one the library
sets (corepcg_settings_default, through the ctypes binding): README.md,
docs/design.md, docs/python.md's keyword table, the header's comments and
#defines, and `corepcg solve --help`. A changed default that is not changed where it is quoted fails
here."""
import re
import unittest

import support
from support import corepcg

DEFAULTS = corepcg.default_settings()


def _read(relative):
    with open(support.REPO / relative) as f:
        return f.read()


def _value(text):
    """A quoted default as the library's dict holds it."""
    text = text.strip("`.,;:")
    try:
        return float(text) if re.search(r"[.e]", text) else int(text)
    except ValueError:
        return text.lower().replace("_", "-")


def _one(pattern, text, where):
    found = re.findall(pattern, text)
    if len(found) != 1:
        raise AssertionError(f"{where}: {pattern!r} found {len(found)} times")
    return _value(found[0])


def header_field_comment(text, field):
    """The comment after `TYPE field;` in struct corepcg_settings."""
    struct = text[text.index("typedef struct corepcg_settings"):]
    struct = struct[:struct.index("} corepcg_settings;")]
    match = re.search(r"\b%s;\s*/\*(.*?)\*/" % field, struct, re.S)
    if not match:
        raise AssertionError(f"corepcg.h: no comment on settings.{field}")
    return " ".join(match.group(1).split())


def cli_help_defaults():
    """{setting: the default `corepcg solve --help` quotes for it}."""
    text = support.cli("solve", "--help").stdout
    quoted = {}
    for block in re.split(r"\n(?=  --)", text):
        option = re.match(r"\s*--([\w-]+)", block)
        if not option:
            continue
        words = " ".join(block.split())
        # `--tol X ... (X in [1e-300, 0.999999], default 1e-05; for ...)`
        match = re.search(r"\bdefault ([^;,)\s]+)", words)
        if match:
            name = option.group(1).replace("-", "_")
            value = match.group(1)
            quoted[name] = False if value == "off" else _value(value)
    return quoted


class TestDefaultsQuoted(unittest.TestCase):
    def test_readme(self):
        text = _read("README.md")
        method, tol = re.findall(
            r"corepcg_settings_default\(&set\);\s*/\* method (\S+), tol (\S+),",
            text)[0]
        self.assertEqual(_value(method), DEFAULTS["method"])
        self.assertEqual(_value(tol), DEFAULTS["tol"])
        self.assertEqual(_one(r"is at most `tol` \(default (`[^`]+`)", text,
                              "README.md"), DEFAULTS["tol"])
        self.assertEqual(_one(r"\(default `[^`]+`;\s+`stop (\w+)`", text,
                              "README.md"), DEFAULTS["stop"])
        self.assertEqual(_one(r"\| `([\w-]+)` \(default\) \|", text,
                              "README.md"), DEFAULTS["method"])

    def test_python_md(self):
        # the keyword table: | `key` | values | default | meaning |
        text = _read("docs/python.md")
        table = text[text.index("| keyword | values | default | meaning |"):]
        quoted = {}
        for line in table[:table.index("\n\n")].splitlines():
            cells = line.split("|")
            key = re.fullmatch(r" `(\w+)` ", cells[1]) if len(cells) > 4 else None
            if key and key.group(1) in DEFAULTS:
                text = cells[3].strip().strip('`"')
                quoted[key.group(1)] = (text == "True" if text in ("True", "False")
                                        else _value(text))
        self.assertEqual(quoted, DEFAULTS)

    def test_design(self):
        text = _read("docs/design.md")
        self.assertEqual(_one(r"The default tol is (\S+) ", text,
                              "docs/design.md"), DEFAULTS["tol"])

    def test_header_defines(self):
        text = support.header_text()
        for name, setting in (("TOL", "tol"), ("MAX_ITER", "max_iter"),
                              ("CORE_THRESHOLD", "core_threshold")):
            with self.subTest(setting=setting):
                self.assertEqual(
                    _one(r"#define COREPCG_DEFAULT_%s (\S+)" % name, text,
                         "corepcg.h"), DEFAULTS[setting])

    def test_header_comments(self):
        text = support.header_text()
        for setting in ("method", "precond", "ordering", "factor", "stop"):
            with self.subTest(setting=setting):
                comment = header_field_comment(text, setting)
                quoted = re.search(r"default (?:COREPCG_METHOD_)?([A-Z_]+)\b",
                                   comment)
                self.assertIsNotNone(quoted, comment)
                self.assertEqual(_value(quoted.group(1)), DEFAULTS[setting])

    def test_cli_help(self):
        quoted = cli_help_defaults()
        # --fallback's flag and its setting's name differ (--STEM WORD)
        quoted["fallback_upcg"] = quoted.pop("fallback")
        self.assertEqual(quoted, DEFAULTS)


if __name__ == "__main__":
    unittest.main()
