#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""make_garments.py -- the project's own garment meshes (data/meshes/*.obj).

Each garment is cut from flat 2D panels, as a tailor cuts cloth: gmsh
meshes the panel outline (Frontal-Delaunay, so the triangles are irregular
and the vertices come in gmsh's order), the same panel is used for the
front and, mirrored through the body's plane, for the back, and the two are
sewn by merging the coincident vertices of their seam curves. The panels
are placed around the body proxy of the garment scene (cloth/obstacle.c;
z up, the body on the z axis, facing -y, arms out along x): a panel point
(u, v) goes to (u, -d, v) in front and (u, +d, v) behind, where the depth
d = D (1 - exp(-s / L)) grows with the distance s from the seams, so that
seams close (d = 0) and the garment stands off the body like a pillow.
Every vertex is checked to clear the body proxy by CLEARANCE.

    /usr/bin/python3 tools/make_garments.py [OUTDIR]     (default data/meshes)

Needs Debian's python3-gmsh and python3-numpy (apt-get install
python3-gmsh python3-numpy); the meshes are committed, so building and
testing corepcg need neither. Sizes are printed and listed in
data/meshes/README.md.
"""
import math
import os
import sys

import gmsh
import numpy as np

from body_proxy import BODY  # tools/, the script's own folder

CLEARANCE = 0.01    # m: every vertex at least this far outside the body
DEPTH = 0.22        # m: D, the depth far from the seams
DEPTH_LENGTH = 0.12 # m: L, how fast the depth grows away from a seam


def mirror(right):
    """The closed outline of a panel symmetric about u = 0 from its right
    half: corners c_0 .. c_m, (u, v, seam) from the bottom centre (u = 0)
    round to the top centre (u = 0), where `seam` says whether the side
    from this corner to the next is a seam. Returns c_0 .. c_m and then the
    mirror images of c_(m-1) .. c_1, each with its outgoing side's flag."""
    m = len(right) - 1
    flags = [s for (_, _, s) in right[:m]]
    out = [(u, v, flags[k] if k < m else flags[m - 1]) for k, (u, v, _) in enumerate(right)]
    for j in range(m - 1, 0, -1):
        u, v, _ = right[j]
        out.append((-u, v, flags[j - 1]))
    return out


def mesh_panel(outline, size, curved):
    """gmsh's triangulation of a closed outline [(u, v, seam_after)];
    runs of corners in `curved` (index ranges) become splines. Returns
    (points (P x 2), triangles (T x 3, 0-based), seam node flags)."""
    gmsh.model.add("panel")
    geo = gmsh.model.geo
    tags = [geo.addPoint(u, v, 0, size) for (u, v, _) in outline]
    n = len(outline)
    curves, seam_curves = [], []
    k = 0
    while k < n:
        run = next((r for r in curved if r[0] == k), None)
        if run:
            a, b = run
            ids = [tags[j % n] for j in range(a, b + 1)]
            c = geo.addSpline(ids)
            seam = outline[a][2]
            k = b
        else:
            c = geo.addLine(tags[k], tags[(k + 1) % n])
            seam = outline[k][2]
            k += 1
        curves.append(c)
        if seam:
            seam_curves.append(c)
    loop = geo.addCurveLoop(curves)
    geo.addPlaneSurface([loop])
    geo.synchronize()
    gmsh.option.setNumber("Mesh.Algorithm", 6)  # Frontal-Delaunay
    gmsh.model.mesh.generate(2)
    node_tags, coords, _ = gmsh.model.mesh.getNodes()
    index = {int(t): i for i, t in enumerate(node_tags)}
    points = np.asarray(coords).reshape(-1, 3)[:, :2]
    types, _, elem_nodes = gmsh.model.mesh.getElements(2)
    tri = np.asarray(elem_nodes[list(types).index(2)], dtype=np.int64).reshape(-1, 3)
    tri = np.vectorize(lambda t: index[int(t)])(tri)
    seam = np.zeros(len(points), dtype=bool)
    for c in seam_curves:
        on, _, _ = gmsh.model.mesh.getNodes(1, c, includeBoundary=True)
        for t in on:
            seam[index[int(t)]] = True
    gmsh.model.remove()
    return drop_unused(points, tri, seam)


def drop_unused(points, tri, *per_point):
    """Without the nodes on no triangle (a spline's inner control points
    are geometry, not mesh), the rest in the same order."""
    used = np.zeros(len(points), dtype=bool)
    used[tri.ravel()] = True
    number = np.cumsum(used) - 1
    return (points[used], number[tri]) + tuple(a[used] for a in per_point)


def seam_distance(points, seam):
    """Distance from every panel point to the nearest seam node (the seam
    nodes are dense along the seams: a mesh size apart)."""
    s = points[seam]
    d = np.full(len(points), np.inf)
    for q in s:
        d = np.minimum(d, np.hypot(points[:, 0] - q[0], points[:, 1] - q[1]))
    return d


def sew(points, tri, seam):
    """Front panel at y = -depth, back at +depth, merged along the seams:
    the front's vertices in gmsh's order, then the back's that are not on
    a seam. The back's triangles are reversed so that every normal points
    out of the garment."""
    depth = DEPTH * (1.0 - np.exp(-seam_distance(points, seam) / DEPTH_LENGTH))
    depth[seam] = 0.0
    front = np.column_stack([points[:, 0], -depth, points[:, 1]])
    back_index = np.empty(len(points), dtype=np.int64)
    back_index[seam] = np.nonzero(seam)[0]
    back_only = np.nonzero(~seam)[0]
    back_index[back_only] = len(points) + np.arange(len(back_only))
    back = np.column_stack([points[back_only, 0], depth[back_only], points[back_only, 1]])
    vertices = np.vstack([front, back])
    triangles = np.vstack([tri, back_index[tri][:, ::-1]])
    return vertices, triangles


def body_gap(vertices):
    """The smallest distance from a vertex to the body proxy's surface."""
    gap = np.inf
    for r, a, b in BODY:
        a, b = np.asarray(a, float), np.asarray(b, float)
        d = b - a
        L2 = d @ d
        s = np.zeros(len(vertices)) if L2 == 0 else np.clip((vertices - a) @ d / L2, 0, 1)
        q = a + s[:, None] * d
        gap = min(gap, float(np.min(np.linalg.norm(vertices - q, axis=1)) - r))
    return gap


def write_obj(path, vertices, triangles, comment):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        for line in comment:
            f.write("# " + line + "\n")
        f.write("o %s\n" % os.path.splitext(os.path.basename(path))[0])
        for x, y, z in vertices:
            f.write("v %.6f %.6f %.6f\n" % (x, y, z))
        for a, b, c in triangles:
            f.write("f %d %d %d\n" % (a + 1, b + 1, c + 1))
    os.replace(tmp, path)


def edge_stats(vertices, triangles):
    e = np.vstack([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]])
    e = np.unique(np.sort(e, axis=1), axis=0)
    lengths = np.linalg.norm(vertices[e[:, 0]] - vertices[e[:, 1]], axis=1)
    return len(e), lengths.min(), lengths.mean(), lengths.max()


# ------------------------------------------------------------- garments

def tshirt_outline():
    """A T-shirt's front (and back) panel with cut-on sleeves for a T-pose:
    seams along the sides and under the sleeves, and along the top of the
    shoulders and sleeves; the hem, the cuffs and the neckline stay open."""
    right = [
        (0.00, 0.78, False),   # 0 hem, centre
        (0.27, 0.78, True),    # 1 side seam up to the armpit
        (0.27, 1.24, True),    # 2 under the sleeve to the cuff
        (0.46, 1.27, False),   # 3 cuff
        (0.46, 1.47, True),    # 4 top of the sleeve and shoulder to the neck
        (0.08, 1.52, False),   # 5 neckline: a spline through 6, 7 and the
        (0.05, 1.47, False),   # 6   mirror images to the left neck point
        (0.00, 1.45, False),   # 7 top centre
    ]
    return mirror(right), [(5, 9)]


def dress_outline():
    """A sleeveless A-line dress: seams along the sides and the shoulder
    straps; the hem, the armholes and the neckline stay open."""
    right = [
        (0.00, 0.50, False),   # 0 hem, centre
        (0.36, 0.50, True),    # 1 side seam up to the armhole
        (0.24, 1.22, False),   # 2 armhole: a spline through 3 to 4
        (0.20, 1.33, False),   # 3
        (0.17, 1.46, True),    # 4 shoulder strap to the neck
        (0.08, 1.50, False),   # 5 neckline: a spline to the left neck point
        (0.05, 1.42, False),   # 6
        (0.00, 1.38, False),   # 7 top centre
    ]
    return mirror(right), [(2, 4), (5, 9), (10, 12)]


def sheet():
    """A 1 m square, vertical in the x-z plane (x -0.5..0.5, z 0.5..1.5),
    meshed unstructured; no seams."""
    square = [(-0.5, 0.5, False), (0.5, 0.5, False), (0.5, 1.5, False), (-0.5, 1.5, False)]
    points, tri, _ = mesh_panel(square, 0.021, [])
    return np.column_stack([points[:, 0], np.zeros(len(points)), points[:, 1]]), tri


def garment(outline, curved, size):
    points, tri, seam = mesh_panel(outline, size, curved)
    return sew(points, tri, seam)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "data", "meshes")
    os.makedirs(out, exist_ok=True)
    gmsh.initialize()
    gmsh.option.setNumber("General.Terminal", 0)
    made = {}
    outline, curved = tshirt_outline()
    made["tshirt"] = garment(outline, curved, 0.0185) + (True,)
    made["tshirt_coarse"] = garment(outline, curved, 0.06) + (True,)
    outline, curved = dress_outline()
    made["dress"] = garment(outline, curved, 0.022) + (True,)
    made["sheet"] = sheet() + (False,)
    gmsh.finalize()
    for name, (vertices, triangles, on_body) in made.items():
        edges, shortest, mean, longest = edge_stats(vertices, triangles)
        gap = body_gap(vertices)
        if on_body and gap < CLEARANCE:
            sys.exit("%s: a vertex is %.4f m from the body proxy (< %g)" % (name, gap, CLEARANCE))
        comment = ["%s: made by tools/make_garments.py (gmsh %s) for corepcg" %
                   (name, gmsh.__version__),
                   "%d vertices, %d triangles, %d edges (%.4f..%.4f m, mean %.4f)" %
                   (len(vertices), len(triangles), edges, shortest, longest, mean),
                   "z up, metres; garments fit the body proxy of the garment scene"]
        write_obj(os.path.join(out, name + ".obj"), vertices, triangles, comment)
        print("%-14s %5d vertices %5d triangles %5d edges, edge %.4f..%.4f m "
              "(mean %.4f), body gap %.3f m" % (name, len(vertices), len(triangles),
                                                 edges, shortest, longest, mean, gap))


if __name__ == "__main__":
    main()
