# SPDX-License-Identifier: GPL-2.0-or-later
"""The examples run as a user runs them (PYTHONPATH=python python3 ...) and
pass their own checks (exit status 0)."""
import os
import subprocess
import sys
import unittest

import support

EXAMPLES = support.REPO / "python" / "examples"


def run(script, *args):
    env = dict(os.environ, PYTHONPATH=str(support.REPO / "python"))
    return subprocess.run([sys.executable, str(EXAMPLES / script), *args],
                          capture_output=True, text=True, env=env,
                          cwd=support.REPO, timeout=120)


class Examples(unittest.TestCase):
    def test_cloth_step_loop(self):
        p = run("cloth_step_loop.py")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("80 steps", p.stdout)
        self.assertEqual(p.stderr, "")

    def test_compare_cg(self):
        p = run("compare_cg.py")  # data/ballhit41-k6000
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        for row in ("corepcg auto", "scipy cg (Jacobi)", "scipy spsolve"):
            self.assertIn(row, p.stdout)
        self.assertEqual(p.stderr, "")


if __name__ == "__main__":
    unittest.main()
