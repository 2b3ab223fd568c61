"""Build the site (the real one, or a copy with changed data) into a temporary folder."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from macros.tools.bench import copy_project  # noqa: F401  (re-exported for the tests)


def build(project: Path, site_dir: Path, *extra: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"}
    mkdocs = Path(sys.executable).with_name("mkdocs")
    return subprocess.run([str(mkdocs), "build", "--strict", "-d", str(site_dir), *extra],
                          cwd=project, capture_output=True, text=True, env=env)
