#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The files of each folder call each other one way.

Usage: file_circles.py SOURCE_ROOT

The files of cloth/, bench/, tools/ and tools/render/ share their
folder's header, and those of util/ and of each folder of the library
(src/io: bundle_io.h) often do, so the includes cannot show which file
depends on which; the calls do. A file depends on another of its folder when it names a
function that the other defines without `static`. Fails, naming the files
and the functions, when files depend on each other in a circle (sim.c
calling solve.c calling back into sim.c): a file's callers are above it,
its callees below.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layers import header_circle  # noqa: E402 -- any graph's circle

# the library's folders too: within each, its files call one way (the
# includes between folders are layers.py's)
FOLDERS = ["cloth", "bench", "tools", "tools/render", "util"] + [
    "src/" + f for f in ("base", "system", "kernels", "order", "factor",
                         "methods", "handle", "io")]

COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
LITERAL = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')
PREPROCESSOR = re.compile(r"^\s*#[^\n]*(?:\\\n[^\n]*)*", re.M)
# at the file's top level: a name, its parameters, then the body
DEFINITION = re.compile(r"\b([A-Za-z_]\w*)\s*"
                        r"\([^;{}()]*(?:\([^;{}()]*\)[^;{}()]*)*\)\s*\{")
IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*\b")


def code_of(path):
    """The file's text without comments, literals and preprocessor lines."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = COMMENT.sub(" ", text)
    text = LITERAL.sub('""', text)
    return PREPROCESSOR.sub(" ", text)


def top_level(text):
    """text with every brace's contents blanked: what stands at file scope
    (the definitions' headers and their empty bodies)."""
    out, depth = [], 0
    for ch in text:
        if ch == "}":
            depth -= 1
        if depth == 0 or ch == "\n":
            out.append(ch)
        if ch == "{":
            depth += 1
    return "".join(out)


def exported(text):
    """The functions the file defines without static."""
    names = set()
    scope = top_level(text)
    for m in DEFINITION.finditer(scope):
        line_start = scope.rfind(";", 0, m.start())
        line_start = max(line_start, scope.rfind("}", 0, m.start()))
        header = scope[line_start + 1:m.start()]
        if not re.search(r"\bstatic\b", header):
            names.add(m.group(1))
    return names


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: file_circles.py SOURCE_ROOT")
    root = sys.argv[1]
    problems, files_read = [], 0
    for folder in FOLDERS:
        base = os.path.join(root, folder)
        sources = sorted(n for n in os.listdir(base) if n.endswith(".c"))
        code = {n: code_of(os.path.join(base, n)) for n in sources}
        files_read += len(code)
        owner = {}
        for name, text in code.items():
            for fn in exported(text):
                owner[fn] = name
        graph, why = {}, {}
        for name, text in code.items():
            for word in set(IDENTIFIER.findall(text)):
                to = owner.get(word)
                if to and to != name:
                    graph.setdefault(name, set()).add(to)
                    why.setdefault((name, to), set()).add(word)
        graph = {k: sorted(v) for k, v in graph.items()}
        circle = header_circle(graph)
        if circle:
            steps = [f"{a} ({', '.join(sorted(why[(a, b)]))})"
                     for a, b in zip(circle, circle[1:])]
            problems.append(f"{folder}/: files call each other in a circle: "
                            + " -> ".join(steps + [circle[-1]]))
        if not owner:
            problems.append(f"{folder}/: no functions found (wrong SOURCE_ROOT?)")
    # util/ sits below the library and the tools alike: it calls nothing
    # of the library's (corepcg.h for its codes only)
    base = os.path.join(root, "util")
    for name in sorted(n for n in os.listdir(base) if n.endswith(".c")):
        calls = sorted(set(re.findall(r"\b(corepcg_\w+)\s*\(",
                                      code_of(os.path.join(base, name)))))
        if calls:
            problems.append(f"util/{name} calls up into the library: "
                            + ", ".join(calls))
    for p in problems:
        print(p)
    print(f"{files_read} files in {', '.join(FOLDERS)}, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
