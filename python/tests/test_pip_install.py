# SPDX-License-Identifier: GPL-2.0-or-later
"""`pip install ./python` as a user runs it, offline: a fresh venv that
sees Debian's NumPy and SciPy (--system-site-packages), the package built
by setuptools without build isolation (nothing from PyPI), and the
installed copy -- not the repository's -- finding the build's library
through COREPCG_LIBRARY, then pkg-config, then next to sys.prefix, and
solving data/tiny."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import support
from support import corepcg

# What the installed package reports, run by the venv's interpreter.
PROBE = r"""
import importlib.metadata, json, sys
import corepcg
from corepcg import _library
tiny = corepcg.read_bundle(sys.argv[1])
x, info = corepcg.solve(tiny["A"], tiny["b"], tiny["x0"], method="direct",
                        constraints=tiny["constraints"], z=tiny["z"])
want = corepcg.read_vector(sys.argv[1] + "/x.mtx", 12)
print(json.dumps({"file": corepcg.__file__, "library": corepcg.library_path,
                  "found_by": _library.found_by,
                  "version": corepcg.__version__,
                  "dist_version": importlib.metadata.version("corepcg"),
                  "error": float(abs(x - want).max()),
                  "rel_residual": info["rel_residual"]}))
"""


def library():
    """The build's libcorepcg.so (meson hands it in)."""
    return os.path.realpath(os.environ.get("COREPCG_LIBRARY") or
                            support.REPO / "build" / "src" / "libcorepcg.so")


class PipInstall(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        tmp = Path(cls.tmp.name)
        # pip builds in the source folder (build/, *.egg-info): a copy
        # keeps the repository clean
        src = tmp / "python"
        src.mkdir()
        shutil.copy(support.REPO / "python" / "pyproject.toml", src)
        shutil.copytree(support.REPO / "python" / "corepcg", src / "corepcg",
                        ignore=shutil.ignore_patterns("__pycache__"))
        cls.venv = tmp / "venv"
        # Without its own pip (seconds instead of a minute): the venv
        # runs Debian's python3-pip, which it sees as it sees NumPy.
        subprocess.run([sys.executable, "-m", "venv", "--without-pip",
                        "--system-site-packages", str(cls.venv)], check=True)
        cls.python = str(cls.venv / "bin" / "python")
        env = cls.env()
        env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
        proc = subprocess.run(
            [cls.python, "-m", "pip", "install", "--no-build-isolation",
             "--no-index", "--no-cache-dir", str(src)],
            capture_output=True, text=True, env=env, cwd=tmp)
        if proc.returncode != 0:
            raise AssertionError("pip install failed:\n" + proc.stdout +
                                 proc.stderr)
        cls.pip_output = proc.stdout

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @staticmethod
    def env(**extra):
        """The environment without the repository on sys.path and without
        any library or pkg-config choice, plus extra."""
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONPATH", "COREPCG_LIBRARY",
                            "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR")}
        env.update(extra)
        return env

    def probe(self, **extra):
        proc = subprocess.run(
            [self.python, "-c", PROBE, str(support.DATA / "tiny")],
            capture_output=True, text=True, env=self.env(**extra),
            cwd=self.tmp.name)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        got = json.loads(proc.stdout)
        # the installed copy, solving data/tiny to its x.mtx
        self.assertTrue(got["file"].startswith(str(self.venv)), got["file"])
        self.assertLess(got["error"], 1e-14)
        self.assertLess(got["rel_residual"], 1e-14)
        self.assertEqual(got["version"], corepcg.__version__)
        self.assertEqual(got["dist_version"], got["version"],
                         "python/pyproject.toml's version is not meson's")
        return got

    def test_installed(self):
        self.assertIn("Successfully installed corepcg-", self.pip_output)

    def test_found_through_corepcg_library(self):
        got = self.probe(COREPCG_LIBRARY=library())
        self.assertEqual((got["found_by"], got["library"]),
                         ("$COREPCG_LIBRARY", library()))

    def test_found_through_pkg_config(self):
        if shutil.which("pkg-config") is None:
            self.fail("pkg-config is missing (apt-get install pkg-config)")
        pc = Path(self.tmp.name) / "pkgconfig"
        pc.mkdir(exist_ok=True)
        libdir = os.path.dirname(library())
        (pc / "corepcg.pc").write_text(
            f"libdir={libdir}\nName: corepcg\nDescription: test\n"
            f"Version: {corepcg.__version__}\nLibs: -L${{libdir}} -lcorepcg\n")
        # PKG_CONFIG_LIBDIR: this folder only, not an installed corepcg.pc
        got = self.probe(PKG_CONFIG_LIBDIR=str(pc))
        self.assertEqual((got["found_by"], got["library"]),
                         ("pkg-config libdir", os.path.join(libdir,
                                                            "libcorepcg.so")))

    def test_found_next_to_sys_prefix(self):
        # as after `meson setup --prefix=VENV ... && meson install`
        multiarch = subprocess.run(
            [self.python, "-c", "import sysconfig; print(sysconfig."
             "get_config_var('MULTIARCH') or 'x86_64-linux-gnu')"],
            capture_output=True, text=True, check=True).stdout.strip()
        libdir = self.venv / "lib" / multiarch
        libdir.mkdir(parents=True, exist_ok=True)
        target = libdir / "libcorepcg.so"
        if not target.exists():
            target.symlink_to(library())
        empty = Path(self.tmp.name) / "no-pkgconfig"
        empty.mkdir(exist_ok=True)
        try:
            got = self.probe(PKG_CONFIG_LIBDIR=str(empty))
        finally:
            target.unlink()
        self.assertEqual((got["found_by"], got["library"]),
                         ("next to sys.prefix", str(target)))


if __name__ == "__main__":
    unittest.main()
