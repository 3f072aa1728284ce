# SPDX-License-Identifier: GPL-2.0-or-later
"""corepcg in place of a Baraff-Witkin MPCG cloth code (issue 36): a dense
NumPy A, per-particle constraint records (ndof 3 for a free particle),
vectors of shape (N, 3), corepcg.filter, NoCore in Python's words, and
mpcg-bw / mpcg against a hand-written MPCG loop from the papers'
pseudo-code; the example of docs/python.md's "Replacing your MPCG" runs."""
import contextlib
import io
import os
import re
import subprocess
import tempfile
import unittest
import warnings

import numpy as np
import scipy.sparse as sp

import support

corepcg = support.corepcg


def cloth(m, seed=0, h=1e-2, mass=1e-3, k=30.0):
    """An m x m sheet as a Baraff-Witkin code assembles it: per-triangle
    forces (no springs), A = M + h^2 K dense, K summed triangle by triangle
    from each triangle's two edge vectors (G: the 6 x 9 edge operator, K_t
    = G^T W G, W SPD and anisotropic along the rest edges). Returns (A, b,
    the triangles). k = 30 takes MPCG 26 and 50 iterations at tol 1e-2 and
    1e-6, where two loops agree to round-off; at k = 1e3 (66 iterations)
    the round-off of two summation orders alone grows to 1e-7 relative."""
    rng = np.random.default_rng(seed)
    N = m * m
    X = np.array([(i, j, 0.0) for j in range(m) for i in range(m)]) * 0.05
    X += 0.005 * rng.standard_normal(X.shape)
    tris = []
    for j in range(m - 1):
        for i in range(m - 1):
            a = j * m + i
            tris += [(a, a + 1, a + m + 1), (a, a + m + 1, a + m)]
    I3 = np.eye(3)
    G = np.block([[-I3, I3, 0 * I3], [-I3, 0 * I3, I3]])
    A = np.zeros((3 * N, 3 * N))
    for a, b, c in tris:
        W = np.zeros((6, 6))
        for e, (p, q) in enumerate(((a, b), (a, c))):
            d = (X[q] - X[p]) / np.linalg.norm(X[q] - X[p])
            W[3 * e:3 * e + 3, 3 * e:3 * e + 3] = np.outer(d, d) + 0.1 * I3
        idx = np.r_[3 * a:3 * a + 3, 3 * b:3 * b + 3, 3 * c:3 * c + 3]
        A[np.ix_(idx, idx)] += h * h * k * (G.T @ W @ G)
    A += mass * (1 + 0.2 * rng.random(3 * N)) * np.eye(3 * N)
    b = h * rng.standard_normal(3 * N) * 1e-2
    return A, b, tris


def particle_records(m):
    """One record per particle, as a Baraff-Witkin code keeps its S_i: the
    top corners fixed, the bottom row sliding on a tilted plane (p not
    unit), one node on a line (ndof 1), every other particle free (ndof
    3)."""
    N = m * m
    con = np.zeros(N, corepcg.CONSTRAINT_DTYPE)
    con["node"] = np.arange(N)
    con["ndof"] = 3
    con["ndof"][[m * (m - 1), m * m - 1]] = 0
    con["ndof"][1:m - 1] = 2
    con["p"][1:m - 1] = (0, 1.2, 1.6)
    line = m * (m // 2) + m // 2
    con["ndof"][line] = 1
    con["p"][line] = (0, 0, 2)
    con["q"][line] = (0.5, 0, 0)
    return con


def s_blocks(con, N):
    """The simulator's own S_i (N, 3, 3) from the records, in NumPy:
    I - p p^T for ndof 2, t t^T with t = p x q for ndof 1, 0 fixed, I free."""
    S = np.tile(np.eye(3), (N, 1, 1))
    for rec in con:
        p = rec["p"] / np.linalg.norm(rec["p"]) if rec["ndof"] in (1, 2) \
            else None
        if rec["ndof"] == 0:
            S[rec["node"]] = 0
        elif rec["ndof"] == 2:
            S[rec["node"]] = np.eye(3) - np.outer(p, p)
        elif rec["ndof"] == 1:
            t = np.cross(p, rec["q"])
            t /= np.linalg.norm(t)
            S[rec["node"]] = np.outer(t, t)
    return S


def reference_mpcg(A, b, S, z, tol, max_iter=10000, y=None, original=True):
    """Modified PCG with P = diag(A), written from the papers' pseudo-code.
    original: Baraff & Witkin (1998) sec. 5.3 -- start at z, delta0 =
    filter(b)^T P filter(b). Otherwise Ascher & Boxerman (2003) sec. 2 --
    start at S y + (I - S) z, delta0 = b^T P^-1 b^, b^ = S(b - A(I - S)z).
    Returns (x, iterations)."""
    def filt(v):
        return np.einsum("nij,nj->ni", S, v.reshape(-1, 3)).ravel()
    P = np.diag(A).copy()
    fixed_part = z - filt(z)          # (I - S) z: only it is prescribed
    if original:
        x = fixed_part.copy()
        delta0 = filt(b) @ (P * filt(b))
    else:
        x = (filt(y) if y is not None else 0) + fixed_part
        bhat = filt(b - A @ fixed_part)
        delta0 = bhat @ (bhat / P)
    r = filt(b - A @ x)
    c = filt(r / P)
    delta_new = r @ c
    it = 0
    while delta_new > tol * tol * delta0 and it < max_iter:
        q = filt(A @ c)
        alpha = delta_new / (c @ q)
        x += alpha * c
        r -= alpha * q
        s = r / P
        delta_old, delta_new = delta_new, r @ s
        c = filt(s + delta_new / delta_old * c)
        it += 1
    return x, it


class DropIn(unittest.TestCase):
    M = 12  # 144 particles, n = 432: above the dense-faster threshold

    @classmethod
    def setUpClass(cls):
        cls.A, cls.b, cls.tris = cloth(cls.M)
        cls.N = cls.M * cls.M
        cls.con = particle_records(cls.M)
        cls.constrained = cls.con[cls.con["ndof"] != 3]
        cls.z = np.random.default_rng(5).standard_normal(3 * cls.N) * 1e-3
        cls.S = s_blocks(cls.con, cls.N)
        # two edges of each triangle: every mesh edge, some twice (a set)
        cls.edges = [e for a, b, c in cls.tris for e in ((a, b), (a, c))]

    def rel(self, x, y):
        return np.linalg.norm(np.ravel(x) - np.ravel(y)) / np.linalg.norm(y)

    # ------------------------------------------------------------ dense A

    def test_dense_equals_sparse(self):
        self.assertGreaterEqual(3 * self.N, corepcg._matrix.DENSE_FASTER_BELOW)
        for method in ("direct", "icpcg", "mpcg", "auto"):
            with self.subTest(method=method):
                xd, infod = corepcg.solve(self.A, self.b, constraints=self.con,
                                          z=self.z, method=method, tol=None
                                          if method == "direct" else 1e-10)
                xs, infos = corepcg.solve(sp.csc_matrix(self.A), self.b,
                                          constraints=self.con, z=self.z,
                                          method=method, tol=None
                                          if method == "direct" else 1e-10)
                self.assertLessEqual(self.rel(xd, xs), 1e-14)
                self.assertEqual(infod["iterations"], infos["iterations"])
                self.assertLess(infod["rel_residual"], 1e-9)
        # update with a dense A, and check() takes one
        s = corepcg.Solver(self.A, constraints=self.con, z=self.z,
                           method="direct")
        s.update(2 * self.A)
        x, _ = s.solve(2 * self.b)
        xs, _ = corepcg.solve(sp.csc_matrix(self.A), self.b,
                              constraints=self.con, z=self.z, method="direct")
        self.assertLessEqual(self.rel(x, xs), 1e-14)
        m = corepcg.check(2 * self.A, 2 * self.b, x, constraints=self.con,
                          z=self.z)
        self.assertLess(m.rel_residual, 1e-12)
        self.assertLess(m.constraint_error, 1e-15)
        s.close()

    def test_dense_refusals(self):
        A = self.A.copy()
        A[5, 17] += 1e-3  # one entry off: refused as a full sparse A is
        with self.assertRaises(corepcg.NotSymmetric) as cm:
            corepcg.Solver(A)
        self.assertIn("A(17,5) = 0, A(5,17) = 0.001", cm.exception.message)
        with self.assertRaises(corepcg.NotSymmetric):
            corepcg.Solver(sp.csc_matrix(A))
        # the lower triangle by request, as for sparse A: no check
        x, _ = corepcg.solve(A, self.b, triangle="lower", method="direct")
        xl, _ = corepcg.solve(self.A, self.b, method="direct")
        self.assertLessEqual(self.rel(x, xl), 1e-14)
        with self.assertRaises(corepcg.DimensionError):
            corepcg.Solver(np.ones(6))
        with self.assertRaises(corepcg.DimensionError):
            corepcg.Solver(np.ones((6, 9)))
        with self.assertRaises(TypeError):
            corepcg.Solver(self.A.astype(complex))
        with self.assertRaises(TypeError):
            corepcg.Solver(np.full((3, 3), "x", dtype=object))
        with self.assertRaises(TypeError):
            corepcg.Solver(self.A.tolist())

    def test_dense_faster_warning(self):
        A, b, _ = cloth(4)  # n = 48
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            x, _ = corepcg.solve(A, b, method="direct")
        self.assertEqual(len(caught), 1)
        w = caught[0]
        self.assertIs(w.category, corepcg.DenseFasterWarning)
        self.assertIn("48 x 48", str(w.message))
        self.assertIn("below 400 unknowns", str(w.message))
        self.assertEqual(w.filename, __file__)  # the caller's line
        self.assertLessEqual(self.rel(x, np.linalg.solve(A, b)), 1e-13)
        # not a CorepcgWarning: "warnings as errors" for answers keeps it
        self.assertFalse(issubclass(corepcg.DenseFasterWarning,
                                    corepcg.CorepcgWarning))
        with warnings.catch_warnings(record=True) as caught:  # n = 432
            warnings.simplefilter("always")
            corepcg.solve(self.A, self.b, method="direct")
            corepcg.solve(sp.csc_matrix(A), b, method="direct")  # sparse
        self.assertEqual(caught, [])

    # ------------------------------------------- per-particle constraints

    def test_free_records_change_nothing(self):
        for method in ("direct", "icpcg", "corepcg", "mpcg", "mpcg-bw"):
            with self.subTest(method=method):
                kw = dict(z=self.z, method=method, stretch_pairs=self.edges)
                x3, i3 = corepcg.solve(self.A, self.b, constraints=self.con,
                                       **kw)
                x, i = corepcg.solve(self.A, self.b,
                                     constraints=self.constrained, **kw)
                np.testing.assert_array_equal(x3, x)
                self.assertEqual(i3["r"], i["r"])
                self.assertEqual(i3["iterations"], i["iterations"])
        # tuples too, p and q of a free record ignored
        x, _ = corepcg.solve(self.A, self.b, constraints=[(0, 3), (1, 0)],
                             method="direct")
        xr, _ = corepcg.solve(self.A, self.b, constraints=[(1, 0)],
                              method="direct")
        np.testing.assert_array_equal(x, xr)
        # the bundle's constraints.txt lists the constrained ones only
        with tempfile.TemporaryDirectory() as tmp:
            corepcg.write_bundle(tmp, sp.csc_matrix(self.A), self.b,
                                 constraints=self.con)
            back = corepcg.read_bundle(tmp)["constraints"]
        np.testing.assert_array_equal(back, self.constrained)
        # a particle listed twice is refused, an ndof-3 record included
        with self.assertRaises(corepcg.ConstraintError) as cm:
            corepcg.solve(self.A, self.b, constraints=[(1, 3), (1, 0)])
        self.assertIn("node 1 is listed twice", cm.exception.message)

    def test_node_rows(self):
        N = self.N
        flat, _ = corepcg.solve(self.A, self.b, self.z, constraints=self.con,
                                z=self.z, method="mpcg")
        rows, _ = corepcg.solve(self.A, self.b.reshape(N, 3),
                                self.z.reshape(N, 3), constraints=self.con,
                                z=self.z.reshape(N, 3), method="mpcg")
        self.assertEqual(rows.shape, (N, 3))
        np.testing.assert_array_equal(rows.ravel(), flat)
        # column-major rows, and out= of either shape, written in place
        s = corepcg.Solver(self.A, constraints=self.con, z=self.z,
                           method="mpcg")
        out = np.zeros((N, 3))
        x, _ = s.solve(np.asfortranarray(self.b.reshape(N, 3)), self.z,
                       out=out)
        self.assertIs(x, out)
        np.testing.assert_array_equal(out.ravel(), flat)
        out = np.zeros(3 * N)
        x, _ = s.solve(self.b.reshape(N, 3), self.z, out=out)
        self.assertIs(x, out)
        np.testing.assert_array_equal(out, flat)
        with self.assertRaises(corepcg.DimensionError) as cm:
            s.solve(self.b.reshape(3, N))
        self.assertIn(f"({3 * N},) or ({N}, 3)", cm.exception.message)
        with self.assertRaises(corepcg.DimensionError):
            s.solve(self.b, out=np.zeros((3, N)))
        m = corepcg.check(self.A, self.b.reshape(N, 3), rows,
                          constraints=self.con, z=self.z.reshape(N, 3))
        self.assertLess(m.constraint_error, 1e-15)
        s.close()

    # ------------------------------------------------------------- filter

    def test_filter(self):
        rng = np.random.default_rng(3)
        N = self.N
        v = rng.standard_normal(3 * N)
        sv = corepcg.filter(v, self.con)
        self.assertEqual(sv.shape, (3 * N,))
        # the simulator's own S, in NumPy from the records
        own = np.einsum("nij,nj->ni", self.S, v.reshape(N, 3)).ravel()
        self.assertLessEqual(np.abs(sv - own).max(), 1e-15)
        # a projector, orthogonal to the blocked directions
        self.assertLessEqual(np.abs(corepcg.filter(sv, self.con) - sv).max(),
                             1e-15)
        rows = sv.reshape(N, 3)
        for rec in self.con:
            i, ndof = rec["node"], rec["ndof"]
            if ndof == 3:
                np.testing.assert_array_equal(rows[i], v.reshape(N, 3)[i])
            elif ndof == 0:
                np.testing.assert_array_equal(rows[i], 0)
            else:
                self.assertLessEqual(abs(rows[i] @ rec["p"]), 1e-15)
                if ndof == 1:
                    self.assertLessEqual(abs(rows[i] @ rec["q"]), 1e-15)
        # (N, 3) in, (N, 3) out; the free records change nothing
        np.testing.assert_array_equal(
            corepcg.filter(v.reshape(N, 3), self.con), rows)
        np.testing.assert_array_equal(corepcg.filter(v, self.constrained), sv)
        np.testing.assert_array_equal(corepcg.filter(v), v)
        # the S of the solvers: their answers hold (I - S) x = (I - S) z
        x, _ = corepcg.solve(self.A, self.b, constraints=self.con, z=self.z,
                             method="direct")
        self.assertLessEqual(np.abs((x - corepcg.filter(x, self.con)) -
                                    (self.z - corepcg.filter(self.z, self.con))
                                    ).max(), 1e-15)
        # refusals carry the library's code and message
        with self.assertRaises(corepcg.DimensionError):
            corepcg.filter(np.ones(5))
        with self.assertRaises(corepcg.DimensionError):
            corepcg.filter(np.ones((4, 2)))
        bad = v.copy()
        bad[7] = np.nan
        with self.assertRaises(corepcg.NotFinite) as cm:
            corepcg.filter(bad, self.con)
        self.assertIn("v[7]", cm.exception.message)
        with self.assertRaises(corepcg.ConstraintError) as cm:
            corepcg.filter(v, [(0, 2, (0, 0, 0))])
        self.assertIn("p is zero", cm.exception.message)
        with self.assertRaises(corepcg.ConstraintError) as cm:
            corepcg.filter(np.ones(6), [(2, 0)])
        self.assertIn("out of range", cm.exception.message)

    def test_filter_c_agrees(self):
        """A C caller of corepcg_filter gets Python's numbers bit for bit
        (the records and v go in as hexadecimal floats)."""
        rng = np.random.default_rng(4)
        v = rng.standard_normal((self.N, 3))
        lines = [f"{self.N} {len(self.con)}"]
        lines += [f"{r['node']} {r['ndof']} " +
                  " ".join(float(a).hex() for a in (*r["p"], *r["q"]))
                  for r in self.con]
        lines += [float(a).hex() for a in v.ravel()]
        program = r"""
#include "corepcg.h"
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
    int N, m;
    if (scanf("%d %d", &N, &m) != 2) return 2;
    corepcg_constraint *c = calloc((size_t)m, sizeof *c);
    double *v = malloc(3 * (size_t)N * sizeof *v);
    double *out = malloc(3 * (size_t)N * sizeof *out);
    for (int k = 0; k < m; k++)
        if (scanf("%d %d %la %la %la %la %la %la", &c[k].node, &c[k].ndof,
                  &c[k].p[0], &c[k].p[1], &c[k].p[2], &c[k].q[0],
                  &c[k].q[1], &c[k].q[2]) != 8) return 2;
    for (int k = 0; k < 3 * N; k++)
        if (scanf("%la", &v[k]) != 1) return 2;
    char msg[COREPCG_MSG_SIZE];
    int rc = corepcg_filter(N, m, c, v, out, msg);
    for (int k = 0; rc == 0 && k < 3 * N; k++)
        printf("%a\n", out[k]);
    return rc == 0 ? 0 : 1;
}
"""
        with tempfile.TemporaryDirectory() as tmp:
            src, exe = os.path.join(tmp, "f.c"), os.path.join(tmp, "f")
            with open(src, "w") as f:
                f.write(program)
            lib = corepcg.library_path
            args = [support.CC, "-std=c11", "-o", exe, src, lib,
                    f"-Wl,-rpath,{os.path.dirname(os.path.abspath(lib))}"]
            for d in support.INCLUDE.split(os.pathsep):
                args += ["-I", d]
            subprocess.run(args, check=True, capture_output=True, text=True)
            out = subprocess.run([exe], input="\n".join(lines) + "\n",
                                 check=True, capture_output=True,
                                 text=True).stdout
        c_values = np.array([float.fromhex(t) for t in out.split()])
        np.testing.assert_array_equal(c_values,
                                      corepcg.filter(v, self.con).ravel())

    # ------------------------------------------------------------- NoCore

    def test_no_core_in_python_terms(self):
        with self.assertRaises(corepcg.NoCore) as cm:
            corepcg.Solver(self.A, constraints=self.con, method="corepcg")
        e = cm.exception
        self.assertEqual(e.code, corepcg.Status.ERR_NO_CORE)
        self.assertIn("stretch_pairs=", e.message)
        self.assertIn("give the mesh edges as stretch_pairs, or core='auto'",
                      e.message)
        self.assertNotIn("corepcg_system", e.message)
        self.assertNotIn("stretch.mtx", e.message)
        # what it names works: core='auto', or the mesh edges
        for kw in (dict(core="auto"), dict(stretch_pairs=self.edges)):
            x, info = corepcg.solve(self.A, self.b, constraints=self.con,
                                    method="corepcg", **kw)
            self.assertTrue(info["converged"], kw)
        # and an update that drops the pairs hears the same
        s = corepcg.Solver(self.A, method="corepcg", stretch_pairs=self.edges)
        with self.assertRaises(corepcg.NoCore) as cm:
            s.update(self.A, stretch_pairs=None)
        self.assertIn("core='auto'", cm.exception.message)
        s.close()

    # ------------------------------------------------- the MPCG replaced

    def test_mpcg_bw_is_the_papers_loop(self):
        for tol, iterations in ((1e-2, 26), (1e-6, 50)):  # docs/python.md's
            x_ref, it_ref = reference_mpcg(self.A, self.b, self.S, self.z, tol)
            with self.subTest(tol=tol):
                self.assertEqual(it_ref, iterations)
                x, info = corepcg.solve(
                    self.A, self.b.reshape(-1, 3), constraints=self.con,
                    z=self.z, method="mpcg-bw", stop="preconditioned",
                    tol=tol, precond="diag")
                self.assertEqual(info["iterations"], it_ref)
                self.assertLessEqual(self.rel(x, x_ref), 1e-12)
        # the defaults are another rule: true residual, 1e-5
        d = corepcg.default_settings()
        self.assertEqual((d["stop"], d["tol"]), ("residual", 1e-5))

    def test_mpcg_is_the_corrected_loop(self):
        y = np.random.default_rng(9).standard_normal(3 * self.N) * 1e-3
        for tol, iterations in ((1e-2, 13), (1e-6, 37)):  # docs/python.md's
            x_ref, it_ref = reference_mpcg(self.A, self.b, self.S, self.z, tol,
                                           y=y, original=False)
            with self.subTest(tol=tol):
                self.assertEqual(it_ref, iterations)
                x, info = corepcg.solve(self.A, self.b, y,
                                        constraints=self.con, z=self.z,
                                        method="mpcg", stop="preconditioned",
                                        tol=tol, precond="diag")
                self.assertEqual(info["iterations"], it_ref)
                self.assertLessEqual(self.rel(x, x_ref), 1e-12)

    def test_docs_example(self):
        """The example of docs/python.md, "Replacing your MPCG", runs and
        its own asserts hold."""
        text = (support.REPO / "docs" / "python.md").read_text()
        section = text.split("## Replacing your MPCG", 1)[1].split("\n## ")[0]
        code = re.findall(r"```python\n(.*?)```", section, re.S)
        self.assertEqual(len(code), 1)
        scope = {}
        with warnings.catch_warnings(), \
                contextlib.redirect_stdout(io.StringIO()) as out:
            warnings.simplefilter("error")
            exec(compile(code[0], "docs/python.md", "exec"), scope)
        self.assertEqual(scope["x"].shape, (scope["N"], 3))
        self.assertEqual(out.getvalue().splitlines(),
                         ["mpcg-bw 26 1.6e-05", "icpcg 8 4.9e-06"])  # as said


if __name__ == "__main__":
    unittest.main()
