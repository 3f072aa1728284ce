# SPDX-License-Identifier: GPL-2.0-or-later
"""Status codes as exceptions and warnings: each code raised for real where
it can be, with the library's message (the CLI's, for the same input);
the class of every code; Python's own type and value checks."""
import ctypes.util
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import warnings
from pathlib import Path

import numpy as np
import scipy.sparse as sp

import support
from support import corepcg
from corepcg.errors import error_for, ERRORS


def blocks(a):
    """A = a (x) I3: node i, j coupled by a[i][j] in each coordinate."""
    return sp.kron(sp.csc_matrix(np.array(a, float)), sp.eye(3), format="csc")


INDEFINITE = [[1, 2], [2, 1]]
# Not SPD, and so neither is its core, plain (diagonal + stretch blocks 0-1,
# 1-2) or compensated (tests/test_reliability.c works it through).
CORE_INDEFINITE = [[1, -0.9, 0.2], [-0.9, 1, -0.9], [0.2, -0.9, 1]]
PAIRS = [[0, 1], [1, 2]]


class RaisedByTheLibrary(unittest.TestCase):
    def test_breakdown_leaves_x_untouched(self):
        out = np.full(6, -7.0)
        with corepcg.Solver(blocks(INDEFINITE), method="upcg", tol=1e-12) as s:
            with self.assertRaises(corepcg.Breakdown) as cm:
                s.solve(np.eye(6)[0], out=out)
        e = cm.exception
        self.assertEqual(e.code, corepcg.Status.ERR_BREAKDOWN)
        self.assertIn("at iteration 2", e.message)
        self.assertIn(e.message, str(e))
        self.assertTrue(np.all(out == -7.0))

    def test_not_positive_definite(self):
        with self.assertRaises(corepcg.NotPositiveDefinite) as cm:
            corepcg.Solver(blocks(INDEFINITE), method="direct")
        self.assertIn("not positive definite", cm.exception.message)

    def test_core_not_positive_definite_and_fallback(self):
        A = blocks(CORE_INDEFINITE)
        with self.assertRaises(corepcg.CoreNotPositiveDefinite) as cm:
            corepcg.Solver(A, stretch_pairs=PAIRS, method="corepcg")
        self.assertIn("A~ is indefinite or singular", cm.exception.message)
        # A is not SPD (an eigenvalue of [[1.2, -0.9 sqrt 2], [.., 1]] < 0),
        # so even the compensated core fails; A is 0.8 I on (1, 0, -1) (x) R^3
        xt = np.kron([1.0, 0.0, -1.0], [1.0, -0.5, 2.0])
        with self.assertWarns(corepcg.FellBackWarning) as cm:
            x, info = corepcg.solve(A, A @ xt, stretch_pairs=PAIRS,
                                    method="corepcg", fallback_upcg=True,
                                    tol=1e-12)
        self.assertEqual(cm.warning.code, corepcg.Status.FELL_BACK)
        self.assertEqual(info["status"], corepcg.Status.FELL_BACK)
        self.assertTrue(info["fell_back"])
        self.assertTrue(info["converged"])
        np.testing.assert_allclose(x, xt, atol=1e-9)

    def test_nan_while_iterating(self):
        d, c = 1.7e308, 1.6e308
        A = sp.csc_matrix(np.array([[d, -c, 0], [-c, d, 0], [0, 0, 1]]))
        b = [0.6 * d, -0.6 * d, 0]
        # |b|^2 and the first p^T A p overflow in A's units; the loop runs
        # at unit scale, so upcg solves it under either rule
        xt = 0.6 / (1 + c / d)
        for stop in ("preconditioned", "residual"):
            with corepcg.Solver(A, method="upcg", stop=stop) as s:
                x, info = s.solve(b)
            self.assertTrue(info["converged"])
            np.testing.assert_allclose(x, [xt, -xt, 0], rtol=1e-12)
        # Baraff & Witkin's delta0 = b^T D b overflows even at unit scale
        with corepcg.Solver(A, method="mpcg-bw") as s:
            with self.assertRaises(corepcg.NanError) as cm:
                s.solve(b)
        self.assertIn("NaN or Inf before the first iteration", cm.exception.message)

    def test_not_finite(self):
        A = blocks([[4]])
        with corepcg.Solver(A, method="direct") as s:
            with self.assertRaises(corepcg.NotFinite) as cm:
                s.solve([1, np.nan, 0])
        self.assertEqual(cm.exception.message, "b[1] is not finite")
        A.data[0] = np.inf
        with self.assertRaises(corepcg.NotFinite):
            corepcg.Solver(A)

    def test_settings_out_of_range(self):
        A = blocks([[4]])
        with self.assertRaises(corepcg.ArgumentError) as cm:
            corepcg.Solver(A, tol=2)
        self.assertEqual(cm.exception.message,
                         "settings: tol must be a number in [1e-300, 0.999999], got 2")
        self.assertIsInstance(cm.exception, ValueError)
        # the value as given, not %g's "1e+09", which reads as in range
        with self.assertRaises(corepcg.ArgumentError) as cm:
            corepcg.Solver(A, method="upcg", max_iter=10**9 + 1)
        self.assertEqual(cm.exception.message, "settings: max_iter must be a "
                         "whole number in [1, 1000000000], got 1000000001")
        with self.assertRaises(corepcg.ArgumentError) as cm:
            corepcg.Solver(A, method="mpcg", precond="projected")
        self.assertIn("projected is for upcg", cm.exception.message)
        for bad in (dict(max_iter=0), dict(core="auto", core_threshold=-1),
                    dict(ic_fill=2)):
            with self.assertRaises(corepcg.ArgumentError, msg=bad):
                corepcg.Solver(A, **bad)

    def test_constraint_and_dimension(self):
        A = blocks([[4, -1], [-1, 4]])
        with self.assertRaises(corepcg.ConstraintError):
            corepcg.Solver(A, constraints=[(0, 1, (1, 0, 0), (1, 1, 0))])
        with self.assertRaises(corepcg.ConstraintError):
            corepcg.Solver(A, constraints=[(5, 0)])
        with self.assertRaises(corepcg.DimensionError) as cm:
            corepcg.Solver(A, stretch_pairs=[[0, 2]])
        self.assertIn("stretch pair 0 (0, 2)", cm.exception.message)
        with self.assertRaises(corepcg.FormatError) as cm:
            corepcg.Solver(A, stretch_pairs=[[1, 1]])
        self.assertIn("joined to itself", cm.exception.message)

    def test_a_diagonal_entry_left_out(self):
        # an input error naming the row and node, for every method, not a
        # matrix that later fails to factorise somewhere
        A = sp.tril(blocks([[4, -1, 0], [-1, 4, -1], [0, -1, 4]])).tolil()
        A[4, 4] = 0
        A = A.tocsc()
        A.eliminate_zeros()
        self.assertEqual(A.nnz, 14)
        for method in ("auto", "direct", "corepcg", "icpcg", "upcg", "mpcg"):
            with self.subTest(method=method):
                with self.assertRaises(corepcg.FormatError) as cm:
                    corepcg.Solver(A, method=method, stretch_pairs=[[0, 1]])
                self.assertEqual(
                    cm.exception.message,
                    "A has no diagonal entry at row 4 (node 1, coordinate y): "
                    "every a_kk must be given, even for a fixed node")
        # even a fixed node's: node 1 fixed
        with self.assertRaises(corepcg.FormatError):
            corepcg.Solver(A, constraints=[(1, 0)])

    def test_no_core(self):
        with self.assertRaises(corepcg.NoCore):
            corepcg.Solver(blocks([[4, -1], [-1, 4]]), method="corepcg")

    def test_state(self):
        A = blocks([[4, -1], [-1, 4]])
        s = corepcg.Solver(A, method="direct")
        # An update that is read but cannot be factorised empties the handle.
        with self.assertRaises(corepcg.NotPositiveDefinite):
            s.update(blocks([[1, 2], [2, 1]]))
        with self.assertRaises(corepcg.StateError) as cm:
            s.solve(np.ones(6))
        self.assertEqual(cm.exception.message, "no system is set up: the "
                         "last update failed (the next update sets its "
                         "system up)")
        # an update of another size that failed the same way: StateError
        # too, whatever b's size (it was DimensionError for the new size)
        s.update(A)
        with self.assertRaises(corepcg.NotPositiveDefinite):
            s.update(blocks([[1, 2, 0], [2, 1, 0], [0, 0, 1]]))
        for n in (6, 9):
            with self.assertRaises(corepcg.StateError):
                s.solve(np.ones(n))
        s.close()
        s.close()  # twice is fine
        with self.assertRaises(corepcg.StateError):
            s.solve(np.ones(6))

    def test_file_messages_are_the_clis(self):
        with tempfile.TemporaryDirectory() as tmp:
            missing = Path(tmp) / "none"
            with self.assertRaises(corepcg.FileError) as cm:
                corepcg.read_bundle(missing)
            self.assertIsInstance(cm.exception, OSError)
            self.assertEqual(self.cli_message(missing), cm.exception.message)

            bad = Path(tmp) / "bad"
            shutil.copytree(support.DATA / "tiny", bad)
            lines = (bad / "A.mtx").read_text().splitlines()
            lines[4] = "3 x 1.0"
            (bad / "A.mtx").write_text("\n".join(lines) + "\n")
            with self.assertRaises(corepcg.FormatError) as cm:
                corepcg.read_bundle(bad)
            self.assertIn("A.mtx:5: column index", cm.exception.message)
            self.assertEqual(self.cli_message(bad), cm.exception.message)

    @staticmethod
    def cli_message(bundle):
        err = support.cli("info", bundle, expect=(1,)).stderr.strip()
        return err.removeprefix("corepcg: ")


class Loading(unittest.TestCase):
    def test_another_library_is_not_found(self):
        # a library without corepcg's functions (another one, an older
        # corepcg): LibraryNotFoundError naming it, not AttributeError
        other = ctypes.util.find_library("z")
        self.assertIsNotNone(other, "zlib (zlib1g) not found")
        env = dict(os.environ, COREPCG_LIBRARY=other,
                   PYTHONPATH=str(support.REPO / "python"))
        run = subprocess.run(
            [sys.executable, "-c", "import corepcg"], env=env,
            capture_output=True, text=True)
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("LibraryNotFoundError: corepcg: ", run.stderr)
        self.assertIn("has no corepcg_", run.stderr)


class Mapping(unittest.TestCase):
    def test_every_code_has_its_class(self):
        for code, cls in ERRORS.items():
            e = error_for(code, "detail")
            self.assertIs(type(e), cls)
            self.assertEqual(e.code, code)
            self.assertEqual(e.message, "detail")
            self.assertEqual(str(e), f"{corepcg.strerror(code)} ({code.name}): detail")
        self.assertEqual(len(ERRORS), sum(1 for s in corepcg.Status if s < 0))

    def test_standard_bases(self):
        self.assertTrue(issubclass(corepcg.OutOfMemory, MemoryError))
        self.assertTrue(issubclass(corepcg.FileError, OSError))
        self.assertTrue(issubclass(corepcg.StateError, RuntimeError))
        for cls in (corepcg.ArgumentError, corepcg.FormatError,
                    corepcg.DimensionError, corepcg.NotFinite,
                    corepcg.NotSymmetric, corepcg.ConstraintError):
            self.assertTrue(issubclass(cls, ValueError), cls)

    def test_unknown_code(self):
        e = error_for(-99, "x")
        self.assertIs(type(e), corepcg.CorepcgError)
        self.assertEqual(e.code, -99)
        self.assertIn("unknown error", str(e))


class CheckedInPython(unittest.TestCase):
    def test_types_and_names(self):
        A = blocks([[4]])
        for bad, exc in ((dict(tol="small"), TypeError),
                         (dict(max_iter=1.5), TypeError),
                         (dict(max_iter=True), TypeError),
                         (dict(fallback_upcg="yes"), TypeError),
                         (dict(method=3), TypeError),
                         (dict(method="fastest"), ValueError),
                         (dict(ordering="rcm"), ValueError),
                         (dict(max_iter=2**40), corepcg.ArgumentError)):
            with self.assertRaises(exc, msg=bad):
                corepcg.Solver(A, **bad)
        with self.assertRaises(ValueError) as cm:
            corepcg.Solver(A, method="fastest")
        self.assertIn("auto", str(cm.exception))
        with self.assertRaises(TypeError):
            corepcg.Solver(A, tolerance=1e-3)

    def test_warnings_can_be_errors(self):
        A = blocks([[4, -1, 0], [-1, 4, -1], [0, -1, 4]])
        with warnings.catch_warnings():
            warnings.simplefilter("error", corepcg.CorepcgWarning)
            with self.assertRaises(corepcg.NotConvergedWarning) as cm:
                corepcg.solve(A, np.arange(9.0), method="upcg", max_iter=1,
                              tol=1e-12)
        self.assertEqual(cm.exception.code, corepcg.Status.NOT_CONVERGED)


if __name__ == "__main__":
    unittest.main()
