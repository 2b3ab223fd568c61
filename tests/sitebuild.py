"""Build the site (the real one, or a copy with changed data) into a temporary folder."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from macros.tools.bench import copy_project, generated_project  # noqa: F401  (re-exported for the tests)


def small_project(target: Path) -> Path:
    """The project with a small generated catalog (3 engines, 12 features): for tests of how the
    site is built, which need a build but not the real data, and build in a fraction of the time."""
    return generated_project(target, 3, 12)


def build(project: Path, site_dir: Path, *extra: str, env: dict | None = None) -> subprocess.CompletedProcess:
    # CI variables that name a repository are dropped unless a test sets them: a build must not
    # depend on where the tests run
    env = {**{k: v for k, v in os.environ.items() if k not in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "CI_PROJECT_URL")},
           "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true", **(env or {})}
    mkdocs = Path(sys.executable).with_name("mkdocs")
    return subprocess.run([str(mkdocs), "build", "--strict", "-d", str(site_dir), *extra],
                          cwd=project, capture_output=True, text=True, env=env)


def differing_files(first: Path, second: Path) -> list[str]:
    """What differs between two built sites: an entry one lacks (a file, a link, a folder, even
    empty), one that is a file in one and a folder or link in the other, or a file whose bytes differ."""
    entries = {p.relative_to(first) for p in first.rglob("*")}
    others = {p.relative_to(second) for p in second.rglob("*")}

    def differs(path: Path) -> bool:
        one, other = first / path, second / path
        if one.is_symlink() or other.is_symlink() or one.is_dir() or other.is_dir():
            return (one.is_symlink(), one.is_dir()) != (other.is_symlink(), other.is_dir())
        return one.read_bytes() != other.read_bytes()

    return sorted(str(p) for p in entries ^ others) + sorted(str(p) for p in entries & others if differs(p))
