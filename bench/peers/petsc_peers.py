#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""PETSc's preconditioned CG on a reduced system written by export_reduced.py.

    petsc_peers.py DIR TOL REPEATS

Preconditioners: ICC(0) (PETSc's own, in its natural order, with its
default positive-definite shift on a breakdown), ICC(0) in reverse
Cuthill-McKee order (icpcg's order), GAMG (block size 3 when DIR/block_size
says A~ is made of whole 3x3 node blocks, else 1) and hypre's BoomerAMG
when this PETSc has it. Each solve is cold: the matrix is copied into PETSc (reading the file
excluded, as for the other peers), then the preconditioner is set up and
CG runs from the guess y0 to |b~ - A~ y| <= tol |b~| (`-ksp_norm_type
unpreconditioned`: corepcg's default rule). Prints one line per solver:
name, median seconds over the repeats, iterations, true relative
residual."""
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import scipy.io as sio

try:
    import petsc4py
    petsc4py.init(sys.argv[:1])
    from petsc4py import PETSc
except ImportError:
    sys.exit("petsc_peers.py: cannot import petsc4py: install it (Debian: "
             "apt-get install python3-petsc4py) and, without petsc-dev, set "
             "PETSC_DIR to /usr/lib/petscdir/petscX.Y/x86_64-linux-gnu-real "
             "(run.sh does)")


def petsc_matrix(A, block):
    M = PETSc.Mat().createAIJ(size=A.shape, csr=(A.indptr, A.indices, A.data),
                              comm=PETSc.COMM_SELF)
    if block > 1:
        M.setBlockSize(block)
    M.setOption(PETSc.Mat.Option.SPD, True)
    M.assemble()
    return M


def solve_once(A, b, y0, tol, setup):
    start = time.perf_counter()
    M = petsc_matrix(A, setup["block"])
    ksp = PETSc.KSP().create(comm=PETSc.COMM_SELF)
    ksp.setOperators(M)
    ksp.setType(PETSc.KSP.Type.CG)
    ksp.setNormType(PETSc.KSP.NormType.UNPRECONDITIONED)
    ksp.setTolerances(rtol=tol, atol=0.0, max_it=100000)
    ksp.setInitialGuessNonzero(True)
    pc = ksp.getPC()
    pc.setType(setup["pc"])
    if setup["pc"] == PETSc.PC.Type.ICC:
        pc.setFactorOrdering(setup.get("order", PETSc.Mat.OrderingType.NATURAL))
    if setup["pc"] == PETSc.PC.Type.HYPRE:
        pc.setHYPREType("boomeramg")
    vb = PETSc.Vec().createWithArray(b, comm=PETSc.COMM_SELF)
    vy = PETSc.Vec().createWithArray(y0.copy(), comm=PETSc.COMM_SELF)
    ksp.setUp()
    ksp.solve(vb, vy)
    seconds = time.perf_counter() - start
    y = vy.getArray().copy()
    its = ksp.getIterationNumber()
    converged = ksp.getConvergedReason() > 0
    for obj in (ksp, M, vb, vy):
        obj.destroy()
    return seconds, its, converged, y


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    where = Path(sys.argv[1])
    tol = float(sys.argv[2])
    repeats = max(1, int(sys.argv[3]))
    A = sio.mmread(where / "A.mtx").tocsr()
    A.sort_indices()
    A.indptr = A.indptr.astype(PETSc.IntType)
    A.indices = A.indices.astype(PETSc.IntType)
    b = np.ascontiguousarray(sio.mmread(where / "b.mtx").ravel(), dtype=float)
    y0 = np.ascontiguousarray(sio.mmread(where / "y0.mtx").ravel(), dtype=float)
    block = int((where / "block_size").read_text())
    setups = [
        ("petsc CG + ICC(0)", {"pc": PETSc.PC.Type.ICC, "block": 1}),
        ("petsc CG + ICC(0), RCM", {"pc": PETSc.PC.Type.ICC, "block": 1,
                                    "order": PETSc.Mat.OrderingType.RCM}),
        ("petsc CG + GAMG", {"pc": PETSc.PC.Type.GAMG, "block": block}),
    ]
    if PETSc.Sys.hasExternalPackage("hypre"):
        setups.append(("petsc CG + hypre BoomerAMG", {"pc": PETSc.PC.Type.HYPRE,
                                                     "block": 1}))
    for name, setup in setups:
        runs = [solve_once(A, b, y0, tol, setup) for _ in range(repeats)]
        seconds = statistics.median(r[0] for r in runs)
        _, its, converged, y = runs[-1]
        res = np.linalg.norm(b - A @ y) / np.linalg.norm(b)
        label = name if converged else name + " (not converged)"
        print(f"{label:<36} {seconds:10.4f} {its:8d} {res:10.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
