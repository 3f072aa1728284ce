# SPDX-License-Identifier: GPL-2.0-or-later
"""What the Python tests share: where the repository's data, CLI and
headers are (meson hands them in through the environment; run by hand
they default to the repository's build/), and the library under test."""
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "python"))

import corepcg  # noqa: E402  (after the path is set)

DATA = Path(os.environ.get("COREPCG_DATA_DIR", REPO / "data"))
CLI = os.environ.get("COREPCG_CLI", str(REPO / "build" / "tools" / "corepcg"))
# The public header's folder and the build's generated one (corepcg_version.h)
INCLUDE = os.environ.get(
    "COREPCG_INCLUDE",
    os.pathsep.join([str(REPO / "include"), str(REPO / "build" / "include")]))
CC = os.environ.get("CC", "cc")
BUNDLES = ("tiny", "ballhit41-k60", "ballhit41-k6000")


def header_text():
    """The text of the corepcg.h the tests compile against."""
    for d in INCLUDE.split(os.pathsep):
        path = os.path.join(d, "corepcg.h")
        if os.path.exists(path):
            with open(path) as f:
                return f.read()
    raise AssertionError(f"corepcg.h not found in {INCLUDE}")


def bundle_args(bundle):
    """read_bundle's dict as Solver/solve keywords and the solve inputs."""
    system = {k: bundle[k] for k in ("constraints", "z", "stretch_pairs")}
    return system, bundle["b"], bundle["x0"]


def cli(*args, expect=(0,)):
    """Runs the CLI; returns the completed process (exit status checked)."""
    proc = subprocess.run([CLI, *map(str, args)], capture_output=True,
                          text=True)
    if proc.returncode not in expect:
        raise AssertionError(f"corepcg {' '.join(map(str, args))}: exit "
                             f"{proc.returncode}\n{proc.stderr}")
    return proc


def cli_solve(bundle_dir, out, options=(), expect=(0,)):
    """`corepcg solve DIR --out OUT --json OPTIONS`: (x, the JSON dict)."""
    proc = cli("solve", bundle_dir, "--out", out, "--json", *options,
               expect=expect)
    return corepcg.read_vector(out, _n_of(bundle_dir)), json.loads(proc.stdout)


def _n_of(bundle_dir):
    with open(Path(bundle_dir) / "b.mtx") as f:
        for line in f:
            if not line.startswith("%"):
                return int(line.split()[0])
    raise AssertionError(f"{bundle_dir}/b.mtx has no size line")
