#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""corepcg against scipy.sparse.linalg.cg on the same reduced system.

What a Python simulator does by hand today: build an orthonormal basis U
of each node's free directions, reduce the constrained system to
    A~ = U^T A U,   b~ = U^T (b - A w),   w = (I - S) z,
solve A~ y = b~ with (Jacobi-preconditioned) CG and map back x = U y + w.
corepcg does the same reduction in C and solves with its methods. Both
answers are measured by corepcg.check (relative residual
|S(b - A x)| / |S(b - A w)|, which is |b~ - A~ y| / |b~|: U^T keeps norms on
the free directions) and compared with the direct solve.

Run from the repository root:
    PYTHONPATH=python /usr/bin/python3 python/examples/compare_cg.py [BUNDLE]
(default: data/ballhit41-k6000). Exit status 0 when every answer meets
the tolerance (relative residual <= 10 tol, exact constraints) and agrees
with the direct solve."""
import inspect
import sys
import time
from pathlib import Path

import corepcg  # first: it says what to do if NumPy or SciPy is missing
import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

TOL = 1e-3
DEFAULT = Path(__file__).resolve().parents[2] / "data" / "ballhit41-k6000"


def free_basis(n_nodes, constraints):
    """U (n x r, sparse): per node an orthonormal basis of its free
    directions (3: I; 2: the plane normal to p; 1: the line along p x q;
    0: none)."""
    ndof = np.full(n_nodes, 3)
    ndof[constraints["node"]] = constraints["ndof"]
    dirs = {i: np.eye(3) for i in range(n_nodes)}
    for node, k, p, q in constraints.tolist():
        if k in (1, 2):
            p = np.array(p) / np.linalg.norm(p)
        if k == 2:
            e1 = np.cross(p, np.eye(3)[np.argmin(np.abs(p))])
            e1 /= np.linalg.norm(e1)
            dirs[node] = np.stack([e1, np.cross(p, e1)], axis=1)
        elif k == 1:
            t = np.cross(p, q)
            dirs[node] = (t / np.linalg.norm(t))[:, None]
        elif k == 0:
            dirs[node] = np.zeros((3, 0))
    rows, cols, vals, r = [], [], [], 0
    for i in range(n_nodes):
        B = dirs[i]
        for c in range(B.shape[1]):
            rows += [3 * i, 3 * i + 1, 3 * i + 2]
            cols += [r + c] * 3
            vals += list(B[:, c])
        r += B.shape[1]
    return sp.csc_matrix((vals, (rows, cols)), shape=(3 * n_nodes, r))


def reduce(A, b, z, constraints):
    """U, A~ = U^T A U, b~ = U^T (b - A w) and w = (I - S) z."""
    U = free_basis(A.shape[0] // 3, constraints)
    w = z - U @ (U.T @ z)                     # S = U U^T
    return U, (U.T @ A @ U).tocsr(), U.T @ (b - A @ w), w


def scipy_cg(U, At, bt, w, x0, tol):
    """scipy's CG with Jacobi on A~: (x, iterations, seconds)."""
    diagonal = At.diagonal()
    jacobi = spla.LinearOperator(At.shape, matvec=lambda r: r / diagonal,
                                 dtype=float)
    iterations = []
    # scipy 1.12 renamed tol to rtol (Debian 12 has 1.10)
    name = "rtol" if "rtol" in inspect.signature(spla.cg).parameters else "tol"
    t = time.perf_counter()
    y, status = spla.cg(At, bt, x0=U.T @ x0, M=jacobi, atol=0.0,
                        maxiter=10000, callback=lambda yk: iterations.append(1),
                        **{name: tol})
    cg_s = time.perf_counter() - t
    if status != 0:
        raise RuntimeError(f"scipy cg did not converge ({status})")
    return U @ y + w, len(iterations), cg_s


def main():
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    bundle = corepcg.read_bundle(path)
    A, b = bundle["A"], bundle["b"]
    n = A.shape[0]
    z = bundle["z"] if bundle["z"] is not None else np.zeros(n)
    x0 = bundle["x0"] if bundle["x0"] is not None else np.zeros(n)
    system = dict(constraints=bundle["constraints"], z=z,
                  stretch_pairs=bundle["stretch_pairs"])
    print(f"{path.name}: n = {n}, {len(bundle['constraints'])} constrained "
          f"nodes, tol {TOL}")
    print(f"{'solver':28s} {'iterations':>10s} {'seconds':>9s} "
          f"{'rel.residual':>12s} {'vs direct':>9s}")

    rows = []
    for method in ("direct", "auto", "icpcg", "corepcg", "mpcg", "upcg"):
        t = time.perf_counter()
        # direct does not iterate: it takes no tol (refused if given)
        tol = None if method == "direct" else TOL
        x, info = corepcg.solve(A, b, x0, method=method, tol=tol, **system)
        rows.append((f"corepcg {method}", x, info["iterations"],
                     time.perf_counter() - t, TOL))
    t = time.perf_counter()
    U, At, bt, w = reduce(A, b, z, bundle["constraints"])
    reduce_s = time.perf_counter() - t
    x, its, seconds = scipy_cg(U, At, bt, w, x0, TOL)
    rows.append(("scipy cg (Jacobi)", x, its, seconds, TOL))
    # scipy's direct solve must give direct's answer, or the hand-made
    # reduction would not be the system corepcg solves.
    t = time.perf_counter()
    x = U @ spla.spsolve(At.tocsc(), bt) + w
    rows.append(("scipy spsolve", x, 0, time.perf_counter() - t, 0))

    x_direct = rows[0][1]
    failures = []
    for label, x, its, seconds, tol in rows:
        m = corepcg.check(A, b, x, **system)
        err = np.linalg.norm(x - x_direct) / np.linalg.norm(x_direct)
        print(f"{label:28s} {its:10d} {seconds:9.4f} {m.rel_residual:12.2e} "
              f"{err:9.1e}")
        if m.rel_residual > max(10 * tol, 1e-12) or \
                m.constraint_error > 1e-12 or (tol == 0 and err > 1e-10):
            failures.append(label)
    print(f"scipy also took {reduce_s:.3f} s to build U, A~ and b~ in NumPy.")
    print("corepcg's seconds include its set-up (reduction, analysis, "
          "factorisation); 'vs direct' is |x - x_direct| / |x_direct|.")
    for f in failures:
        print("FAILED:", f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
