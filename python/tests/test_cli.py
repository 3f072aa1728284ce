# SPDX-License-Identifier: GPL-2.0-or-later
"""Every method, and every setting, on the shipped bundles: the Python
answer is the CLI's (`corepcg solve BUNDLE --out x.mtx`) bit for bit, and
so are the deterministic info fields (the CLI's --json)."""
import json
import re
import tempfile
import unittest
import warnings
from pathlib import Path

import numpy as np

import support
from support import corepcg

METHODS = [m.label for m in corepcg.Method]

# CLI options -> the same settings as keywords.
VARIANTS = [
    (("--method", "upcg", "--precond", "block"), dict(method="upcg", precond="block")),
    (("--method", "upcg", "--precond", "projected"), dict(method="upcg", precond="projected")),
    (("--method", "mpcg", "--precond", "block"), dict(method="mpcg", precond="block")),
    (("--method", "mpcg-bw", "--precond", "block"), dict(method="mpcg-bw", precond="block")),
    (("--method", "corepcg", "--factor", "ldl", "--ordering", "metis"),
     dict(method="corepcg", factor="ldl", ordering="metis")),
    (("--method", "direct", "--factor", "ll", "--ordering", "nesdis"),
     dict(method="direct", factor="ll", ordering="nesdis")),
    (("--method", "corepcg", "--ordering", "best"), dict(method="corepcg", ordering="best")),
    (("--method", "corepcg", "--core", "auto", "--core-threshold", "5e-6"),
     dict(method="corepcg", core="auto", core_threshold=5e-6)),
    (("--method", "corepcg", "--fallback", "upcg"), dict(method="corepcg", fallback_upcg=True)),
    (("--method", "icpcg", "--ic-fill", "1"), dict(method="icpcg", ic_fill=1)),
    (("--method", "corepcg", "--tol", "1e-8", "--max-iter", "50"),
     dict(method="corepcg", tol=1e-8, max_iter=50)),
    (("--tol", "1e-6"), dict(tol=1e-6)),
]

# Fields the CLI's JSON prints for every method, equal bit for bit.
SAME = ("method", "method_used", "auto_reason", "n", "r", "iterations",
        "converged", "fell_back", "rel_residual", "constraint_error",
        "nnz_reduced", "analysis_reused")


class AgainstTheCli(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.bundles = {name: corepcg.read_bundle(support.DATA / name)
                       for name in support.BUNDLES}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def compare(self, name, options, settings, expect=(0,)):
        out = f"{self.tmp.name}/x.mtx"
        x_cli, js = support.cli_solve(support.DATA / name, out, options,
                                      expect=expect)
        system, b, x0 = support.bundle_args(self.bundles[name])
        x, info = corepcg.solve(self.bundles[name]["A"], b, x0, **system,
                                **settings)
        label = f"{name} {' '.join(options)}"
        if x.tobytes() != x_cli.tobytes():  # bit for bit, not to round-off
            self.fail(f"{label}: x differs from the CLI's, max "
                      f"{np.max(np.abs(x - x_cli)):.3e}")
        if js["auto_reason"] is None:  # the CLI's null is the library's none
            js["auto_reason"] = "none"
        for key in SAME:
            self.assertEqual(info[key], js[key], f"{label}: {key}")
        self.assertEqual(corepcg.strerror(info["status"]), js["status"])
        return info

    def test_every_method_on_every_bundle(self):
        for name in support.BUNDLES:
            for method in METHODS:
                with self.subTest(bundle=name, method=method):
                    info = self.compare(name, ("--method", method),
                                        dict(method=method))
                    self.assertEqual(info["status"], corepcg.Status.OK)
                    self.assertTrue(info["converged"])

    def test_names_in_any_case(self):
        # the CLI reads a choice's name in any case, as Python does
        info = self.compare("tiny", ("--method", "ICPCG", "--stop", "Residual"),
                            dict(method="IcPcG", stop="RESIDUAL"))
        self.assertEqual(info["method"], "icpcg")
        proc = support.cli("solve", support.DATA / "tiny", "--method", "MPCG-BW",
                           "--json")
        self.assertEqual(json.loads(proc.stdout)["method"], "mpcg-bw")

    def test_every_setting(self):
        for options, settings in VARIANTS:
            with self.subTest(options=options):
                self.compare("ballhit41-k6000", options, settings)

    def test_not_converged_warns_and_matches(self):
        # The CLI exits 3 and writes the flagged answer; Python warns.
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            info = self.compare("ballhit41-k6000",
                                ("--method", "mpcg", "--max-iter", "3"),
                                dict(method="mpcg", max_iter=3), expect=(3,))
        self.assertEqual(info["status"], corepcg.Status.NOT_CONVERGED)
        self.assertFalse(info["converged"])
        self.assertEqual(info["iterations"], 3)
        self.assertEqual([type(w.message) for w in caught],
                         [corepcg.NotConvergedWarning])
        self.assertIn("3 iterations", str(caught[0].message))
        self.assertEqual(caught[0].filename, __file__)  # the caller's line

    def test_check_matches_the_cli(self):
        import json
        tiny = self.bundles["tiny"]
        x = corepcg.read_vector(support.DATA / "tiny" / "x.mtx", 12)
        system, b, _ = support.bundle_args(tiny)
        got = corepcg.check(tiny["A"], b, x, **system)
        js = json.loads(support.cli("check", support.DATA / "tiny",
                                    support.DATA / "tiny" / "x.mtx",
                                    "--json").stdout)
        self.assertEqual(got.constraint_error, js["constraint_error"])
        self.assertEqual(got.rel_residual, js["rel_residual"])
        # data/README.md: moving x_9 by 0.5 gives 0.136251485884805619
        x[9] += 0.5
        self.assertAlmostEqual(corepcg.check(tiny["A"], b, x, **system)
                               .rel_residual, 0.136251485884805619, places=12)


# One setting each, as CLI options and as keywords (core_threshold needs
# core auto).
ONE_SETTING = (
    (("--precond", "block"), dict(precond="block")),
    (("--precond", "projected"), dict(precond="projected")),
    (("--ordering", "amd"), dict(ordering="amd")),
    (("--factor", "ll"), dict(factor="ll")),
    (("--core", "auto"), dict(core="auto")),
    (("--core", "auto", "--core-threshold", "0.1"),
     dict(core="auto", core_threshold=0.1)),
    (("--fallback", "upcg"), dict(fallback_upcg=True)),
    (("--ic-fill", "1"), dict(ic_fill=1)),
    (("--tol", "1e-4"), dict(tol=1e-4)),
    (("--max-iter", "50"), dict(max_iter=50)),
)


class OptionsAMethodDoesNotTake(unittest.TestCase):
    """Python refuses exactly the settings the CLI refuses, per method,
    naming the setting and the method (both ask the library's rule,
    corepcg_settings_refusal, for the settings given); the counts below
    are the table's, so a wrong table fails here too."""

    def test_python_and_cli_agree(self):
        tiny = corepcg.read_bundle(support.DATA / "tiny")
        system, _, _ = support.bundle_args(tiny)
        refused = []
        for method in METHODS:
            for options, settings in ONE_SETTING:
                with self.subTest(method=method, options=options):
                    proc = support.cli("solve", support.DATA / "tiny",
                                       "--method", method, *options,
                                       expect=(0, 2))
                    try:
                        corepcg.Solver(tiny["A"], method=method, **system,
                                       **settings).close()
                        python_error = None
                    except corepcg.ArgumentError as e:
                        python_error = e
                    self.assertEqual(proc.returncode == 2,
                                     python_error is not None, proc.stderr)
                    if python_error is None:
                        continue
                    refused.append((method, options[-2]))
                    self.assertIn(f"--method {method} does not take",
                                  proc.stderr)
                    self.assertIsInstance(python_error, ValueError)
                    self.assertEqual(python_error.code,
                                     corepcg.Status.ERR_ARGUMENT)
                    # the first setting refused is the first given
                    want = (f"method {method!r} does not take "
                            f"{next(iter(settings))}")
                    self.assertTrue(python_error.message.startswith(want),
                                    python_error.message)
        # direct: no tol, no max_iter, no precond, no core, no ic_fill
        self.assertIn(("direct", "--tol"), refused)
        self.assertIn(("direct", "--max-iter"), refused)
        self.assertNotIn(("auto", "--ic-fill"), refused)
        # of the header's 7 methods x 10 settings, refused: precond block
        # 3 (icpcg, corepcg, direct), projected 6 (all but upcg), ordering
        # 4, factor 4, core 5, core_threshold 5, fallback 5, ic_fill 5, tol
        # 1, max_iter 1 (a method added since is checked above, not counted)
        enum = support.header_text().split("typedef enum corepcg_method {")[1]
        constants = re.findall(r"COREPCG_METHOD_(\w+)", enum.split("}")[0])
        named = {m.label for m in corepcg.Method if m.name in constants}
        self.assertEqual(len([r for r in refused if r[0] in named]), 39)

    def test_messages(self):
        A = corepcg.read_bundle(support.DATA / "tiny")["A"]
        with self.assertRaises(ValueError) as cm:
            corepcg.solve(A, np.zeros(12), method="direct", tol=1e-3)
        self.assertEqual(
            cm.exception.message,
            "method 'direct' does not take tol (it is for mpcg-bw, mpcg, "
            "upcg, corepcg, icpcg, amgpcg and auto)")
        with self.assertRaises(corepcg.ArgumentError) as cm:
            corepcg.Solver(A, method="mpcg", ic_fill=0)
        self.assertEqual(cm.exception.message, "method 'mpcg' does not take "
                         "ic_fill (it is for icpcg and auto)")
        with self.assertRaises(corepcg.ArgumentError) as cm:
            corepcg.Solver(A, method="corepcg", core_threshold=0.1)
        self.assertEqual(cm.exception.message,
                         "core_threshold is for core='auto', not "
                         "core='stretch'")
        # None is "not given": the library's default, never refused
        corepcg.solve(A, np.zeros(12), method="direct", tol=None,
                      precond=None)


class JsonErrors(unittest.TestCase):
    """--json on failure: one error object alone on stdout, the human
    message on stderr, exit 1 (or 2 for a bad command line)."""

    def error(self, args, exit_status):
        proc = support.cli(*args, expect=(exit_status,))
        self.assertEqual(len(proc.stdout.splitlines()), 1, proc.stdout)
        obj = json.loads(proc.stdout)
        self.assertEqual(list(obj), ["error"])
        err = obj["error"]
        self.assertEqual(list(err), ["status", "code", "message"])
        self.assertEqual(err["code"], corepcg.Status(err["status"]).name)
        self.assertEqual(proc.stderr.splitlines()[0],
                         "corepcg: " + err["message"])
        return err

    def test_every_command_that_takes_json(self):
        tiny = support.DATA / "tiny"
        with tempfile.TemporaryDirectory() as tmp:
            err = self.error(("info", Path(tmp) / "none", "--json"), 1)
            self.assertEqual((err["status"], err["code"]), (-3, "ERR_IO"))
            self.assertEqual(err["message"], f"{tmp}/none/A.mtx: cannot "
                             "open: No such file or directory")
            # x.mtx of the wrong size: b.mtx has 12 rows, A 12 x 12; a
            # quote and a tab in the path come out escaped
            bad = Path(tmp) / 'x"\t.mtx'
            bad.write_text("%%MatrixMarket matrix array real general\n"
                           "2 1\n1\n2\n")
            err = self.error(("check", tiny, bad, "--json"), 1)
            self.assertEqual(err["code"], "ERR_DIMENSION")
            self.assertTrue(err["message"].startswith(str(bad)), err)
            err = self.error(("solve", tiny, "--method", "direct", "--tol",
                              "1e-3", "--json"), 2)
            self.assertEqual((err["status"], err["code"]),
                             (-1, "ERR_ARGUMENT"))
            # only --tol given: only --tol named (issue 36)
            self.assertEqual(err["message"], "solve: --method direct does "
                             "not take --tol (it is for "
                             "mpcg-bw, mpcg, upcg, corepcg, icpcg, amgpcg, "
                             "auto's "
                             "icpcg, auto's corepcg, auto's mpcg and "
                             "auto's amgpcg)")
            err = self.error(("solve", "--json", tiny, "--bogus"), 2)
            self.assertEqual(err["message"], "solve: unknown option '--bogus'")
            # an unwritable --out: refused before solving, nothing written
            (Path(tmp) / "file").write_text("")
            err = self.error(("solve", tiny, "--out", Path(tmp) / "file" /
                              "x.mtx", "--json"), 1)
            self.assertEqual(err["code"], "ERR_IO")
            # a numerical failure: A not positive definite
            corepcg.write_bundle(Path(tmp) / "indefinite", corepcg_blocks(),
                                 np.ones(6))
            err = self.error(("solve", Path(tmp) / "indefinite", "--method",
                              "direct", "--json"), 1)
            self.assertEqual((err["status"], err["code"]),
                             (-9, "ERR_NOT_SPD"))
            self.assertIn("not positive definite", err["message"])

    def test_help_names_the_unknown_command(self):
        proc = support.cli("help", "slove", expect=(2,))
        self.assertEqual(proc.stderr.splitlines()[0],
                         "corepcg: help: unknown command 'slove'")
        self.assertEqual(proc.stdout, "")


def corepcg_blocks():
    """[[1, 2], [2, 1]] (x) I3: symmetric with a positive diagonal, not
    positive definite."""
    import scipy.sparse as sp
    return sp.kron(sp.csc_matrix([[1.0, 2.0], [2.0, 1.0]]), sp.eye(3),
                   format="csc")


if __name__ == "__main__":
    unittest.main()
