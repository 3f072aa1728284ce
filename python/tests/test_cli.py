# SPDX-License-Identifier: GPL-2.0-or-later
"""Every method, and every setting, on the shipped bundles: the Python
answer is the CLI's (`corepcg solve BUNDLE --out x.mtx`) bit for bit, and
so are the deterministic info fields (the CLI's --json)."""
import tempfile
import unittest
import warnings

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


if __name__ == "__main__":
    unittest.main()
