# SPDX-License-Identifier: GPL-2.0-or-later
"""The examples run as a user runs them (PYTHONPATH=python python3 ...) and
pass their own checks (exit status 0)."""
import os
import subprocess
import sys
import tempfile
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

    def test_cloth_step_loop_on_a_mesh(self):
        # the coarse T-shirt (414 vertices) in the file's own order
        p = run("cloth_step_loop.py", "--mesh", "data/meshes/tshirt_coarse.obj")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("80 steps of 414 nodes", p.stdout)
        self.assertEqual(p.stderr, "")

    def test_cloth_step_loop_bad_mesh(self):
        for text, message in (
                ("v 0 0 0\nv 1 0 0\nf 1 2 3\n",
                 "bad.obj:3: a face needs 3 or more defined vertices"),
                ("v 0 0 0\nv 1 0\n", "bad.obj:2: a v line holds x y z"),
                ("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 5 5 5\nf 1 2 3\n",
                 "bad.obj: vertex 4 is on no face")):
            with tempfile.TemporaryDirectory() as tmp:
                bad = os.path.join(tmp, "bad.obj")
                with open(bad, "w") as f:
                    f.write(text)
                p = run("cloth_step_loop.py", "--mesh", bad)
            self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
            self.assertIn(message, p.stderr)
            self.assertEqual(p.stdout, "")

    def test_compare_cg(self):
        p = run("compare_cg.py")  # data/ballhit41-k6000
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        for row in ("corepcg auto", "scipy cg (Jacobi)", "scipy spsolve"):
            self.assertIn(row, p.stdout)
        self.assertEqual(p.stderr, "")


if __name__ == "__main__":
    unittest.main()
