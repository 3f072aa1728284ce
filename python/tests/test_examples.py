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

    def test_cloth_step_loop_fem(self):
        p = run("cloth_step_loop.py", "--mesh", "data/meshes/tshirt_coarse.obj",
                "--model", "fem")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("80 steps of 414 nodes", p.stdout)
        self.assertEqual(p.stderr, "")
        p = run("cloth_step_loop.py", "--model", "fem")  # a mesh only
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn("usage: cloth_step_loop.py", p.stderr)

    def test_cloth_step_loop_steps(self):
        # the README's long FEM run, shortened: --steps (issue 36)
        p = run("cloth_step_loop.py", "--mesh", "data/meshes/tshirt_coarse.obj",
                "--model", "fem", "--steps", "3")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("3 steps of 414 nodes", p.stdout)
        self.assertIn("(fewer than 80 steps: the drape is not checked)", p.stdout)
        for bad in ("0", "x", "-2"):
            p = run("cloth_step_loop.py", "--steps", bad)
            self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
            self.assertIn("[--steps S (default 80)]", p.stderr)

    def test_cloth_step_loop_fem_elements(self):
        # the example's membranes and hinges against central differences
        # (stretched, so that the projection keeps the exact Hessian)
        sys.path.insert(0, str(EXAMPLES))
        try:
            import cloth_step_loop as example
        finally:
            sys.path.pop(0)
        import numpy as np
        rng = np.random.default_rng(7)
        x, _, fem, _ = example.make_mesh_cloth(
            str(support.REPO / "data" / "meshes" / "tshirt_coarse.obj"), "fem")
        y = 1.1 * x + 5e-4 * rng.standard_normal(x.shape)
        step = 1e-7

        def central(f, points, i):
            """f's central difference at points along coordinate i."""
            plus, minus = points.copy(), points.copy()
            plus.ravel()[i] += step
            minus.ravel()[i] -= step
            return (f(plus) - f(minus)) / (2 * step)

        # membranes: the exact Hessian where it is PSD (the projection
        # keeps it), from the gradient's differences; a few triangles
        sub = {key: fem[key][::97] for key in fem}
        verts, _, K = example.fem_elements(y, sub)[0]
        checked = 0
        for e in range(len(verts)):
            fd = np.stack([central(lambda p: example.fem_elements(p, sub)[0][1][e], y, i)
                           for i in (3 * verts[e][:, None] + np.arange(3)).ravel()], axis=1)
            if np.linalg.eigvalsh(fd).min() < -1e-9 * abs(fd).max():
                continue
            checked += 1
            self.assertLess(abs(K[e] - fd).max(), 1e-5 * abs(fd).max())
        self.assertGreater(checked, 3)
        # hinges: the angle's gradient (Gauss-Newton is built from it)
        for hinge in sub["hinges"]:
            p = y[hinge][None]
            g = example.hinge_angles(p)[1].ravel()
            d = [central(lambda q: example.hinge_angles(q)[0][0], p, i) for i in range(12)]
            self.assertLess(abs(g - d).max(), 1e-5 * abs(g).max())

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
