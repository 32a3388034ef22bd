"""mypy over the installed names (`rebootspec.*`) of a checkout: `python tests/typecheck.py DIR`.

Installed, each top-level folder is a subpackage of `rebootspec` (pyproject's package-dir), and
an editable install reaches it through an import hook that mypy cannot follow. So this builds a
tree of symlinks, DIR/rebootspec/<folder> -> the checkout's folder, and checks the packages
there under the names users import. mypy's messages name the checkout's files.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("reference", "generators", "conformance", "spec", "fixtures")
PACKAGES = ("reference", "generators", "conformance")


def main(tree: Path) -> int:
    package = tree / "rebootspec"
    package.mkdir(parents=True, exist_ok=True)
    for folder in FOLDERS:
        link = package / folder
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(ROOT / folder, target_is_directory=True)
    argv = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml")]
    for name in PACKAGES:
        argv += ["-p", f"rebootspec.{name}"]
    env = {**os.environ, "MYPYPATH": str(tree)}
    packages = subprocess.run(argv, cwd=tree, env=env, check=False).returncode
    # The benchmarks are checkout-only scripts that import the installed names.
    scripts = [*argv[:5], "benchmarks"]
    return packages or subprocess.run(scripts, cwd=ROOT, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
