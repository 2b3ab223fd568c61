"""`make bench`: what a build costs, for this site and a generated catalog of 50 engines and
300 features, each against its floor (the same pages with trivial content, same config).

Prints build time, floor, ratio, peak memory, page and search-index sizes, and the time of
the data check, with the targets beside them. Not a test: figures, for a human to read.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from macros.data.catalog import ROOT
from macros.tools.synthetic import write_catalog

PROJECT_PARTS = ("mkdocs.yml", "docs", "data", "macros")


def copy_project(target: Path) -> Path:
    """The parts of the project a build reads, copied to `target` (the tests use it too)."""
    target.mkdir(parents=True, exist_ok=True)
    for part in PROJECT_PARTS:
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, target / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target / part)
    return target


def run(command: list[str], cwd: Path, **env) -> tuple[float, float]:
    """Seconds and peak resident memory (MB) of one command."""
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true", **env}
    # stderr goes to a file: a pipe could fill up while wait4 waits, and hang both
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, env=environment, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        if status != 0:
            errors.seek(0)
            raise SystemExit(f"failed: {' '.join(command)}\n{errors.read().decode()[-2000:]}")
    return seconds, usage.ru_maxrss / 1024


def measure(project: Path, label: str, target_ratio: float, runs: int) -> dict:
    """The best of `runs` builds, with and without content."""
    mkdocs = str(Path(sys.executable).with_name("mkdocs"))
    site, floor_site = project / "site", project / "site-floor"
    build_s, memory = min(run([mkdocs, "build", "-q", "-d", str(site)], project) for _ in range(runs))
    floor_s, floor_memory = min(run([mkdocs, "build", "-q", "-d", str(floor_site)], project, DI_FLOOR="1")
                                for _ in range(runs))
    check_s, _ = run([sys.executable, "-m", "macros", "--data", str(project / "data"), "check"], project,
                     PYTHONPATH=str(project))
    compare = next((site / "compare").glob("*-vs-*/index.html"))
    return {
        "label": label, "build": build_s, "floor": floor_s, "ratio": build_s / floor_s, "target": target_ratio,
        "memory": memory, "floor_memory": floor_memory, "check": check_s,
        "matrix_kb": (site / "matrix/index.html").stat().st_size / 1024,
        "compare_kb": compare.stat().st_size / 1024,
        "search_kb": (site / "search/search_index.json").stat().st_size / 1024,
        "pages": sum(1 for _ in site.rglob("index.html")),
    }


def report(row: dict) -> str:
    ok = lambda good: "ok" if good else "MISSED"
    lines = [
        f"== {row['label']} ({row['pages']} pages)",
        f"  build          {row['build']:7.2f} s   peak memory {row['memory']:7.0f} MB",
        f"  floor          {row['floor']:7.2f} s   peak memory {row['floor_memory']:7.0f} MB   (same pages, trivial content)",
        f"  ratio          {row['ratio']:7.2f} x   target <= {row['target']:.0f}x: {ok(row['ratio'] <= row['target'])}",
        f"  matrix page    {row['matrix_kb']:7.0f} KB",
        f"  compare page   {row['compare_kb']:7.0f} KB   (one pair)",
        f"  search index   {row['search_kb']:7.0f} KB",
        f"  make check     {row['check']:7.2f} s",
    ]
    return "\n".join(lines)


def main(engines: int = 50, features: int = 300) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        real = measure(copy_project(Path(tmp) / "real"), "this site", 2, runs=3)
        print(report(real))
        print(f"  matrix target  < 300 KB: {'ok' if real['matrix_kb'] < 300 else 'MISSED'}", flush=True)
        generated = copy_project(Path(tmp) / "generated")
        for path in [*(generated / "data").glob("*.yml"), *(generated / "data/engines").glob("*.yml")]:
            path.unlink()
        write_catalog(generated / "data", engines=engines, features=features)
        big = measure(generated, f"generated catalog: {engines} engines x {features} features", 3, runs=1)
        print(report(big))
        print(f"  check target   < 2 s: {'ok' if big['check'] < 2 else 'MISSED'}")
    return 0
