# SPDX-License-Identifier: GPL-2.0-or-later
"""Solver.update: the analysis is reused exactly when the pattern holds,
and the answer after an update is that of a new Solver on the same system,
bit for bit; left-out keywords keep the previous step's values; a failed
update, and the step after one that was read but not factorised; the
context manager."""
import unittest
import warnings

import numpy as np
import scipy.sparse as sp

import support
from support import corepcg


class Update(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.bundle = b = corepcg.read_bundle(support.DATA / "ballhit41-k6000")
        cls.system, cls.b, cls.x0 = support.bundle_args(b)

    def fresh(self, A, method, **system):
        kw = dict(self.system, **system)
        x, _ = corepcg.solve(A, self.b, self.x0, method=method, **kw)
        return x

    def test_same_and_changed_pattern(self):
        A = self.bundle["A"]
        A2 = A * 1.01  # the next step: new values, same pattern
        cons = self.system["constraints"]
        free = np.setdiff1d(np.arange(A.shape[0] // 3), cons["node"])[:5]
        more = np.concatenate([cons, np.array([(i, 0, (0, 0, 0), (0, 0, 0))
                                               for i in free],
                                              corepcg.CONSTRAINT_DTYPE)])
        for method in ("corepcg", "direct", "icpcg", "upcg", "mpcg", "auto"):
            with self.subTest(method=method), \
                    corepcg.Solver(A, method=method, **self.system) as s:
                x, info = s.solve(self.b, self.x0)
                self.assertFalse(info["analysis_reused"])
                self.assertEqual(x.tobytes(), self.fresh(A, method).tobytes())

                info = s.update(A2)
                self.assertTrue(info["analysis_reused"], method)
                self.assertEqual(info["status"], corepcg.Status.OK)
                x, info = s.solve(self.b, self.x0)
                self.assertTrue(info["analysis_reused"])
                if method != "auto":  # auto may pick another method now
                    self.assertEqual(x.tobytes(),
                                     self.fresh(A2, method).tobytes())

                info = s.update(A2, constraints=more)  # 5 more fixed nodes
                # corepcg and direct factorise on a pattern that contacts do
                # not change, mpcg's analysis (its vectors) holds while N
                # does; the reduced system's methods analyse afresh (auto:
                # whichever its measurements chose)
                if method != "auto":
                    self.assertEqual(info["analysis_reused"],
                                     method in ("corepcg", "direct", "mpcg"),
                                     method)
                x, info = s.solve(self.b, self.x0)
                self.assertEqual(info["r"], self.r_of(more))
                if method != "auto":
                    self.assertEqual(x.tobytes(), self.fresh(
                        A2, method, constraints=more).tobytes())

    def r_of(self, cons):
        N = self.bundle["A"].shape[0] // 3
        return 3 * N - int(np.sum(3 - cons["ndof"]))

    def test_a_new_block_pattern_is_analysed(self):
        # a contact spring joining nodes 0 and 10 (no stretch pair): direct
        # analyses again, corepcg keeps its core's analysis; both give a
        # fresh handle's answer
        for method, reused in (("direct", False), ("corepcg", True)):
            A = self.bundle["A"].tolil()
            with self.subTest(method=method), \
                    corepcg.Solver(A.tocsc(), method=method, **self.system) as s:
                A[30, 0] = A[0, 30] = -1e-9
                info = s.update(A.tocsc())
                self.assertEqual(info["analysis_reused"], reused)
                x, _ = s.solve(self.b, self.x0)
                self.assertEqual(x.tobytes(),
                                 self.fresh(A.tocsc(), method).tobytes())

    def test_left_out_keywords_keep_their_values(self):
        A = self.bundle["A"]
        with corepcg.Solver(A, method="direct", **self.system) as s:
            s.update(A)
            x, info = s.solve(self.b, self.x0)
            self.assertEqual(x.tobytes(), self.fresh(A, "direct").tobytes())
            n = A.shape[0]
            s.update(A, constraints=None, z=None)  # None: none
            x, info = s.solve(self.b)
            self.assertEqual(info["r"], n)
            self.assertEqual(x.tobytes(), self.fresh(
                A, "direct", constraints=None, z=None).tobytes())

    def test_kept_values_are_copies(self):
        # a simulator refills the arrays it passed before the next step
        # (an outside review: update(A) read the refilled buffers)
        A = self.bundle["A"]
        cons = self.system["constraints"].copy()
        z = self.system["z"].copy()
        pairs = np.array(self.system["stretch_pairs"], np.int32)  # a copy
        with corepcg.Solver(A, method="direct", constraints=cons, z=z,
                            stretch_pairs=pairs) as s:
            cons["ndof"] = 0
            z[:] = 5.0
            pairs[:] = 0
            s.update(A)
            x, _ = s.solve(self.b, self.x0)
            self.assertEqual(x.tobytes(), self.fresh(A, "direct").tobytes())

    def test_an_unreadable_update_keeps_the_previous_system(self):
        A = self.bundle["A"]
        with corepcg.Solver(A, method="corepcg", **self.system) as s:
            x1, _ = s.solve(self.b, self.x0)
            bad = A.copy()
            bad.data[0] = np.nan
            with self.assertRaises(corepcg.NotFinite):
                s.update(bad)
            with self.assertRaises(corepcg.DimensionError):
                s.update(A, z=np.zeros(3))
            x2, _ = s.solve(self.b, self.x0)
            self.assertEqual(x1.tobytes(), x2.tobytes())

    def test_a_step_after_a_failed_factorisation_recovers(self):
        # a chain of 3 nodes, A = T (x) I3 with the core A itself: T is SPD
        # for a = 0.5, indefinite for a = 0.75 (read, not factorised)
        def chain(a):
            T = np.array([[1, a, 0], [a, 1, a], [0, a, 1]])
            return sp.kron(sp.csc_matrix(T), sp.eye(3), format="csc")
        good, bad = chain(0.5), chain(0.75)
        system = dict(stretch_pairs=[[0, 1], [1, 2]],
                      constraints=[(0, 2, (0, 0, 1))], z=np.arange(9.0))
        b = np.linspace(-1, 1, 9)
        for method, error in (("direct", corepcg.NotPositiveDefinite),
                              ("corepcg", corepcg.CoreNotPositiveDefinite)):
            with self.subTest(method=method), \
                    corepcg.Solver(good, method=method, **system) as s:
                fresh, _ = s.solve(b)
                with self.assertRaises(error):
                    s.update(bad)
                with self.assertRaises(corepcg.StateError):
                    s.solve(b)
                info = s.update(good)  # a full set-up, the keywords kept
                self.assertFalse(info["analysis_reused"])
                x, _ = s.solve(b)
                self.assertEqual(x.tobytes(), fresh.tobytes())
                self.assertTrue(s.update(good)["analysis_reused"])

    def test_a_refusal_names_the_wrong_argument(self):
        # a 9 x 9 A for the 600-node system: A is wrong, not the kept z
        A = self.bundle["A"]
        n = A.shape[0]
        small = corepcg.read_bundle(support.DATA / "tiny")["A"][:9, :9]
        with corepcg.Solver(A, method="direct", **self.system) as s:
            x1, _ = s.solve(self.b, self.x0)
            with self.assertRaises(corepcg.DimensionError) as cm:
                s.update(small)
            self.assertTrue(cm.exception.message.startswith(
                f"A is 9 x 9 (3 nodes), but the system set up has {n} "
                f"unknowns and update keeps its z of shape ({n},) and "
                f"constraints up to node "), cm.exception.message)
            self.assertIn("stretch_pairs up to node", cm.exception.message)
            # z given for A's size: z is the one to blame
            with self.assertRaises(corepcg.DimensionError) as cm:
                s.update(A, z=np.zeros(9))
            self.assertEqual(cm.exception.message,
                             f"z has shape (9,); the system needs ({n},) or "
                             f"({n // 3}, 3)")
            x2, _ = s.solve(self.b, self.x0)
            self.assertEqual(x1.tobytes(), x2.tobytes())
            # everything passed for the new size: a full set-up, no refusal
            s.update(small, constraints=None, z=None, stretch_pairs=None)
            self.assertEqual(s.n, 9)

    def test_context_manager_and_repr(self):
        with corepcg.Solver(self.bundle["A"], **self.system) as s:
            self.assertFalse(s.closed)
            self.assertIn("auto", repr(s))
            self.assertEqual(s.n, self.bundle["A"].shape[0])
        self.assertTrue(s.closed)
        self.assertIn("closed", repr(s))

    def test_auto_over_steps(self):
        A = self.bundle["A"]
        with corepcg.Solver(A, **self.system) as s, warnings.catch_warnings():
            warnings.simplefilter("error")
            for step in range(8):
                s.update(A * (1 + 1e-3 * step))
                x, info = s.solve(self.b, self.x0)
                self.assertEqual(info["method"], "auto")
                self.assertIn(info["method_used"], ("icpcg", "corepcg", "mpcg"))
                self.assertIn(info["auto_reason"],
                              [r.label for r in corepcg.AutoReason][1:])
                self.assertLessEqual(info["rel_residual"], 1e-2)


class AutoFallbackTimes(unittest.TestCase):
    """auto's fallback is prepared at the update (corrected MPCG beside
    the choice): the phases recorded are the choice's and fit inside the
    totals, which include the fallback's preparation and both solves."""

    def test_phases_fit_inside_totals(self):
        bundle = corepcg.read_bundle(support.DATA / "ballhit41-k6000")
        system, b, x0 = support.bundle_args(bundle)
        # max_iter 1: icpcg stops at its budget, the fallback runs (and
        # stops at 1 too)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", corepcg.NotConvergedWarning)
            with corepcg.Solver(bundle["A"], max_iter=1, **system) as s:
                steps = [s.solve(b, x0)[1]]
                s.update(bundle["A"] * 1.01)
                steps.append(s.solve(b, x0)[1])
        for step, info in enumerate(steps):
            with self.subTest(step=step):
                # mpcg ran: the fallback on the first step; on the second
                # either the model's choice or the fallback again, as the
                # two measured step times fall (a clock, so not asserted)
                self.assertEqual((info["method_used"], info["status"],
                                  info["iterations"]),
                                 ("mpcg", corepcg.Status.NOT_CONVERGED, 1))
                self.assertIn(info["auto_reason"],
                              ("fallback",) if step == 0
                              else ("fallback", "fastest"))
                phases = (info["time_reduce_s"] + info["time_analyze_s"]
                          + info["time_factor_s"])
                self.assertGreater(phases, 0)
                self.assertLessEqual(phases, info["time_setup_s"])
                self.assertLessEqual(info["time_iterate_s"],
                                     info["time_solve_s"])
                self.assertEqual(info["time_total_s"],
                                 info["time_setup_s"] + info["time_solve_s"])


if __name__ == "__main__":
    unittest.main()
