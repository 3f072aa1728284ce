#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""fem_core.py -- preconditioners tried on FEM garment systems outside the
library (issue 34 item 3; docs/benchmark.md, "Item 3: what was tried").
Iteration counts only: SciPy's SuperLU in symmetric mode stands in for
CHOLMOD (its fill, not its speed, is quoted). PCG on the reduced system
U^T A U, from zero, to |r| <= tol |b^| (the library's default rule).

  fem_core.py lagged TOL BUNDLE0 BUNDLE...   step t0's exact factor
      preconditions steps t0, t1, ... (the old constraints as stiff
      penalties, so a changed contact set still fits)
  fem_core.py frames TOL BUNDLE              cores in per-node normal frames
  fem_core.py isotropic TOL BUNDLE           a scalar node matrix kron I3
  fem_core.py deflate TOL BUNDLE             the frames' core plus the exact
      lowest eigenvectors of (K, C) as a coarse space: the upper bound
      on any near-null input the simulator could pass

Bundles are `corepcg gen` directories (A.mtx, b.mtx, z.mtx,
constraints.txt, stretch.mtx). Needs numpy and scipy (Debian:
python3-numpy, python3-scipy)."""
import sys
import numpy as np
import scipy.io as sio
import scipy.sparse as sp
import scipy.sparse.linalg as sla


def load(d):
    A = sio.mmread(d + '/A.mtx').tocsc()          # symmetric: read whole
    b = np.asarray(sio.mmread(d + '/b.mtx')).ravel()
    z = np.asarray(sio.mmread(d + '/z.mtx')).ravel()
    cons = {}
    for line in open(d + '/constraints.txt'):
        f = line.split()
        if not f or f[0].startswith('#'):
            continue
        vec = lambda k: np.array(list(map(float, f[k:k + 3])))
        cons[int(f[0])] = (int(f[1]), vec(2) if len(f) >= 5 else None,
                           vec(5) if len(f) >= 8 else None)
    return A, b, z, cons


def free_basis(ndof, p, q):
    """Orthonormal columns spanning a constrained node's free motion."""
    if ndof == 0:
        return np.zeros((3, 0))
    if ndof == 2:
        return frame(p)[:, :2]
    d = np.cross(p, q) if q is not None else p
    return (d / np.linalg.norm(d)).reshape(3, 1)


def frame(n):
    """(t1, t2, n): n normalised, t1 and t2 across it."""
    n = n / np.linalg.norm(n)
    t1 = np.cross(n, np.eye(3)[np.argmin(abs(n))])
    t1 /= np.linalg.norm(t1)
    return np.stack([t1, np.cross(n, t1), n], 1)


def columns(N, cons, free_frame=lambda i: np.eye(3)):
    """U with each node's columns: the constrained node's free basis, a
    free node's frame; and per column its node and whether it is a
    free node's third (normal) direction."""
    rows, cols, vals, node, normal = [], [], [], [], []
    for i in range(N):
        B = free_basis(*cons[i]) if i in cons else free_frame(i)
        for k in range(B.shape[1]):
            for r in range(3):
                if B[r, k] != 0:
                    rows.append(3 * i + r); cols.append(len(node)); vals.append(B[r, k])
            node.append(i); normal.append(i not in cons and k == 2)
    U = sp.csc_matrix((vals, (rows, cols)), shape=(3 * N, len(node)))
    return U, np.array(node), np.array(normal)


def factor(C):
    lu = sla.splu(sp.csc_matrix(C), permc_spec='MMD_AT_PLUS_A',
                  diag_pivot_thresh=0, options=dict(SymmetricMode=True))
    count = np.diff(lu.L.tocsc().indptr).astype(float)
    return lu, lu.L.nnz, (count ** 2).sum()      # entries, flops ~ sum c^2


def pcg(K, b, prec, tol, maxit=2000, x0=None):
    x = np.zeros_like(b) if x0 is None else x0.copy()
    r = b - K @ x; z = prec(r); p = z.copy(); rz = r @ z
    for it in range(1, maxit + 1):
        q = K @ p; a = rz / (p @ q); x += a * p; r -= a * q
        if np.linalg.norm(r) <= tol * np.linalg.norm(b):
            return it
        z = prec(r); rz, rz0 = r @ z, rz; p = z + (rz / rz0) * p
    return -1


def reduced(A, b, z, U):
    return (U.T @ A @ U).tocsr(), U.T @ (b - A @ z)


def lagged(tol, dirs):
    A0, _, _, c0 = load(dirs[0]); N = A0.shape[0] // 3
    sigma = 1e4 * A0.diagonal().max()
    pen = sp.lil_matrix(A0.shape)
    for i, c in c0.items():
        B = free_basis(*c)
        pen[3 * i:3 * i + 3, 3 * i:3 * i + 3] = sigma * (np.eye(3) - B @ B.T)
    lu, _, _ = factor(A0 + pen.tocsc())
    for d in dirs:
        A, b, z, cons = load(d)
        U, _, _ = columns(N, cons)
        K, bh = reduced(A, b, z, U)
        its = pcg(K, bh, lambda r: U.T @ lu.solve(U @ r), tol)
        print(f"{d}: contacts {len(cons)} ({'same' if sorted(cons) == sorted(c0) else 'other'}"
              f" set), iterations {its}", flush=True)


def stretch_pairs(d, N):
    S = sio.mmread(d + '/stretch.mtx').tocsr()
    return set(zip(*S.nonzero())) | set(zip(*S.T.nonzero())) | {(i, i) for i in range(N)}


def hinge_normals(A, pairs, N):
    """Per node the dominant direction of its hinge-pair blocks (A's
    pairs that are not stretch pairs): the surface normal there."""
    blocks = {}
    Ac = A.tocoo()
    for r, c, v in zip(Ac.row, Ac.col, Ac.data):
        if (r // 3, c // 3) not in pairs:
            blocks.setdefault((r // 3, c // 3), np.zeros((3, 3)))[r % 3, c % 3] = v
    M = np.zeros((N, 3, 3))
    for (i, _), B in blocks.items():
        M[i] += B @ B.T
    n = np.tile([0.0, 0.0, 1.0], (N, 1))
    for i in range(N):
        w, V = np.linalg.eigh(M[i])
        if w[-1] > 0:
            n[i] = V[:, -1]
    return n


def report(name, K, bh, C, tol, direct):
    lu, nnz, flops = factor(C)
    its = pcg(K, bh, lu.solve, tol)
    print(f"  {name}: iterations {its}, nnz(L) {nnz / direct[0]:.2f} and flops "
          f"{flops / direct[1]:.2f} of direct's", flush=True)


def kept(Kc, keep, compensate):
    """The kept entries; each dropped one's magnitude onto both its
    diagonals, which keeps the result SPD (C - K is PSD)."""
    C = sp.csr_matrix((Kc.data[keep], (Kc.row[keep], Kc.col[keep])), shape=Kc.shape)
    if compensate:
        drop = ~keep
        comp = np.zeros(Kc.shape[0])
        np.add.at(comp, Kc.row[drop], abs(Kc.data[drop]))
        C = C + sp.diags(comp)
    return C


def framed(d):
    """U^T A U in per-node normal frames, and per entry of it whether it
    is a stretch pair (the core's) and whether its row and column are
    normal directions."""
    A, b, z, cons = load(d); N = A.shape[0] // 3
    pairs = stretch_pairs(d, N)
    n = hinge_normals(A, pairs, N)
    U, node, normal = columns(N, cons, lambda i: frame(n[i]))
    K, bh = reduced(A, b, z, U)
    Kc = K.tocoo()
    st = np.array([(node[r], node[c]) in pairs for r, c in zip(Kc.row, Kc.col)])
    return K, bh, Kc, st, normal


def frames(tol, d):
    K, bh, Kc, st, normal = framed(d)
    _, nnz, flops = factor(K)
    print(f"{d}: n {K.shape[0]}, direct nnz(L) {nnz / 1e6:.2f}M")
    nn = normal[Kc.row] & normal[Kc.col]
    same = normal[Kc.row] == normal[Kc.col]
    for name, keep, comp in [
            ('stretch pairs, compensated (the core, in frames)', st, True),
            ('normal and tangential apart, all pairs', same, False),
            ('stretch pairs + hinge pairs normal-normal, compensated', st | nn, True),
            ('stretch pairs + hinge pairs normal-normal, plain', st | nn, False),
            ('stretch pairs + hinge pairs with a normal, compensated',
             st | normal[Kc.row] | normal[Kc.col], True)]:
        report(name, K, bh, kept(Kc, keep, comp), tol, (nnz, flops))


def isotropic(tol, d):
    A, b, z, cons = load(d); N = A.shape[0] // 3
    U, _, _ = columns(N, cons)
    K, bh = reduced(A, b, z, U)
    Ac = A.tocoo(); on = (Ac.row % 3) == (Ac.col % 3)
    Cs = sp.csc_matrix((Ac.data[on] / 3, (Ac.row[on] // 3, Ac.col[on] // 3)), shape=(N, N))
    lu, nnz, _ = factor(Cs)    # tr(A_ij)/3: the average of A over rotations
    its = pcg(K, bh, lambda r: U.T @ lu.solve((U @ r).reshape(N, 3)).ravel(), tol)
    print(f"{d}: tr(A_ij)/3 kron I3: iterations {its}, nnz(L) {nnz / 1e6:.2f}M (N x N)")


def deflate(tol, d):
    """Z, the k lowest eigenvectors of K v = lambda C v (C the frames'
    compensated core), is the best k-dimensional near-null input there
    is: no coarse space the simulator knows at assembly can do better.
    Used (a) additively, C^-1 + Z E^-1 Z^T with E = Z^T K Z, and (b) as
    A-DEF2 deflation (Tang, Nabben, Vuik, Erlangga 2009): x0 = Q b,
    preconditioner (I - Q K) C^-1, Q = Z E^-1 Z^T. Eigenpairs by
    shift-invert Lanczos about 0 with K's factor (the idealised input,
    not the library's cost); 2048 of them only below n 20000, 512 only
    below n 100000 (the eigensolve's time, not the method's)."""
    K, bh, Kc, st, _ = framed(d)
    C = kept(Kc, st, True)
    lu, nnz, _ = factor(C)
    n = K.shape[0]
    ks = [k for k in (8, 32, 128, 512, 2048) if k <= 128 or (k <= 512 and n < 100000) or n < 20000]
    print(f"{d}: n {n}, core nnz(L) {nnz / 1e6:.2f}M, plain core: "
          f"iterations {pcg(K, bh, lu.solve, tol)}", flush=True)
    luK, _, _ = factor(K)
    inv = sla.LinearOperator(K.shape, luK.solve, dtype=float)
    lam, V = sla.eigsh(K, ks[-1], M=C, sigma=0, OPinv=inv, tol=1e-8)
    order = np.argsort(lam); lam, V = lam[order], V[:, order]
    print(f"  lambda of C^-1 K: lowest {lam[0]:.3f}, {ks[-1]}th {lam[-1]:.3f}", flush=True)
    for k in ks:
        Z = V[:, :k]; KZ = K @ Z; E = np.linalg.inv(Z.T @ KZ)
        add = pcg(K, bh, lambda r: lu.solve(r) + Z @ (E @ (Z.T @ r)), tol)
        def adef2(r):
            s = lu.solve(r)
            return s - Z @ (E @ (KZ.T @ s))
        dfl = pcg(K, bh, adef2, tol, x0=Z @ (E @ (Z.T @ bh)))
        nxt = f"{lam[k]:.3f}" if k < len(lam) else "-"
        print(f"  k {k}: additive {add}, A-DEF2 {dfl}, lambda_k+1 {nxt}, "
              f"k n / nnz(L) {k * n / nnz:.2f}", flush=True)


if __name__ == '__main__':
    if len(sys.argv) < 4 or sys.argv[1] not in ('lagged', 'frames', 'isotropic', 'deflate'):
        sys.exit(__doc__)
    what, tol, dirs = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
    if what == 'lagged':
        lagged(tol, dirs)
    else:
        for d in dirs:
            globals()[what](tol, d)
