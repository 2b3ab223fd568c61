"""Shared helpers: a copy of a small valid data set to break one way per test, and the check command."""
from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).parent / "fixtures"
TODAY = dt.date(2026, 11, 29)

sys.path.insert(0, str(ROOT))


class DataDir:
    """A writable copy of tests/fixtures/minimal with helpers to break it."""

    def __init__(self, path: Path):
        self.path = path

    def file(self, name: str) -> Path:
        return self.path / name

    def write(self, name: str, text: str) -> None:
        (self.path / name).write_text(text, encoding="utf-8")

    def replace(self, name: str, old: str, new: str, count: int = 1) -> None:
        text = self.file(name).read_text(encoding="utf-8")
        assert old in text, f"fixture {name} lacks {old!r}"
        self.write(name, text.replace(old, new, count))

    def line_of(self, name: str, text: str, nth: int = 1) -> int:
        """The line of the first (or `nth`) occurrence of `text` in a file: tests find lines, never type them."""
        lines = self.file(name).read_text(encoding="utf-8").splitlines()
        return [i for i, line in enumerate(lines, 1) if text in line][nth - 1]

    def problems(self, today: dt.date = TODAY) -> list:
        from macros.data.catalog import build_catalog
        from macros.data.problems import DataError

        try:
            build_catalog(self.path, today=today, shown_from=self.path)
        except DataError as error:
            return error.problems
        return []


def run_macros(*args: str, cwd: Path = ROOT, data: Path | None = None) -> subprocess.CompletedProcess:
    """`python -m macros [--data DATA] ARGS...` in a clean environment, as a contributor runs it."""
    command = [sys.executable, "-m", "macros", *(["--data", str(data)] if data else []), *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


@pytest.fixture
def data(tmp_path) -> DataDir:
    target = tmp_path / "data"
    shutil.copytree(FIXTURES / "minimal", target)
    return DataDir(target)


def pytest_collection_modifyitems(items):
    """Mark the tests that read the real data: adding an engine must leave them green."""
    for item in items:
        if {"catalog", "site"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.data)


def as_build(catalog):
    """A build of `catalog` with default settings, for tests that call the renderers directly."""
    from macros.site.build import Build

    return Build(ROOT, catalog)


def messages(problems) -> list[str]:
    return [str(p) for p in problems]


def only(problems, text):
    """The first problem whose message mentions `text`; the test fails, listing them all, when none does."""
    found = [p for p in problems if text in p.message]
    assert found, f"no problem mentioning {text!r} in {messages(problems)}"
    return found[0]


def git(repo: Path, *args: str) -> str:
    """A git command in `repo` as a plain committer, whatever the machine's git configuration; its output."""
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=repo, check=True,
                          capture_output=True, text=True).stdout


def report_of(result: subprocess.CompletedProcess) -> dict:
    """The JSON report a network tool printed (`--format json`), after it ran without a traceback."""
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    return json.loads(result.stdout)


def first_rendered_pair(catalog) -> tuple:
    """The two engines of a pair with a pre-rendered page, however many engines there are."""
    from macros.site.render import rendered_pairs

    return rendered_pairs(catalog)[0]


@pytest.fixture(scope="session")
def catalog():
    from macros.data.catalog import build_catalog

    return build_catalog(ROOT / "data")


@pytest.fixture(scope="session")
def site(tmp_path_factory, request) -> Path:
    """The real site, built once per test run: pytest-xdist workers share one build, the first
    to arrive builds it while the others wait on the lock."""
    import fcntl

    from sitebuild import build

    if os.environ.get("DI_SITE"):  # a site this run's caller built already, from this checkout
        return Path(os.environ["DI_SITE"])
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if hasattr(request.config, "workerinput") else base  # popen-gwN/.. is this run's folder
    site_dir, lock = shared / "site", shared / "site.lock"
    with open(lock, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        if not (site_dir / "index.html").exists():
            result = build(ROOT, site_dir)
            assert result.returncode == 0, result.stderr
            assert "WARNING" not in result.stderr, result.stderr
    return site_dir
