#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes a bundle's reduced system for the peer solvers (bench/peers).

    export_reduced.py BUNDLE OUTDIR

OUTDIR gets A.mtx (A~ = U^T A U, both triangles, `general`), b.mtx
(b~ = U^T (b - A w), w = (I - S) z), y0.mtx (U^T x0, the bundle's
guess; zero without one) and block_size (3 when every node left in A~
has all three directions free, so that A~ is made of whole 3x3 node
blocks, else 1): the unconstrained SPD system every method of
corepcg solves, built by python/examples/compare_cg.py's reduction. The
true residual |b~ - A~ y| / |b~| of its answer y is corepcg's default
stopping rule |S(b - A x)| / |S(b - A w)| for x = U y + w."""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[1] / "python"),
                str(HERE.parents[1] / "python" / "examples")]

import corepcg  # noqa: E402  (first: it says what to do if NumPy is missing)
import numpy as np  # noqa: E402
import scipy.io as sio  # noqa: E402
from compare_cg import reduce  # noqa: E402


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    bundle = corepcg.read_bundle(Path(sys.argv[1]))
    A, b = bundle["A"], bundle["b"]
    n = A.shape[0]
    z = bundle["z"] if bundle["z"] is not None else np.zeros(n)
    x0 = bundle["x0"] if bundle["x0"] is not None else np.zeros(n)
    U, At, bt, _ = reduce(A, b, z, bundle["constraints"])
    out = Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    sio.mmwrite(out / "A.mtx", At.tocoo(), precision=17)
    sio.mmwrite(out / "b.mtx", bt[:, None], precision=17)
    sio.mmwrite(out / "y0.mtx", (U.T @ x0)[:, None], precision=17)
    # the node of each column of U (its first row's), counted per node
    Uc = U.tocsc()
    free = np.bincount(Uc.indices[Uc.indptr[:-1]] // 3, minlength=n // 3)
    whole = bool(np.all((free == 0) | (free == 3)))
    (out / "block_size").write_text("3\n" if whole else "1\n")
    print(f"{out}: A~ {At.shape[0]} x {At.shape[1]}, {At.nnz} entries")
    return 0


if __name__ == "__main__":
    sys.exit(main())
