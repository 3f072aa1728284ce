# SPDX-License-Identifier: GPL-2.0-or-later
"""Inputs: A in every scipy.sparse format and each triangle gives the same
answer bit for bit, with a copy exactly where docs/python.md says; the
constraint, z and stretch-pair forms (a structured array's node and ndof
refused where a tuple's are); complex vectors a TypeError; bundles and
vectors on disk."""
import re
import tempfile
import unittest
import warnings
from pathlib import Path

import numpy as np
import scipy.sparse as sp

import support
from support import corepcg
from corepcg._matrix import matrix_arrays


class Matrices(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.bundle = b = corepcg.read_bundle(support.DATA / "ballhit41-k6000")
        cls.system, cls.b, cls.x0 = support.bundle_args(b)
        cls.ref = cls.answer(b["A"])

    @classmethod
    def answer(cls, A, triangle="auto"):
        x, _ = corepcg.solve(A, cls.b, cls.x0, method="corepcg",
                             triangle=triangle, **cls.system)
        return x

    def same(self, A, triangle, label):
        x = self.answer(A, triangle)
        self.assertEqual(x.tobytes(), self.ref.tobytes(), label)

    def test_every_format_and_triangle(self):
        A = self.bundle["A"]
        L, U = sp.tril(A, format="csc"), sp.triu(A, format="csc")
        full = {"csc": A, "csr": A.tocsr(), "coo": A.tocoo(),
                "bsr": A.tobsr(blocksize=(3, 3)), "lil": A.tolil(),
                "dok": A.todok(), "dia": A.todia(), "csc_array": sp.csc_array(A)}
        for fmt, M in full.items():
            for triangle in ("auto", "lower", "upper", "both"):
                self.same(M, triangle, f"full {fmt} {triangle}")
        for side, half, own in (("lower", L, "lower"), ("upper", U, "upper")):
            for fmt in ("csc", "csr", "coo"):
                M = half.asformat(fmt)
                self.same(M, "auto", f"{side} {fmt} auto")
                self.same(M, own, f"{side} {fmt} {own}")

    def test_the_other_triangle_alone_is_refused(self):
        L = sp.tril(self.bundle["A"], format="csr")
        with self.assertRaises(corepcg.FormatError) as cm:
            self.answer(L, "upper")
        self.assertIn("only on the other side", cm.exception.message)

    def test_both_checks_symmetry(self):
        A = self.bundle["A"].tolil()
        A[3, 0] += 1.0  # lower only: the upper (0, 3) keeps its value
        with self.assertRaises(corepcg.NotSymmetric) as cm:
            self.answer(A.tocsc(), "both")
        self.assertIn("A is not symmetric: A(3,0) = ", cm.exception.message)

    def test_a_full_unsymmetric_matrix_is_refused_in_every_format(self):
        """The default reads a full matrix whole: no storage format turns a
        non-symmetric A into the solve of one of its triangles."""
        A = self.bundle["A"].tolil()
        A[7, 2] += 0.5 * abs(A[7, 2]) + 1.0
        A = A.tocsc()
        for fmt in ("csc", "csr", "coo", "lil", "bsr"):
            M = A.asformat(fmt)
            for method in ("direct", "corepcg"):
                with self.assertRaises(corepcg.NotSymmetric, msg=fmt) as cm:
                    corepcg.solve(M, self.b, self.x0, method=method,
                                  **self.system)
                said = re.search(r"A is not symmetric: A\(7,2\) = (\S+), "
                                 r"A\(2,7\) = (\S+) ", cm.exception.message)
                self.assertIsNotNone(said, f"{fmt}: {cm.exception.message}")
                self.assertEqual((float(said[1]), float(said[2])),
                                 (A[7, 2], A[2, 7]), fmt)
            with self.assertRaises(corepcg.NotSymmetric, msg=fmt):
                corepcg.check(M, self.b, self.ref, **self.system)
        # Saying which triangle to read is the documented opt-out.
        x = self.answer(sp.tril(A, format="csc"), "auto")
        self.assertEqual(x.tobytes(), self.answer(A, "lower").tobytes())
        self.answer(A.tocsc(), "upper")  # the upper triangle alone is fine

    def test_no_copy_when_the_library_can_read_A(self):
        A = self.bundle["A"]
        L = sp.tril(A, format="csc")
        for M, fmt, tri in ((L, "CSC", "LOWER"), (L.T.tocsr(), "CSC", "LOWER"),
                            (L.tocoo(), "TRIPLET", "LOWER"),
                            (sp.triu(A, format="csc"), "CSC", "UPPER"),
                            (A, "CSC", "BOTH")):
            m = matrix_arrays(M, "both" if M is A else "auto")
            self.assertEqual(m.copies, [])
            self.assertEqual((m.format.name, m.triangle.name), (fmt, tri))
            self.assertTrue(np.shares_memory(m.values, M.data))
            self.assertTrue(np.shares_memory(m.rowidx, M.row if fmt == "TRIPLET"
                                             else M.indices))

    def test_copies_where_documented(self):
        A = self.bundle["A"]
        self.assertEqual(matrix_arrays(A).copies, [])  # read whole
        self.assertEqual(matrix_arrays(A).triangle.name, "BOTH")
        self.assertEqual(matrix_arrays(A, "lower").copies,
                         ["lower triangle selected"])
        self.assertEqual(matrix_arrays(A.tolil(), "both").copies,
                         ["lil converted to CSC"])
        L = sp.tril(A, format="csc")
        L64 = L.copy()  # scipy's constructor would take int32 back
        L64.indices, L64.indptr = (L.indices.astype(np.int64),
                                   L.indptr.astype(np.int64))
        self.assertEqual(matrix_arrays(L64).copies,
                         ["row indices converted from int64 to int32",
                          "column pointers converted from int64 to int32"])
        self.assertEqual(matrix_arrays(L.astype(np.float32)).copies,
                         ["values converted from float32 to float64"])

    def test_triangle_as_an_enum_or_in_any_case(self):
        L = sp.tril(self.bundle["A"], format="csc")
        for triangle in (corepcg.Triangle.LOWER, "LOWER", "Lower", "AUTO"):
            self.same(L, triangle, repr(triangle))

    def test_unpruned_arrays(self):
        # SciPy may keep room past indptr[-1]: only indptr[-1] entries
        # are A's (an outside review: the rest was read, past the end of
        # the row array made from indptr)
        L = sp.tril(self.bundle["A"], format="csc")
        full = (L + sp.tril(L, -1).T).tocsc()
        for fmt in ("csc", "csr"):
            for triangle in ("auto", "lower", "both"):
                M = full.asformat(fmt).copy()
                used = M.indptr[-1]
                M.indices = np.concatenate([M.indices, [0, 1, 2]]).astype(
                    M.indices.dtype)
                M.data = np.concatenate([M.data, [1e300, np.nan, -7.0]])
                self.assertEqual(M.indptr[-1], used)
                self.same(M, triangle, f"{fmt}, {triangle}")

    def test_bad_matrices(self):
        with self.assertRaises(TypeError):  # a dense ndarray: test_dropin
            corepcg.Solver(np.eye(6).tolist())
        with self.assertRaises(TypeError):
            corepcg.Solver(sp.eye(6, dtype=complex, format="csc"))
        with self.assertRaises(corepcg.DimensionError):
            corepcg.Solver(sp.eye(4, format="csc"))
        with self.assertRaises(corepcg.DimensionError):
            corepcg.Solver(sp.csc_matrix((6, 3)))
        with self.assertRaises(ValueError):
            corepcg.Solver(sp.eye(6, format="csc"), triangle="left")
        with self.assertRaises(TypeError):
            corepcg.Solver(sp.eye(6, format="csc"), triangle=1)
        with self.assertRaises(TypeError):
            corepcg.Solver(sp.eye(6, format="csc"), constraints=5)
        huge = sp.coo_matrix(([1.0], ([0], [0])), shape=(3 * 2**30, 3 * 2**30))
        with self.assertRaises(corepcg.TooLarge):
            corepcg.Solver(huge)


class OtherInputs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tiny = corepcg.read_bundle(support.DATA / "tiny")
        cls.exact = corepcg.read_vector(support.DATA / "tiny" / "x.mtx", 12)

    def solve(self, **system):
        t = self.tiny
        x, info = corepcg.solve(t["A"], t["b"], method="direct", **system)
        return x

    def test_constraint_forms(self):
        t = self.tiny
        ref = self.solve(constraints=t["constraints"], z=t["z"])
        np.testing.assert_allclose(ref, self.exact, atol=1e-13)
        as_tuples = [(0, 0), (1, 2, (0.6, 0.8, 0)),
                     (2, 1, [0.36, 0.48, 0.8], np.array([1.6, -1.2, 0]))]
        self.assertEqual(self.solve(constraints=as_tuples, z=list(t["z"]))
                         .tobytes(), ref.tobytes())
        other = np.zeros(3, dtype=[("q", "f4", 3), ("p", "f8", 3),
                                   ("ndof", "i8"), ("node", "i2")])
        for name in ("node", "ndof", "p"):
            other[name] = t["constraints"][name]
        other["q"] = [(0, 0, 0), (0, 0, 0), (1.6, -1.2, 0)]  # float32: near
        x = self.solve(constraints=other, z=t["z"])
        np.testing.assert_allclose(x, self.exact, atol=1e-6)

    def test_bad_constraints(self):
        for bad in ([(0,)], [(0, 1, (1, 0))], [("a", 0)], [(0, 2.5)],
                    [(2**40, 0)], [(0, 1, (1, 0, 0), (0, 1, 0), 7)],
                    np.zeros(2, [("node", "i4"), ("ndof", "i4")]),
                    np.zeros(2, [("node", "i4"), ("ndof", "i4"),
                                 ("p", "f8", 2), ("q", "f8", 3)])):
            with self.assertRaises(corepcg.ConstraintError, msg=repr(bad)):
                self.solve(constraints=bad)
        with self.assertRaises(corepcg.ConstraintError) as cm:
            self.solve(constraints=[(0, 4)])  # 3 is a free node: test_dropin
        self.assertIn("ndof 4", cm.exception.message)  # the library's check

    def test_structured_fields_are_checked_as_tuples_are(self):
        # numpy's cast would make node 2**32 + 5 node 5 and ndof 2.7 ndof 2
        t = self.tiny
        dt = np.dtype([("node", "i8"), ("ndof", "f8"), ("p", "f8", 3),
                       ("q", "f8", 3)])
        for field, value, record in (("node", 2**32 + 2, 0),
                                     ("node", -2**32 + 3, 1),
                                     ("node", 2**31, 1),
                                     ("ndof", 2.7, 1), ("ndof", np.nan, 0),
                                     ("ndof", np.inf, 1),
                                     ("node", 2.5, 0)):
            types = dict(node="i8", ndof="f8")
            if isinstance(value, float):
                types[field] = "f8"
            con = np.zeros(2, [("node", types["node"]),
                               ("ndof", types["ndof"]), ("p", "f8", 3),
                               ("q", "f8", 3)])
            con["node"], con["ndof"] = [0, 1], 0
            con[field][record] = value
            with self.subTest(field=field, value=value):
                with self.assertRaises(corepcg.ConstraintError) as cm:
                    self.solve(constraints=con)
                self.assertEqual(
                    cm.exception.message,
                    f"constraint {record}: field {field!r} must be a whole "
                    f"number that fits int, got {con[field][record].item()!r}")
                with self.assertRaises(corepcg.ConstraintError):
                    corepcg.filter(np.ones(12), con)
                # the same record as a tuple is refused too
                as_tuple = (con["node"][record].item(),
                            con["ndof"][record].item())
                with self.assertRaises(corepcg.ConstraintError):
                    self.solve(constraints=[as_tuple])
        flags = np.zeros(1, [("node", "i4"), ("ndof", "?"), ("p", "f8", 3),
                             ("q", "f8", 3)])
        with self.assertRaises(corepcg.ConstraintError):
            self.solve(constraints=flags)  # a bool is no count, as in tuples
        # whole numbers in other types are taken: the same answer
        other = np.zeros(3, dt)
        for name in dt.names:
            other[name] = t["constraints"][name]
        self.assertEqual(
            self.solve(constraints=other, z=t["z"]).tobytes(),
            self.solve(constraints=t["constraints"], z=t["z"]).tobytes())

    def test_complex_values_are_a_type_error(self):
        # numpy would keep the real part with a mere ComplexWarning
        t = self.tiny
        c = np.ones(12) * (1 + 1j)
        with corepcg.Solver(t["A"], method="direct") as s, \
                warnings.catch_warnings():
            warnings.simplefilter("error")
            for what, call in (("b", lambda: s.solve(c)),
                               ("x0", lambda: s.solve(t["b"], c)),
                               ("out", lambda: s.solve(t["b"], out=c)),
                               ("z", lambda: s.update(t["A"], z=c)),
                               ("z", lambda: self.solve(z=list(c))),
                               ("x", lambda: corepcg.check(t["A"], t["b"], c)),
                               ("v", lambda: corepcg.filter(c)),
                               ("x", lambda: corepcg.write_vector(
                                   Path(tempfile.gettempdir()) /
                                   "corepcg-never-written.mtx", c))):
                with self.subTest(what=what):
                    with self.assertRaises(TypeError) as cm:
                        call()
                    self.assertEqual(str(cm.exception),
                                     f"{what} must be real, got complex values")
            for name in ("p", "q"):
                con = np.zeros(1, [("node", "i4"), ("ndof", "i4")] +
                               [(v, "c16" if v == name else "f8", 3)
                                for v in ("p", "q")])
                with self.assertRaises(TypeError) as cm:
                    self.solve(constraints=con)
                self.assertIn(f"field {name!r} must be real",
                              str(cm.exception))
            with self.assertRaises(TypeError) as cm:
                self.solve(constraints=[(1, 2, np.array([1j, 0, 0]))])
            self.assertEqual(str(cm.exception),
                             "constraint 0: p must be real, got complex values")

    def test_vectors_and_pairs(self):
        t = self.tiny
        with self.assertRaises(corepcg.DimensionError):
            self.solve(z=np.zeros(11))
        with self.assertRaises(corepcg.DimensionError):
            self.solve(stretch_pairs=[0, 1, 1, 2])
        with self.assertRaises(corepcg.DimensionError):
            self.solve(stretch_pairs=[[0.5, 1]])
        with self.assertRaises(corepcg.DimensionError) as cm:
            self.solve(stretch_pairs=[[0, 4]])
        self.assertIn("out of range", cm.exception.message)
        with corepcg.Solver(t["A"], method="direct") as s:
            with self.assertRaises(corepcg.DimensionError):
                s.solve(t["b"][:6])
            # another kind of array is a TypeError, another shape not
            for out in (np.zeros(12, np.float32), [0.0] * 12,
                        np.zeros(24)[::2]):
                with self.assertRaises(TypeError):
                    s.solve(t["b"], out=out)
            ro = np.zeros(12)
            ro.flags.writeable = False
            with self.assertRaises(TypeError):
                s.solve(t["b"], out=ro)
            with self.assertRaises(corepcg.DimensionError):
                s.solve(t["b"], out=np.zeros(9))
            # text, booleans and objects are no numbers
            for v in (np.array(["1.5"] * 12), np.ones(12, bool),
                      np.array([1.0] * 11 + [None], object)):
                with self.assertRaises(TypeError):
                    s.solve(v)
            # None where a vector is needed
            with self.assertRaises(TypeError) as cm:
                s.solve(None)
            self.assertIn("b must be", str(cm.exception))
            out = np.zeros(12)
            x, _ = s.solve(t["b"], out=out)
            self.assertIs(x, out)


def _data_lines(path):
    """A bundle file's lines but its comments (the shipped ones carry
    notes; the banner stays)."""
    return [l for l in path.read_text().splitlines()
            if l.startswith("%%") or not l.startswith(("%", "#"))]


class Files(unittest.TestCase):
    def test_bundle_round_trip(self):
        with tempfile.TemporaryDirectory() as tmp:
            for name in support.BUNDLES:
                src = corepcg.read_bundle(support.DATA / name)
                corepcg.write_bundle(Path(tmp) / name, **src)
                back = corepcg.read_bundle(Path(tmp) / name)
                self.assertEqual(set(back), {"A", "b", "z", "x0", "constraints",
                                             "stretch_pairs"})
                self.assertEqual((back["A"] != src["A"]).nnz, 0)
                for key in ("b", "z", "x0", "constraints", "stretch_pairs"):
                    self.assertEqual(back[key].tobytes(), src[key].tobytes(), key)
                # a copy bit for bit (docs/python.md), A's stored zeros
                # included (ballhit41-k60 has 52; the mirrored sum dropped
                # them): the same pattern and the same files
                self.assertEqual(back["A"].indptr.tobytes(),
                                 src["A"].indptr.tobytes())
                self.assertEqual(back["A"].indices.tobytes(),
                                 src["A"].indices.tobytes())
                for f in ("A.mtx", "b.mtx", "z.mtx", "constraints.txt",
                          "stretch.mtx", "x0.mtx"):
                    got = _data_lines(Path(tmp) / name / f)
                    want = _data_lines(support.DATA / name / f)
                    if name == "tiny":  # written by hand: the sizes only
                        if not f.endswith(".mtx"):
                            continue
                        got, want = got[:2], want[:2]
                    self.assertEqual(got, want, f"{name}/{f}")
        A = corepcg.read_bundle(support.DATA / "ballhit41-k60")["A"]
        self.assertEqual((A.data == 0).sum(), 2 * 52)

    def test_bundle_contents(self):
        t = corepcg.read_bundle(support.DATA / "tiny")
        A = t["A"]
        self.assertIsInstance(A, sp.csc_matrix)
        self.assertEqual(A.nnz, 2 * 42 - 12)  # 42 stored in the lower triangle
        self.assertEqual(abs(A - A.T).max(), 0)
        self.assertEqual(A[3, 0], -2)
        self.assertEqual(t["stretch_pairs"].tolist(), [[0, 1], [1, 2], [2, 3]])
        self.assertEqual(t["constraints"]["ndof"].tolist(), [0, 2, 1])
        self.assertEqual(t["z"][0], 0.5)
        self.assertEqual(t["x0"][3:6].tolist(), [1, 2, 3])

    def test_optional_files_absent(self):
        t = corepcg.read_bundle(support.DATA / "tiny")
        with tempfile.TemporaryDirectory() as tmp:
            corepcg.write_bundle(tmp, t["A"], t["b"])
            back = corepcg.read_bundle(tmp)
            self.assertIsNone(back["z"])
            self.assertIsNone(back["x0"])
            self.assertEqual(back["constraints"].shape, (0,))
            self.assertEqual(back["stretch_pairs"].shape, (0, 2))
            self.assertEqual(sorted(p.name for p in Path(tmp).iterdir()),
                             ["A.mtx", "b.mtx"])

    def test_vector_round_trip(self):
        x = np.array([0.1, -1e-300, 1 / 3, 2.5e307, -0.0])
        with tempfile.TemporaryDirectory() as tmp:
            corepcg.write_vector(Path(tmp) / "x.mtx", x)
            self.assertEqual(corepcg.read_vector(Path(tmp) / "x.mtx", 5)
                             .tobytes(), x.tobytes())
            with self.assertRaises(corepcg.DimensionError):
                corepcg.read_vector(Path(tmp) / "x.mtx", 6)
            with self.assertRaises(corepcg.NotFinite):
                corepcg.write_vector(Path(tmp) / "y.mtx", [1, np.nan])
            # n is checked before the library's int takes it (2**32 + 5
            # was read as 5)
            for n, error in ((2**32 + 5, corepcg.TooLarge),
                             (0, corepcg.DimensionError), (5.0, TypeError),
                             ("5", TypeError), (True, TypeError)):
                with self.subTest(n=n), self.assertRaises(error):
                    corepcg.read_vector(Path(tmp) / "x.mtx", n)
            self.assertEqual(corepcg.read_vector(Path(tmp) / "x.mtx",
                                                 np.int64(5)).tobytes(),
                             x.tobytes())


if __name__ == "__main__":
    unittest.main()
