#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A square cloth falls onto a ball and drapes over it: a NumPy mass-spring
simulator with implicit Euler, solved by corepcg at every step.

Model (as cloth/cloth.h): springs to the 4 neighbours (stretch, the matrix
core), the 4 diagonals (shear) and the nodes two apart (bend); a spring
a-b of stiffness k and rest length L pulls a with
    f_a = -(k (l - L) + kd (v_ab . d)) d,   d = (x_a - x_b) / l.
One step of implicit Euler in the symmetric mass-scaled form:
    A = M - h dF/dv - h^2 dF/dx,   b = h (f + h dF/dx v),   A dv = b,
then v += dv, x += h v. A node touching the ball slides on it: a
constraint with ndof 2, normal p, and z = -(p.v) p so that its normal
velocity after the step is zero.

Run from the repository root:  PYTHONPATH=python /usr/bin/python3 python/examples/cloth_step_loop.py
Exit status 0 when every step solved to its tolerance, held its contacts
exactly and the cloth ended draped over the ball."""
import sys
import time
import warnings

import corepcg  # first: it says what to do if NumPy or SciPy is missing
import numpy as np
import scipy.sparse as sp

SIZE = 25                 # nodes per side
SIDE = 1.0                # m
MASS = 1e-4               # kg per node
K = {"stretch": 200.0, "shear": 2.0, "bend": 0.2}   # N/m
DAMPING = 1e-3            # s: kd = DAMPING * k
H = 0.01                  # s per step
STEPS = 80
GRAVITY = np.array([0.0, 0.0, -9.81])
BALL, RADIUS = np.array([0.0, 0.0, 0.0]), 0.25
TOL = 1e-3
MARGIN = 0.01             # m: contact this close to the ball


def make_cloth():
    """Node positions (a flat square above the ball) and the springs."""
    u = np.linspace(-SIDE / 2, SIDE / 2, SIZE)
    gx, gy = np.meshgrid(u, u, indexing="ij")
    x = np.stack([gx.ravel(), gy.ravel(), np.full(SIZE * SIZE, 0.35)], axis=1)
    idx = np.arange(SIZE * SIZE).reshape(SIZE, SIZE)
    springs = {
        "stretch": [(idx[:-1, :], idx[1:, :]), (idx[:, :-1], idx[:, 1:])],
        "shear": [(idx[:-1, :-1], idx[1:, 1:]), (idx[:-1, 1:], idx[1:, :-1])],
        "bend": [(idx[:-2, :], idx[2:, :]), (idx[:, :-2], idx[:, 2:])],
    }
    a, b, k = [], [], []
    for kind, pairs in springs.items():
        for pa, pb in pairs:
            a.append(pa.ravel())
            b.append(pb.ravel())
            k.append(np.full(pa.size, K[kind]))
    a, b, k = np.concatenate(a), np.concatenate(b), np.concatenate(k)
    rest = np.linalg.norm(x[a] - x[b], axis=1)
    stretch_pairs = np.stack([np.concatenate([p.ravel() for p, _ in springs["stretch"]]),
                              np.concatenate([q.ravel() for _, q in springs["stretch"]])],
                             axis=1)
    return x, (a, b, k, rest), stretch_pairs


def assemble(x, v, springs):
    """A (scipy.sparse, both triangles) and b of this step."""
    a, b, k, rest = springs
    n_nodes = len(x)
    dx = x[a] - x[b]
    l = np.linalg.norm(dx, axis=1)
    d = dx / l[:, None]
    vab = v[a] - v[b]
    kd = DAMPING * k
    f = -(k * (l - rest) + kd * np.einsum("ij,ij->i", vab, d))[:, None] * d
    ddT = d[:, :, None] * d[:, None, :]
    # The clamp drops the indefinite term of a compressed spring: A stays SPD.
    Kx = k[:, None, None] * (ddT + np.maximum(0, 1 - rest / l)[:, None, None]
                             * (np.eye(3) - ddT))
    B = H * kd[:, None, None] * ddT + H * H * Kx

    force = np.tile(MASS * GRAVITY, (n_nodes, 1))
    np.add.at(force, a, f)
    np.add.at(force, b, -f)
    Kv = np.einsum("sij,sj->si", Kx, vab)      # -(dF/dx v) at a, + at b
    dfdx_v = np.zeros_like(x)
    np.add.at(dfdx_v, a, -Kv)
    np.add.at(dfdx_v, b, Kv)
    rhs = H * (force + H * dfdx_v)

    # COO triplets: the mass, then +B on (a,a), (b,b) and -B on (a,b), (b,a).
    r3 = np.arange(3)
    def block(I, J):
        rows = (3 * I[:, None, None] + r3[None, :, None]).repeat(3, axis=2)
        cols = (3 * J[:, None, None] + r3[None, None, :]).repeat(3, axis=1)
        return rows.ravel(), cols.ravel()
    rows, cols, vals = [np.arange(3 * n_nodes)], [np.arange(3 * n_nodes)], \
        [np.full(3 * n_nodes, MASS)]
    for I, J, sign in ((a, a, 1), (b, b, 1), (a, b, -1), (b, a, -1)):
        r, c = block(I, J)
        rows.append(r)
        cols.append(c)
        vals.append(sign * B.ravel())
    n = 3 * n_nodes
    A = sp.coo_matrix((np.concatenate(vals),
                       (np.concatenate(rows), np.concatenate(cols))),
                      shape=(n, n)).tocsc()  # sums the duplicates
    return A, rhs.ravel()


def contacts(x, v):
    """Nodes within MARGIN of the ball: constrained to slide on it (ndof 2,
    p the normal), their normal velocity after the step max(0, v.p) (an
    approaching node stops, a leaving one goes on leaving). A node found
    inside is first put back on the surface (x changes in place)."""
    rel = x - BALL
    dist = np.linalg.norm(rel, axis=1)
    normal = rel / dist[:, None]
    vn = np.einsum("ij,ij->i", v, normal)
    nodes = np.flatnonzero(dist + H * np.minimum(vn, 0) < RADIUS + MARGIN)
    inside = nodes[dist[nodes] < RADIUS]
    x[inside] = BALL + RADIUS * normal[inside]
    cons = np.zeros(len(nodes), corepcg.CONSTRAINT_DTYPE)
    cons["node"], cons["ndof"], cons["p"] = nodes, 2, normal[nodes]
    z = np.zeros_like(x)  # dv's normal part: only (I - S) z matters
    z[nodes] = -np.minimum(vn[nodes], 0)[:, None] * normal[nodes]
    return cons, z.ravel()


def main():
    warnings.simplefilter("error", corepcg.CorepcgWarning)  # not converged: fail
    x, springs, stretch_pairs = make_cloth()
    v = np.zeros_like(x)
    dv = np.zeros(x.size)
    failures = []
    reused = 0
    solve_s = 0.0
    cons, z = contacts(x, v)
    A, b = assemble(x, v, springs)
    with corepcg.Solver(A, constraints=cons, z=z, stretch_pairs=stretch_pairs,
                        tol=TOL) as solver:
        previous = None  # the last step's contacts and method
        for step in range(STEPS):
            if step:
                cons, z = contacts(x, v)
                A, b = assemble(x, v, springs)
                solver.update(A, constraints=cons, z=z)
            t = time.perf_counter()
            dv, info = solver.solve(b, x0=dv)
            solve_s += time.perf_counter() - t
            # The pattern holds when the contacts do; auto's candidates
            # analyse it the first time each runs, so only a step that ran
            # the fastest one again, with nothing probed, must reuse it.
            now = (cons["node"].tobytes(), info["method_used"])
            same = now == previous and info["auto_reason"] == "fastest"
            previous = now
            reused += info["analysis_reused"]
            if info["rel_residual"] > 10 * TOL or info["constraint_error"] > 1e-12:
                failures.append(f"step {step}: {info}")
            if same and not info["analysis_reused"]:
                failures.append(f"step {step}: same contacts, analysis not reused")
            v += dv.reshape(-1, 3)
            x += H * v
            if step % 10 == 0 or step == STEPS - 1:
                print(f"step {step:3d}  contacts {len(cons):3d}  "
                      f"{info['method_used']:8s} {info['iterations']:3d} it  "
                      f"rel.res {info['rel_residual']:.1e}  "
                      f"reused {int(info['analysis_reused'])}  "
                      f"lowest z {x[:, 2].min():+.3f}")

    gap = np.linalg.norm(x - BALL, axis=1).min() - RADIUS
    centre = x[(SIZE * SIZE) // 2]
    print(f"{STEPS} steps, {solve_s:.3f} s in solve, analysis reused on "
          f"{reused}; smallest gap to the ball {gap:+.1e} m, centre node at "
          f"z {centre[2]:.3f}, lowest node at z {x[:, 2].min():.3f}")
    if gap < -2e-3:
        failures.append(f"the cloth went {-gap:.3f} m into the ball")
    if abs(centre[2] - RADIUS) > 0.02:
        failures.append(f"the centre node is at z {centre[2]:.3f}, not on top")
    if x[:, 2].min() > BALL[2]:
        failures.append("the cloth does not hang below the ball's equator")
    if reused == 0:
        failures.append("the analysis was never reused")
    for f in failures:
        print("FAILED:", f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
