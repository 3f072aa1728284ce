#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The library's folders are layers (docs/design.md, "File groups").

Usage: layers.py SOURCE_ROOT

Reads every #include "..." of the C files and headers under include/,
util/ and src/, finds the header it names as the build does (the file's
own folder first, then by name: every folder is on the include path), and
fails when an include
  - runs upward: it names a header of a higher layer than its own;
  - runs sideways: it names a header of another folder of its own layer
    (folders of one layer stay independent of each other);
  - names a header that is not there, or one that two folders hold;
when headers include each other in a circle, and when a file outside
CHOLMOD_USERS reaches CHOLMOD's header (directly or through the headers
it includes): CHOLMOD is the factorisations' back end, not every layer's
(docs/design.md, "Back ends"); and when a header of cloth/ includes
one of a higher room (CLOTH_ROOMS) or a file of cloth/ the umbrella
cloth.h. Each finding is printed as file:line. With the order strict and siblings independent, no two
folders can depend on each other.
"""

import os
import re
import sys

# The layers, lowest first; the folders of one layer are siblings. A new
# folder goes here, or the check fails.
LAYERS = [
    ["include"],       # the public header corepcg.h
    ["util"],          # shared with the tools: messages, clock, files
    ["src/base"],      # what every layer uses: errors, names,
                       # buffers, the CHOLMOD common
    ["src/system"],    # the system as the library keeps it: A, U, A~
    ["src/io", "src/kernels", "src/order"],  # bundle files; the
                       # iterations' block kernels; node orderings
    ["src/factor", "src/backend/cpu"],  # CHOLMOD's and the incomplete
                       # factorisations; the CPU's vector operations
                       # (kernels/vec.h), beside which another back end
                       # is a folder of its own
    ["src/methods"],   # the methods, their registry and auto
    ["src/handle"],    # the public entries that drive them
    ["src"],           # internal.h: every header at once, for the tests
]
# The files that may reach <suitesparse/cholmod.h>, directly or through
# a header; a folder ends in "/". Any other file including it fails.
CHOLMOD_USERS = (
    "src/base/cholmod_quiet.h", "src/base/cholmod.c",  # the quiet common
    "src/factor/",                                     # the factorisations
    "src/methods/method_corepcg.c",                    # the methods that
    "src/methods/method_direct.c",                     # factorise with it
    # CHOLMOD's sparse utilities (A in any format, Matrix Market files),
    # not its factorisations: the import and the bundle files on the CPU
    "src/system/bmat.c", "src/system/symmetry.c",
    "src/io/bundle_A.c", "src/io/bundle_read.c", "src/io/bundle_write.c",
    "src/io/mm_write.c",
    "src/internal.h",                                  # the tests' all
)
CHOLMOD_HEADER = re.compile(r'^\s*#\s*include\s+<(suitesparse/)?cholmod\.h>')
# cloth/'s headers are rooms, lowest first (cloth/cloth.h, "layer as"):
# a cloth header includes only those of its own room or below, and no
# file of cloth/ includes the umbrella cloth.h (it is the tools', the
# benchmark's and the tests'). A new header of cloth/ goes here, or the
# check fails.
CLOTH_ROOMS = [
    ["cloth_mesh.h", "embree_mesh.h", "vec3.h"],  # meshes, their trees
    ["cloth_scene.h"],   # scenes, holds, obstacles, mesh obstacles
    ["mesh_obstacle_parts.h"],  # inside a mesh obstacle: its query and
                         # the union of its parts
    ["cloth_model.h"],   # parameters, springs, the model, FEM elements,
                         # the force models' rows
    ["cloth_sim.h"],     # the simulation, its step and output
]
CLOTH_UMBRELLA = "cloth.h"
# Written into the build tree by meson, found there by the build.
GENERATED = {"corepcg_version.h"}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def sources(root):
    """Every .c and .h file under the layers' top folders, relative."""
    found = []
    for top in ("include", "util", "src"):
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in names:
                if name.endswith((".c", ".h")):
                    path = os.path.join(folder, name)
                    found.append(os.path.relpath(path, root))
    return sorted(found)


def includes(root, path):
    """(line number, name) of each quoted include in path."""
    with open(os.path.join(root, path), encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield number, m.group(1)


def reaches_cholmod(root, files, resolved):
    """The files whose includes reach CHOLMOD's header, with the path of
    includes that gets there (file, header, ..., the one that includes
    it)."""
    direct = set()
    for path in files:
        with open(os.path.join(root, path), encoding="utf-8") as f:
            if any(CHOLMOD_HEADER.match(line) for line in f):
                direct.add(path)
    via = {}

    def visit(path, seen):
        if path in via:
            return via[path]
        via[path] = None  # a circle reaches nothing new
        if path in direct:
            via[path] = [path]
            return via[path]
        for target in resolved.get(path, ()):
            if target not in seen:
                chain = visit(target, seen | {target})
                if chain:
                    via[path] = [path] + chain
                    break
        return via[path]

    return {p: c for p in files if (c := visit(p, {p}))}


def cholmod_allowed(path):
    return any(path.startswith(u) if u.endswith("/") else path == u
               for u in CHOLMOD_USERS)


def resolve(name, including, headers):
    """The header name means in including's eyes: (path, None) or (None,
    why not)."""
    own = os.path.normpath(os.path.join(os.path.dirname(including), name))
    if own in headers:
        return own, None
    matches = [h for h in headers
               if h == name or h.endswith("/" + name)]
    if len(matches) == 1:
        return matches[0], None
    if matches:
        return None, "is ambiguous: " + ", ".join(matches)
    return None, "is not found"


def header_circle(graph):
    """One circle of headers including each other, or None."""
    state = {}  # absent: not seen, 1: on the current path, 2: done
    path = []

    def visit(node):
        state[node] = 1
        path.append(node)
        for nxt in graph.get(node, ()):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def cloth_rooms(root):
    """(includes seen, problems) of cloth/'s headers against CLOTH_ROOMS."""
    rank = {h: k for k, room in enumerate(CLOTH_ROOMS) for h in room}
    folder = os.path.join(root, "cloth")
    problems, count = [], 0
    names = sorted(n for n in os.listdir(folder) if n.endswith((".c", ".h")))
    for name in names:
        if name.endswith(".h") and name != CLOTH_UMBRELLA and name not in rank:
            problems.append(f"cloth/{name}: a header in no room "
                            "(add it to CLOTH_ROOMS in tests/layers.py)")
    for name in names:
        for number, target in includes(root, os.path.join("cloth", name)):
            count += 1
            where = f'cloth/{name}:{number}: #include "{target}"'
            if target == CLOTH_UMBRELLA and name != CLOTH_UMBRELLA:
                problems.append(f"{where}: cloth/ includes the headers it "
                                "uses, not the umbrella")
            elif name in rank and target in rank and rank[target] > rank[name]:
                problems.append(f"{where} runs upward, from room "
                                f"{rank[name]} to {rank[target]}")
    return count, problems


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: layers.py SOURCE_ROOT")
    root = sys.argv[1]
    rank = {folder: k for k, layer in enumerate(LAYERS) for folder in layer}
    files = sources(root)
    headers = {f for f in files if f.endswith(".h")}
    problems = []

    empty = [f for f in rank if not any(os.path.dirname(p) == f for p in files)]
    for folder in empty:
        problems.append(f"{folder}: a layer's folder without sources "
                        "(LAYERS is out of date)")

    graph = {}
    resolved = {}  # every file's resolved quoted includes
    count = 0
    for path in files:
        folder = os.path.dirname(path)
        if folder not in rank:
            problems.append(f"{path}: folder {folder} is in no layer "
                            "(add it to LAYERS in tests/layers.py)")
            continue
        for number, name in includes(root, path):
            count += 1
            where = f'{path}:{number}: #include "{name}"'
            if name in GENERATED:
                continue
            target, why = resolve(name, path, headers)
            if not target:
                problems.append(f"{where} {why}")
                continue
            resolved.setdefault(path, []).append(target)
            if path.endswith(".h"):
                graph.setdefault(path, []).append(target)
            to = os.path.dirname(target)
            if to == folder or to not in rank:
                continue
            if rank[to] > rank[folder]:
                problems.append(f"{where} runs upward, from {folder} to "
                                f"{to} ({target})")
            elif rank[to] == rank[folder]:
                problems.append(f"{where} runs sideways, between the "
                                f"independent {folder} and {to} ({target})")

    cloth_count, cloth_problems = cloth_rooms(root)
    count += cloth_count
    problems += cloth_problems

    circle = header_circle(graph)
    if circle:
        problems.append("headers include each other in a circle: "
                        + " -> ".join(circle))
    for path, chain in sorted(reaches_cholmod(root, files, resolved).items()):
        if not cholmod_allowed(path):
            problems.append(f"{path}: reaches CHOLMOD's header ("
                            + " -> ".join(chain + ["cholmod.h"])
                            + "); only CHOLMOD_USERS may (tests/layers.py)")
    if count == 0:
        problems.append(f"{root}: no includes found (wrong SOURCE_ROOT?)")

    order = " < ".join(" | ".join(os.path.basename(f) or f for f in layer)
                       for layer in LAYERS)
    print(f"layers, lowest first: {order}")
    print("cloth/'s rooms, lowest first: "
          + " < ".join(" | ".join(room) for room in CLOTH_ROOMS))
    for p in problems:
        print(p)
    print(f"{count} includes in {len(files)} files, "
          f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
