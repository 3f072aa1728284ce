#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""renumber_obj.py IN.obj OUT.obj SEED: a triangle mesh with its vertices
and its faces in a random order (each face keeps its orientation): the
"any vertex order" check of docs/benchmark.md for whole simulations,
where a bundle cannot be renumbered (renumber_bundle.py) because the
simulator assembles every step. The faces are shuffled too, so that the
midpoints `--subdivide` appends come in random order as well. Reads
`v` and `f` lines with plain vertex indices; plain Python."""
import random, sys
src, dst, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
verts, faces = [], []
for line in open(src):
    if line.startswith('v '):
        verts.append(line)
    elif line.startswith('f '):
        faces.append([int(t) for t in line.split()[1:]])
perm = list(range(len(verts)))              # new vertex k is old perm[k]
random.Random(seed).shuffle(perm)
new_of = {old: new for new, old in enumerate(perm)}
random.Random(seed + 1).shuffle(faces)
with open(dst, 'w') as f:
    f.write('# %s with its vertices and faces renumbered at random (seed %d)\n'
            % (src, seed))
    for old in perm:
        f.write(verts[old])
    for face in faces:
        f.write('f ' + ' '.join(str(new_of[i - 1] + 1) for i in face) + '\n')
