#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""fem_amg.py -- smoothed-aggregation AMG (SA-AMG) preconditioned CG on
FEM garment systems, with a rigid-body near-null space (issue 34 item
3; docs/benchmark.md, "Item 3: what was tried"). Iteration counts and
work counts only, never times: PCG on the reduced system U^T A U, to
|r| <= tol |b^|, from zero and from the bundle's x0 (its free part), as
fem_core.py, whose reading, reduction and PCG it imports.

  fem_amg.py TOL BUNDLE FRAME.obj [--nullspace t|r|both]
             [--smoother bgs|sgs|jacobi] [--theta X] [--max-coarse M]

e.g. (the 56k T-shirt, bending 1e-4 N m, step 29):
  corepcg simulate garment --mesh data/meshes/tshirt.obj --model fem \
      --k-stretch 6000 --bending 1e-4 --subdivide 2 --steps 29 --obj pos
  bench/research/fem_amg.py 1e-5 fem-b1e-4-s2 pos/frame_00028.obj --theta 0.02

BUNDLE is a `corepcg gen garment` directory, FRAME.obj the cloth's
positions at that step's assembly: `corepcg simulate garment` with gen's
options and --steps S (S the bundle's step, as gen's log says; the
contact count of the CSV's last row should match the bundle's), then
DIR/frame_<S-1>.obj, whose first object is the cloth (its vertex count
is checked against the bundle). Near-null spaces B: t, the 3
translations; r, the 6 rigid-body modes (translations and rotations
about the centroid); both restricted to each contact node's free
directions (U^T B).

The hierarchy: node-block strength (Frobenius norms of the blocks,
|A_IJ| >= theta sqrt(|A_II| |A_JJ|); theta 0, the default, keeps every
coupling), standard aggregation on that graph (Vanek, Mandel, Brezina
1996), a tentative prolongator from each aggregate's orthonormalised
rows of B (an SVD, so a rank-deficient aggregate keeps its rank), one
smoothing step P = (I - 4/3 / rho(D^-1 A) D^-1 A) T with D A's node-block
diagonal, Galerkin coarse operators, levels until <= M unknowns (default
2000), solved by a dense Cholesky. The V(1,1) cycle smooths with
node-block Gauss-Seidel, forward before and backward after (bgs, the
default), with the same on single unknowns (sgs), or with damped
node-block Jacobi both ways (omega 4/3 / rho): a symmetric cycle, so an
SPD preconditioner for CG. A "node" is a mesh node on the finest level
(1-3 free unknowns) and an aggregate on a coarse one (up to B's rank).

Work is counted in multiply-adds and printed in units of one product with
the reduced matrix (SpMV-equivalents): per CG iteration that product and
one V-cycle (per level: the first sweep from zero as the block-lower
triangle's entries, D^-1's for Jacobi; the residual and the second
sweep as nnz(A_l) each; P^T and P as nnz(P_l) each; the dense coarse
solve n_c^2); the setup as the sparse products' multiply-adds (A T,
D^-1 (A T), A P, P^T (A P)), 30 products for each level's spectral
estimate and the coarse Cholesky's n_c^3 / 6. Not counted: CG's vector
updates, the strength graph, the aggregation and the per-aggregate SVDs
(linear in n; reusable from one step to the next while the mesh and the
contacts stay).
Needs numpy and scipy (Debian: python3-numpy, python3-scipy)."""
import sys
import numpy as np
import scipy.io as sio
import scipy.linalg as la
import scipy.sparse as sp
import scipy.sparse.linalg as sla
from fem_core import load, columns, reduced, pcg


def positions(obj):
    """The first object's vertices of an OBJ frame (the cloth's)."""
    X, seen = [], 0
    for line in open(obj):
        if line.startswith('o '):
            seen += 1
            if seen > 1:
                break
        elif line.startswith('v '):
            X.append(list(map(float, line.split()[1:4])))
    return np.array(X)


def rigid_modes(X, kind):
    """3N x 3 translations (t) or 3N x 6 with the rotations (r)."""
    N = len(X)
    B = np.kron(np.ones((N, 1)), np.eye(3))
    if kind == 't':
        return B
    Y = X - X.mean(0)
    R = np.zeros((3 * N, 3))
    for k in range(3):                      # e_k x y, node by node
        R[:, k] = np.cross(np.eye(3)[k], Y).ravel()
    return np.hstack([B, R])


def strength(A, node, theta):
    """The node graph of the blocks passing the strength test, without
    its diagonal (CSR, symmetric)."""
    nn = node.max() + 1
    Ac = A.tocoo()
    S = sp.csr_matrix((Ac.data ** 2, (node[Ac.row], node[Ac.col])), shape=(nn, nn))
    S.data = np.sqrt(S.data)
    d = S.diagonal()
    Sc = S.tocoo()
    keep = (Sc.row != Sc.col) & (Sc.data >= theta * np.sqrt(d[Sc.row] * d[Sc.col]))
    return sp.csr_matrix((Sc.data[keep], (Sc.row[keep], Sc.col[keep])), shape=(nn, nn))


def aggregate(G):
    """Standard aggregation: (1) a node whose neighbours are all free
    forms an aggregate with them; (2) a node left over joins the
    aggregate it is most strongly coupled to; (3) what is still left
    forms aggregates with its free neighbours (a lone node, alone)."""
    n = G.shape[0]
    agg, na = np.full(n, -1), 0
    nbrs = [G.indices[G.indptr[i]:G.indptr[i + 1]] for i in range(n)]
    wts = [G.data[G.indptr[i]:G.indptr[i + 1]] for i in range(n)]
    for i in range(n):
        if agg[i] < 0 and (agg[nbrs[i]] < 0).all():
            agg[nbrs[i]] = na; agg[i] = na; na += 1
    first = agg.copy()
    for i in np.flatnonzero(first < 0):
        a = first[nbrs[i]]
        if (a >= 0).any():
            agg[i] = a[np.argmax(np.where(a >= 0, wts[i], -1))]
    for i in np.flatnonzero(agg < 0):
        free = nbrs[i][agg[nbrs[i]] < 0]
        agg[free] = na; agg[i] = na; na += 1
    return agg


def tentative(agg, node, B):
    """T (orthonormal columns, block diagonal by aggregate), the coarse
    near-null space Bc (T Bc = B), and each coarse unknown's aggregate."""
    dagg = agg[node]
    order = np.argsort(dagg, kind='stable')
    cuts = np.flatnonzero(np.diff(dagg[order])) + 1
    rows, cols, vals, Bc, cnode = [], [], [], [], []
    for a, dofs in enumerate(np.split(order, cuts)):
        Q, s, Vt = la.svd(B[dofs], full_matrices=False)
        r = int((s > 1e-10 * s[0]).sum())
        c0 = len(cnode)
        rows.append(np.repeat(dofs, r)); cols.append(np.tile(np.arange(c0, c0 + r), len(dofs)))
        vals.append(Q[:, :r].ravel())
        Bc.append(s[:r, None] * Vt[:r]); cnode += [a] * r
    T = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                      shape=(B.shape[0], len(cnode)))
    return T, np.vstack(Bc), np.array(cnode)


def block_diagonal(A, node):
    """D and D^-1 for D the node blocks of A (sizes 1-3 at the finest
    level, up to the near-null space's size on coarse ones)."""
    order = np.argsort(node, kind='stable')
    start = np.searchsorted(node[order], node[order])
    loc = np.empty_like(node); loc[order] = np.arange(len(node)) - start
    m = loc.max() + 1
    Ac = A.tocoo()
    on = node[Ac.row] == node[Ac.col]
    r, c = Ac.row[on], Ac.col[on]
    blk = np.zeros((node.max() + 1, m, m))
    blk[node[r], loc[r], loc[c]] = Ac.data[on]
    pad = np.ones((node.max() + 1, m)); pad[node, loc] = 0   # empty slots: identity
    blk += pad[:, :, None] * np.eye(m)
    inv = np.linalg.inv(blk)[node[r], loc[r], loc[c]]
    D = sp.csr_matrix((Ac.data[on], (r, c)), shape=A.shape)
    return D, sp.csr_matrix((inv, (r, c)), shape=A.shape)


def spectral_radius(A, D, Dinv, its=15):
    """rho(D^-1 A) by power iteration, its Rayleigh quotient in the D
    inner product (a lower bound) times 1.1."""
    x = np.random.default_rng(1).standard_normal(A.shape[0])
    for _ in range(its):
        x = Dinv @ (A @ x); x /= np.linalg.norm(x)
    return 1.1 * (x @ (A @ x)) / (x @ (D @ x))


def madds(X, Y):
    """Multiply-adds of the sparse product X Y."""
    return float(np.diff(X.tocsc().indptr) @ np.diff(Y.tocsr().indptr))


class Level:
    pass


def hierarchy(K, node, B, smoother, theta, max_coarse):
    """The levels (A, P, smoother) down to a dense coarse Cholesky, and
    the setup's multiply-adds."""
    levels, setup = [], 0.0
    while True:
        lev = Level(); lev.A = K; levels.append(lev)
        if K.shape[0] <= max_coarse or len(levels) == 10:
            lev.chol = la.cho_factor(K.toarray())
            setup += K.shape[0] ** 3 / 6
            return levels, setup
        agg = aggregate(strength(K, node, theta))
        T, Bc, cnode = tentative(agg, node, B)
        D, Dinv = block_diagonal(K, node)
        rho = spectral_radius(K, D, Dinv)
        KT = K @ T
        P = (T - (4 / 3 / rho) * (Dinv @ KT)).tocsr()
        KP = K @ P
        Kc = (P.T @ KP).tocsr()
        setup += madds(K, T) + madds(Dinv, KT) + madds(K, P) + madds(P.T, KP) + 30 * K.nnz
        lev.P, lev.R = P, P.T.tocsr()
        if smoother == 'jacobi':
            lev.Dinv, lev.omega = Dinv, 4 / 3 / rho
        else:                                # GS on points or node blocks
            Kq = K.tocoo()
            lower = (node[Kq.row] >= node[Kq.col]) if smoother == 'bgs' else Kq.row >= Kq.col
            opts = dict(permc_spec='NATURAL', diag_pivot_thresh=0,
                        options=dict(SymmetricMode=True))
            L = sp.csc_matrix((Kq.data[lower], (Kq.row[lower], Kq.col[lower])), shape=K.shape)
            lev.lower, lev.upper = sla.splu(L, **opts), sla.splu(L.T.tocsc(), **opts)
            lev.lower_nnz = L.nnz
        K, node, B = Kc, cnode, Bc


def vcycle(levels, b, l=0):
    lev = levels[l]
    if l == len(levels) - 1:
        return la.cho_solve(lev.chol, b)
    if hasattr(lev, 'lower'):                # forward GS from zero ...
        x = lev.lower.solve(b)
    else:
        x = lev.omega * (lev.Dinv @ b)
    x += lev.P @ vcycle(levels, lev.R @ (b - lev.A @ x), l + 1)
    if hasattr(lev, 'upper'):                # ... backward GS after
        return x + lev.upper.solve(b - lev.A @ x)
    return x + lev.omega * (lev.Dinv @ (b - lev.A @ x))


def cycle_work(levels):
    """A V-cycle's multiply-adds: per level but the last, the pre-sweep
    from zero (GS: the lower triangle; Jacobi: D^-1), the residual, P^T
    and P, the post-sweep (one in-place sweep, nnz(A_l), plus D^-1 for
    Jacobi); the dense coarse solve n_c^2."""
    w = 0.0
    for lev in levels[:-1]:
        nnz = lev.A.nnz
        if hasattr(lev, 'lower'):
            w += lev.lower_nnz + nnz + nnz
        else:
            w += lev.Dinv.nnz + nnz + nnz + lev.Dinv.nnz
        w += 2 * lev.P.nnz
    return w + levels[-1].A.shape[0] ** 2


def run(tol, d, obj, kinds, smoother, theta, max_coarse):
    A, b, z, cons = load(d); N = A.shape[0] // 3
    x0 = np.asarray(sio.mmread(d + '/x0.mtx')).ravel()
    X = positions(obj)
    if len(X) != N:
        sys.exit(f"{obj}: {len(X)} vertices, {d}: {N} nodes")
    U, node, _ = columns(N, cons)
    K, bh = reduced(A, b, z, U)
    y0 = U.T @ (x0 - z)                     # the guess's free part
    print(f"{d}: n {K.shape[0]}, nnz(A~) {K.nnz / 1e6:.2f}M, smoother {smoother}, "
          f"theta {theta}", flush=True)
    for kind in kinds:
        B = U.T @ rigid_modes(X, kind)
        levels, setup = hierarchy(K, node, B, smoother, theta, max_coarse)
        sizes = [lev.A.shape[0] for lev in levels]
        opc = sum(lev.A.nnz for lev in levels) / K.nnz
        its = pcg(K, bh, lambda r: vcycle(levels, r), tol)
        its0 = pcg(K, bh, lambda r: vcycle(levels, r), tol, x0=y0)
        per = 1 + cycle_work(levels) / K.nnz
        print(f"  B {kind} ({B.shape[1]} modes): levels {len(levels)} {sizes}, "
              f"operator complexity {opc:.2f}, iterations {its} (from x0: {its0}); SpMV-equivalents: "
              f"{per:.1f} per iteration, setup {setup / K.nnz:.0f}, step "
              f"{setup / K.nnz + max(its, 0) * per:.0f}", flush=True)


if __name__ == '__main__':
    args, opt = [], dict(nullspace='both', smoother='bgs', theta='0', max_coarse='2000')
    it = iter(sys.argv[1:])
    for a in it:
        if a.startswith('--') and a[2:].replace('-', '_') in opt:
            opt[a[2:].replace('-', '_')] = next(it, None)
        else:
            args.append(a)
    if len(args) != 3 or opt['nullspace'] not in ('t', 'r', 'both') \
            or opt['smoother'] not in ('bgs', 'sgs', 'jacobi'):
        sys.exit(__doc__)
    run(float(args[0]), args[1], args[2],
        ['t', 'r'] if opt['nullspace'] == 'both' else [opt['nullspace']],
        opt['smoother'], float(opt['theta']), int(opt['max_coarse']))
