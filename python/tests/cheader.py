# SPDX-License-Identifier: GPL-2.0-or-later
"""What include/corepcg.h declares, read two ways: its text (struct fields,
enum constants, function prototypes) and a program compiled against it
(sizeof, offsetof and the constants' values), for test_layout."""
import re
import subprocess
import tempfile
from pathlib import Path


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def _names(decl):
    """The declarator names of one declaration: 'int a, *b, c[3]' ->
    [a, b, c]."""
    first, *rest = decl.split(",")
    names = [re.findall(r"\w+", first)[-1] if "[" not in first
             else re.findall(r"(\w+)\s*\[", first)[-1]]
    for d in rest:
        names.append(re.findall(r"\w+", d.split("[")[0])[-1])
    return names


def structs(text):
    """{struct name: [field names in order]} for every struct with a
    body."""
    body = strip_comments(text)
    out = {}
    for name, fields in re.findall(
            r"typedef\s+struct\s+(\w+)\s*\{(.*?)\}\s*\1\s*;", body, re.S):
        out[name] = [n for decl in fields.split(";") if decl.strip()
                     for n in _names(decl.strip())]
    return out


def enums(text):
    """{enum name: [constant names in order]}."""
    body = strip_comments(text)
    out = {}
    for name, members in re.findall(r"enum\s+(\w+)\s*\{(.*?)\}", body, re.S):
        out[name] = [m.split("=")[0].strip() for m in members.split(",")
                     if m.strip()]
    return out


def functions(text):
    """{function name: (result type, [parameter types])}, types with
    `const` and parameter names dropped: 'const char *msg' -> 'char*'."""
    body = strip_comments(text)
    out = {}
    for ret, name, params in re.findall(
            r"COREPCG_EXPORT\s+([\w\s\*]+?)\s*\b(corepcg_\w+)\s*\((.*?)\)\s*;",
            body, re.S):
        types = [] if params.strip() == "void" else \
            [_type(p) for p in params.split(",")]
        out[name] = (_type(ret, named=False), types)
    return out


def _type(decl, named=True):
    words = [t for t in re.findall(r"\w+", decl) if t != "const"]
    if named and len(words) > 1:  # the last word is the parameter's name
        words.pop()
    return " ".join(words) + "*" * decl.count("*")


def program(text):
    """C source that prints, for each struct, its size and each field's
    offset and size, and the value of each enum constant."""
    lines = ["#include <stddef.h>", "#include <stdio.h>",
             "#include \"corepcg.h\"", "int main(void)", "{"]
    for name, fields in structs(text).items():
        lines.append(f'    printf("struct {name} %zu\\n", sizeof({name}));')
        for f in fields:
            lines.append(f'    printf("field {name} {f} %zu %zu\\n", '
                         f'offsetof({name}, {f}), '
                         f'sizeof((({name} *)0)->{f}));')
    for name, consts in enums(text).items():
        for c in consts:
            lines.append(f'    printf("enum {name} {c} %d\\n", (int)({c}));')
    lines.append('    printf("define COREPCG_MSG_SIZE %d\\n", '
                 'COREPCG_MSG_SIZE);')
    lines += ["    return 0;", "}"]
    return "\n".join(lines) + "\n"


def measure(text, include_dirs, cc="cc"):
    """Compiles program(text) (the header itself is found through
    include_dirs, so `text` must be what they hold, or a header written
    next to the program) and returns (sizes, fields, constants):
    sizes[struct], fields[struct] = [(name, offset, size)],
    constants[enum] = {name: value}; defines in constants['#define']."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "corepcg.h").write_text(text)  # wins over include_dirs'
        (tmp / "layout.c").write_text(program(text))
        args = [cc, "-std=c11", "-I", str(tmp)]
        for d in include_dirs:
            args += ["-I", d]
        args += ["-o", str(tmp / "layout"), str(tmp / "layout.c")]
        subprocess.run(args, check=True, capture_output=True, text=True)
        out = subprocess.run([str(tmp / "layout")], check=True,
                             capture_output=True, text=True).stdout
    sizes, fields, constants = {}, {}, {"#define": {}}
    for line in out.splitlines():
        kind, *rest = line.split()
        if kind == "struct":
            sizes[rest[0]] = int(rest[1])
        elif kind == "field":
            fields.setdefault(rest[0], []).append(
                (rest[1], int(rest[2]), int(rest[3])))
        elif kind == "enum":
            constants.setdefault(rest[0], {})[rest[1]] = int(rest[2])
        elif kind == "define":
            constants["#define"][rest[0]] = int(rest[1])
    return sizes, fields, constants
