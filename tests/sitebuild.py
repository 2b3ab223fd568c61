"""Build the site (the real one, or a copy with changed data) into a temporary folder."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

PROJECT_PARTS = ("mkdocs.yml", "docs", "data", "macros")


def copy_project(target: Path) -> Path:
    target.mkdir(parents=True, exist_ok=True)
    for part in PROJECT_PARTS:
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, target / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target / part)
    return target


def build(project: Path, site_dir: Path, *extra: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"}
    mkdocs = Path(sys.executable).with_name("mkdocs")
    return subprocess.run([str(mkdocs), "build", "--strict", "-d", str(site_dir), *extra],
                          cwd=project, capture_output=True, text=True, env=env)
