#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""renumber_bundle.py IN OUT SEED: a corepcg bundle (gen --out) with its
nodes renumbered at random, every file consistently: the "any vertex
order" check of docs/benchmark.md. Needs numpy and scipy."""
import sys, os, numpy as np, scipy.io as sio, scipy.sparse as sp
src, dst, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(dst, exist_ok=True)
A = sio.mmread(src + '/A.mtx').tocsr(); N = A.shape[0] // 3
perm = np.random.default_rng(seed).permutation(N)   # new node k is old perm[k]
inv = np.empty(N, int); inv[perm] = np.arange(N)
dof = (3 * perm[:, None] + np.arange(3)).ravel()
sio.mmwrite(dst + '/A.mtx', sp.tril(A[dof][:, dof]).tocoo(), symmetry='symmetric', precision=17)
for v in ('b', 'z', 'x0'):
    if os.path.exists(f'{src}/{v}.mtx'):
        x = np.asarray(sio.mmread(f'{src}/{v}.mtx')).ravel()[dof]
        sio.mmwrite(f'{dst}/{v}.mtx', x.reshape(-1, 1), precision=17)
S = sio.mmread(src + '/stretch.mtx').tocoo()
P = sp.coo_matrix((np.ones(S.nnz), (inv[S.row], inv[S.col])), shape=S.shape)
P = sp.tril(P + P.T, -1).tocoo()
sio.mmwrite(dst + '/stretch.mtx', sp.coo_matrix((np.ones(P.nnz), (P.row, P.col)), shape=S.shape), field='pattern', symmetry='symmetric')
with open(src + '/constraints.txt') as f, open(dst + '/constraints.txt', 'w') as g:
    for line in f:
        t = line.split()
        if t and not t[0].startswith('#'):
            t[0] = str(inv[int(t[0])]); line = ' '.join(t) + '\n'
        g.write(line)
