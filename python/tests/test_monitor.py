# SPDX-License-Identifier: GPL-2.0-or-later
"""Watching a solve from Python: callback(iteration, residual) called once
an iteration (1 .. info["iterations"]), its last residual the answer's
rel_residual to the bound docs/python.md states; a true return stops with StoppedWarning and a usable x; an
exception in the callback stops the solve and propagates; history=True
gives info["residuals"]; the handle is unwatched again afterwards; the
CLI's --monitor prints one line an iteration."""
import json
import re
import threading
import unittest
import warnings

import numpy as np

import support
from support import corepcg

TOL = 1e-8


def documented_agreement():
    """The relative bound docs/python.md gives between the callback's last
    value (the stopping rule's) and info["rel_residual"] (recomputed from
    x), or None when it gives none."""
    text = (support.REPO / "docs" / "python.md").read_text()
    found = re.search(r"the two agree to (\S+)\s+relative", text)
    return float(found.group(1)) if found else None


def ballhit():
    return support.bundle_args(
        corepcg.read_bundle(support.DATA / "ballhit41-k60"))


class Recorder:
    """A callback that records its calls and returns True at stop_at."""

    def __init__(self, stop_at=None):
        self.calls = []
        self.stop_at = stop_at

    def __call__(self, iteration, residual):
        self.calls.append((iteration, residual))
        return iteration == self.stop_at


class Callback(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        system, cls.b, cls.x0 = ballhit()
        cls.A = corepcg.read_bundle(support.DATA / "ballhit41-k60")["A"]
        cls.system = system

    def solver(self, method="auto"):
        tol = None if method == "direct" else TOL
        return corepcg.Solver(self.A, method=method, tol=tol, **self.system)

    def test_called_once_an_iteration(self):
        for method in ("auto", "icpcg", "corepcg", "mpcg", "mpcg-bw", "upcg"):
            with self.subTest(method=method), self.solver(method) as s:
                rec = Recorder()
                x, info = s.solve(self.b, self.x0, callback=rec)
                n = info["iterations"]
                self.assertGreater(n, 1)
                self.assertEqual([i for i, _ in rec.calls],
                                 list(range(1, n + 1)))
                last = rec.calls[-1][1]
                self.assertLessEqual(last, TOL)
                self.assertTrue(all(r > TOL for _, r in rec.calls[:-1]))
                # two computations of one measure: equal to round-off,
                # within the bound the docs state (at most 1e-8)
                bound = documented_agreement()
                self.assertIsNotNone(bound, "docs/python.md states no bound")
                self.assertLessEqual(bound, 1e-8)
                self.assertLess(abs(last / info["rel_residual"] - 1), bound)

    def test_direct_never_calls(self):
        with self.solver("direct") as s:
            rec = Recorder()
            _, info = s.solve(self.b, callback=rec, history=True)
        self.assertEqual(rec.calls, [])
        self.assertEqual(len(info["residuals"]), 0)

    def test_history(self):
        with self.solver() as s:
            rec = Recorder()
            _, info = s.solve(self.b, self.x0, callback=rec, history=True)
            _, plain = s.solve(self.b, self.x0)
            _, alone = s.solve(self.b, self.x0, history=True)
        h = info["residuals"]
        self.assertEqual(h.dtype, np.float64)
        self.assertEqual(len(h), info["iterations"])
        np.testing.assert_array_equal(h, [r for _, r in rec.calls])
        self.assertNotIn("residuals", plain)
        np.testing.assert_array_equal(alone["residuals"], h)

    def test_history_holds_auto_fallbacks_last_attempt(self):
        # max_iter 3 before anything was timed: icpcg gives up at 3 and
        # the fallback (mpcg) solves again from iteration 1
        rec = Recorder()
        with corepcg.Solver(self.A, max_iter=3, **self.system) as s:
            with self.assertWarns(corepcg.NotConvergedWarning):
                _, info = s.solve(self.b, self.x0, callback=rec,
                                  history=True)
        self.assertEqual(info["auto_reason"], "fallback")
        self.assertEqual([i for i, _ in rec.calls], [1, 2, 3, 1, 2, 3])
        self.assertEqual(info["iterations"], 3)
        np.testing.assert_array_equal(info["residuals"],
                                      [r for _, r in rec.calls[3:]])

    def test_true_return_stops(self):
        for method in ("auto", "icpcg", "mpcg"):
            with self.subTest(method=method), self.solver(method) as s:
                rec = Recorder(stop_at=3)
                with self.assertWarns(corepcg.StoppedWarning) as cm:
                    x, info = s.solve(self.b, self.x0, callback=rec,
                                      history=True)
                self.assertEqual(cm.warning.code, corepcg.Status.STOPPED)
                self.assertIn("monitor", cm.warning.message)
                self.assertEqual(info["status"], corepcg.Status.STOPPED)
                self.assertEqual(info["iterations"], 3)
                self.assertEqual(len(rec.calls), 3)
                self.assertEqual(len(info["residuals"]), 3)
                self.assertFalse(info["converged"])
                self.assertTrue(np.all(np.isfinite(x)))
                m = corepcg.check(self.A, self.b, x, **self.system)
                self.assertLessEqual(m.constraint_error, 1e-12)
                self.assertGreater(m.rel_residual, TOL)
                self.assertAlmostEqual(m.rel_residual / info["rel_residual"],
                                       1, delta=1e-9)

    def test_exception_propagates(self):
        class Boom(Exception):
            pass

        def explode(iteration, residual):
            if iteration == 2:
                raise Boom(f"at {iteration}")

        out = np.full(len(self.b), np.nan)
        with self.solver() as s:
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # no StoppedWarning first
                with self.assertRaises(Boom) as cm:
                    s.solve(self.b, self.x0, out=out, callback=explode)
            self.assertEqual(str(cm.exception), "at 2")
            self.assertTrue(np.all(np.isfinite(out)))  # the stopped iterate
            # the handle is unwatched again (explode would stop it) and
            # solves on
            _, info = s.solve(self.b, self.x0)
            self.assertEqual(info["status"], corepcg.Status.OK)

    def test_the_solver_is_not_reentered(self):
        # close, update or solve from the callback: StateError, raised
        # from solve; the Solver solves on as before (an outside review:
        # close() there freed the handle under the solve, a crash)
        with self.solver("icpcg") as s:
            want, _ = s.solve(self.b, self.x0)
            calls = {"close": lambda: s.close(),
                     "update": lambda: s.update(self.A),
                     "solve": lambda: s.solve(self.b)}
            for name, call in calls.items():
                def callback(iteration, residual):
                    call()
                with self.subTest(call=name):
                    with self.assertRaises(corepcg.StateError) as cm:
                        s.solve(self.b, self.x0, callback=callback)
                    self.assertIn(f"{name} called from the solve's callback",
                                  cm.exception.message)
                    self.assertFalse(s.closed)
                    x, _ = s.solve(self.b, self.x0)
                    self.assertEqual(x.tobytes(), want.tobytes())

    def test_another_thread_is_refused(self):
        # a second thread's solve, update or close while this thread
        # solves: StateError in that thread, and this solve's answer as
        # without it (an outside review: two threads on one Solver gave
        # wrong answers silently)
        with self.solver("icpcg") as s:
            want, _ = s.solve(self.b, self.x0)
            calls = {"solve": lambda: s.solve(self.b),
                     "update": lambda: s.update(self.A),
                     "close": lambda: s.close()}
            for name, call in calls.items():
                raised = []

                def other_thread():
                    try:
                        call()
                    except corepcg.StateError as e:
                        raised.append(e.message)

                def callback(iteration, residual):
                    if iteration == 1:
                        t = threading.Thread(target=other_thread)
                        t.start()
                        t.join()
                with self.subTest(call=name):
                    x, _ = s.solve(self.b, self.x0, callback=callback)
                    self.assertEqual(len(raised), 1)
                    self.assertIn(f"{name} while another thread is using "
                                  "the Solver", raised[0])
                    self.assertFalse(s.closed)
                    self.assertEqual(x.tobytes(), want.tobytes())

    def test_closed_by_another_thread_meanwhile(self):
        # another thread closes the Solver between this call's start and
        # its taking the handle: close() is a no-op and solve() says the
        # Solver is closed (an outside review: close() raised TypeError,
        # update() ArgumentError, from a handle of None)
        class RacingLock:
            def __init__(self, solver):
                self.real, self.solver, self.armed = threading.Lock(), solver, True

            def acquire(self, blocking=True):
                if self.armed:
                    self.armed = False
                    t = threading.Thread(target=self.solver.close)
                    t.start()
                    t.join()
                return self.real.acquire(blocking)

            def release(self):
                self.real.release()

        for call in ("close", "solve"):
            with self.subTest(call=call):
                s = self.solver("icpcg")
                s._lock = RacingLock(s)
                if call == "close":
                    s.close()
                else:
                    with self.assertRaises(corepcg.StateError) as cm:
                        s.solve(self.b)
                    self.assertIn("the Solver is closed", cm.exception.message)
                self.assertTrue(s.closed)

    def test_keyboard_interrupt_propagates(self):
        def interrupt(iteration, residual):
            raise KeyboardInterrupt

        with self.solver() as s, self.assertRaises(KeyboardInterrupt):
            s.solve(self.b, self.x0, callback=interrupt)

    def test_module_solve(self):
        rec = Recorder()
        _, info = corepcg.solve(self.A, self.b, self.x0, tol=TOL,
                                callback=rec, history=True, **self.system)
        self.assertEqual(len(rec.calls), info["iterations"])
        self.assertEqual(len(info["residuals"]), info["iterations"])

    def test_not_callable(self):
        with self.solver() as s, self.assertRaises(TypeError):
            s.solve(self.b, callback=3)

    def test_monitor_is_no_setting(self):
        self.assertNotIn("monitor", corepcg.default_settings())
        with self.assertRaises(TypeError):
            corepcg.Solver(self.A, monitor=print, **self.system)


class Cli(unittest.TestCase):
    """`corepcg solve --monitor`: one line an iteration on stderr, stdout
    the JSON object alone."""

    def test_one_line_an_iteration(self):
        bundle = support.DATA / "ballhit41-k60"
        for method in ("auto", "mpcg"):
            with self.subTest(method=method):
                proc = support.cli("solve", bundle, "--json", "--monitor",
                                   "--method", method, "--repeat", "1")
                info = json.loads(proc.stdout)
                lines = proc.stderr.splitlines()
                self.assertGreater(info["iterations"], 1)
                self.assertEqual(len(lines), info["iterations"])
                for k, line in enumerate(lines, 1):
                    word, it, name, value = line.split()
                    self.assertEqual((word, int(it), name),
                                     ("iteration", k, "residual"))
                self.assertAlmostEqual(
                    float(lines[-1].split()[3]) / info["rel_residual"], 1,
                    delta=1e-5)

    def test_refused_for_direct(self):
        proc = support.cli("solve", support.DATA / "tiny", "--monitor",
                           "--method", "direct", expect=(2,))
        self.assertIn("does not take --monitor", proc.stderr)


if __name__ == "__main__":
    unittest.main()
