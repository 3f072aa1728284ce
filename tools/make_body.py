#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""make_body.py -- the dressed scene's meshes (data/meshes/body.obj and
data/meshes/top.obj), made here from the body proxy's numbers.

body.obj: the garment scene's body proxy (cloth/obstacle.c: head, torso,
arms, hips, legs as spheres and capsules; z up, feet at z = 0) as a
triangle mesh, one closed surface per part, wound outward. The parts
overlap and are not joined: the surface nearest to a point outside the
body is always an outer one (a buried piece lies inside another part,
whose surface is nearer), so contacts and the inside test of a mesh
obstacle need no union.

top.obj: a close-fitting top, a tube round the torso from the waist to
the armpits, GAP outside the torso's cylinder: within the contact margin
of its mesh from the start, it settles on the body with most of its
vertices touching it.

    /usr/bin/python3 tools/make_body.py [OUTDIR]     (default data/meshes)

Plain Python; the meshes are committed.
"""
import math
import os
import sys

from body_proxy import BODY  # tools/, the script's own folder

SEGMENTS = 64   # round each part: the faces sag 0.18 mm on the torso
HALF_RINGS = 16 # rings on each half sphere, pole excluded

TOP_GAP = 0.0006              # m outside the torso's cylinder
TOP_Z = (1.00, 1.30)          # waist to armpits (the hips bulge below)
TOP_SEGMENTS = 96             # ~1 cm edges round
TOP_RINGS = 31                # 1 cm apart


def frame(d):
    """Two unit vectors orthogonal to d and to each other."""
    pick = (1.0, 0.0, 0.0) if abs(d[0]) < 0.9 else (0.0, 1.0, 0.0)
    dot = sum(p * q for p, q in zip(pick, d))
    u = [p - dot * q for p, q in zip(pick, d)]
    n = math.sqrt(sum(c * c for c in u))
    u = [c / n for c in u]
    w = [d[1] * u[2] - d[2] * u[1], d[2] * u[0] - d[0] * u[2], d[0] * u[1] - d[1] * u[0]]
    return u, w


def part(radius, e0, e1):
    """A sphere (e0 == e1) or a capsule: its vertices (pole, rings,
    pole) and triangles, 0-based, wound outward."""
    axis = [b - a for a, b in zip(e0, e1)]
    length = math.sqrt(sum(c * c for c in axis))
    d = [c / length for c in axis] if length > 0 else [0.0, 0.0, 1.0]
    u, w = frame(d)

    def point(centre, theta, phi):
        a = radius * math.sin(theta) * math.cos(phi)
        b = radius * math.sin(theta) * math.sin(phi)
        h = radius * math.cos(theta)
        return [centre[k] + a * u[k] + b * w[k] + h * d[k] for k in range(3)]

    # rings from the bottom pole (theta = pi round e0) to the top one
    # (theta = 0 round e1); a capsule's equator twice, once round each end
    thetas = [math.pi * (2 * HALF_RINGS - k) / (2 * HALF_RINGS) for k in range(1, 2 * HALF_RINGS)]
    rings = []
    for theta in thetas:
        if length > 0 and abs(theta - math.pi / 2) < 1e-12:
            rings.append((e0, theta))
            rings.append((e1, theta))
        else:
            rings.append((e0 if theta > math.pi / 2 else e1, theta))
    verts = [point(e0, math.pi, 0.0)]
    for centre, theta in rings:
        for s in range(SEGMENTS):
            verts.append(point(centre, theta, 2 * math.pi * s / SEGMENTS))
    verts.append(point(e1, 0.0, 0.0))
    tris = []
    top = len(verts) - 1
    for s in range(SEGMENTS):
        n = (s + 1) % SEGMENTS
        tris.append((0, 1 + n, 1 + s))
        for r in range(len(rings) - 1):
            lo, hi = 1 + r * SEGMENTS, 1 + (r + 1) * SEGMENTS
            tris.append((lo + s, lo + n, hi + n))
            tris.append((lo + s, hi + n, hi + s))
        last = 1 + (len(rings) - 1) * SEGMENTS
        tris.append((last + s, last + n, top))
    return orient_out(verts, tris)


def volume6(verts, tris):
    total = 0.0
    for a, b, c in tris:
        p, q, r = verts[a], verts[b], verts[c]
        total += (p[0] * (q[1] * r[2] - q[2] * r[1]) - p[1] * (q[0] * r[2] - q[2] * r[0]) +
                  p[2] * (q[0] * r[1] - q[1] * r[0]))
    return total


def orient_out(verts, tris):
    """Turns the triangles round when they enclose a negative volume."""
    if volume6(verts, tris) < 0:
        tris = [(a, c, b) for a, b, c in tris]
    return verts, tris


def tube():
    """The top: TOP_RINGS rings of TOP_SEGMENTS, an open tube."""
    radius = BODY[1][0] + TOP_GAP
    verts, tris = [], []
    for r in range(TOP_RINGS):
        z = TOP_Z[0] + (TOP_Z[1] - TOP_Z[0]) * r / (TOP_RINGS - 1)
        # every other ring turned half a segment: triangles, not slivers
        shift = 0.5 * (r % 2)
        for s in range(TOP_SEGMENTS):
            phi = 2 * math.pi * (s + shift) / TOP_SEGMENTS
            verts.append([radius * math.cos(phi), radius * math.sin(phi), z])
    for r in range(TOP_RINGS - 1):
        lo, hi = r * TOP_SEGMENTS, (r + 1) * TOP_SEGMENTS
        for s in range(TOP_SEGMENTS):
            n = (s + 1) % TOP_SEGMENTS
            if r % 2 == 0:  # the ring above is turned forward
                tris.append((lo + s, lo + n, hi + s))
                tris.append((lo + n, hi + n, hi + s))
            else:           # this ring is turned forward
                tris.append((lo + s, hi + n, hi + s))
                tris.append((lo + s, lo + n, hi + n))
    return verts, tris


def write(path, header, pieces):
    with open(path, "w") as f:
        f.write(header)
        base = 1
        for verts, tris in pieces:
            for v in verts:
                f.write("v %.6f %.6f %.6f\n" % tuple(v))
            for t in tris:
                f.write("f %d %d %d\n" % (t[0] + base, t[1] + base, t[2] + base))
            base += len(verts)
    nv = sum(len(v) for v, _ in pieces)
    nt = sum(len(t) for _, t in pieces)
    print("%s: %d vertices, %d triangles" % (path, nv, nt))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "data", "meshes")
    parts = [part(r, e0, e1) for r, e0, e1 in BODY]
    write(os.path.join(out, "body.obj"),
          "# corepcg body: the body proxy's parts as closed meshes (tools/make_body.py)\n",
          parts)
    write(os.path.join(out, "top.obj"),
          "# corepcg top: a tube round the torso (tools/make_body.py)\n", [tube()])


if __name__ == "__main__":
    main()
