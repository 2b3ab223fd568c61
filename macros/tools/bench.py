"""`make bench`: what a build costs and how it grows. Not a test: figures for a human, with the
target beside each and ok/MISSED.

- this site: build time against its floor (the same pages and config with trivial content);
- generated catalogs of 8x80, 20x150 and 50x300 (engines x features): build time, pages, total
  size, and the same build with trivial content. Growth is judged on the trivial-content time
  per page after subtracting the start-up (the same build without the pages made from data:
  loading and checking the data, the hand-written pages): at 50x300 at most 1.5x that at 8x80,
  so the build stays linear in pages;
- byte budgets at 50x300: the matrix, one comparison, the search index, the whole site;
- `make check` on the real data and, cold, on 50x300.
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
SIZES = [(8, 80), (20, 150), (50, 300)]
MB, KB = 1024 * 1024, 1024
TARGETS = {"growth": 1.5, "site_mb": 150, "matrix_mb": 3, "compare_kb": 400, "search_mb": 3, "check_real": 1.0,
           "check_big": 2.0}


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


def generated_project(target: Path, engines: int, features: int) -> Path:
    project = copy_project(target)
    for path in [*(project / "data").glob("*.yml"), *(project / "data/engines").glob("*.yml")]:
        path.unlink()
    write_catalog(project / "data", engines=engines, features=features)
    return project


def run(command: list[str], cwd: Path, **env) -> float:
    """Seconds one command takes; exits with its error output when it fails."""
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true", **env}
    # error output goes to a file: a pipe could fill up while we wait, and hang both
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        status = subprocess.call(command, cwd=cwd, env=environment, stdout=subprocess.DEVNULL, stderr=errors)
        seconds = time.perf_counter() - start
        if status != 0:
            errors.seek(0)
            raise SystemExit(f"failed: {' '.join(command)}\n{errors.read().decode()[-2000:]}")
    return seconds


FLOOR_CONFIG = """# The benchmark's floor: the site's config, with macros/tools/floor_hooks.py after its hooks.
INHERIT: mkdocs.yml
hooks:
  - macros/site/hooks.py
  - macros/tools/floor_hooks.py
extra:
  floor: {mode}
"""


def floor_config(project: Path, mode: str) -> Path:
    """A config file in the project copy that builds the floor (`trivial` or `startup`)."""
    path = project / f"mkdocs.floor-{mode}.yml"
    path.write_text(FLOOR_CONFIG.format(mode=mode), encoding="utf-8")
    return path


def build(project: Path, site: Path, floor: str = "", runs: int = 1) -> float:
    """Seconds of a build: full content; `floor="trivial"` trivial content; `floor="startup"` trivial
    content and none of the pages made from data (the start-up, for that catalog)."""
    mkdocs = str(Path(sys.executable).with_name("mkdocs"))
    config = ["-f", str(floor_config(project, floor))] if floor else []
    return min(run([mkdocs, "build", "-q", *config, "-d", str(site)], project) for _ in range(runs))


def size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def pages(site: Path) -> int:
    """Pages MkDocs built: not the small pages that send an address elsewhere."""
    return sum(1 for p in site.rglob("index.html") if b"http-equiv=\"refresh\"" not in p.read_bytes()[:1500])


def check_time(project: Path) -> float:
    return run([sys.executable, "-m", "macros", "--data", str(project / "data"), "check"], project, PYTHONPATH=str(project))


def ok(good: bool) -> str:
    return "ok" if good else "MISSED"


def main(engines: int = 50, features: int = 300) -> int:
    sizes = [s for s in SIZES if s[0] <= engines] or [(engines, features)]
    if sizes[-1] != (engines, features):
        sizes.append((engines, features))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        real = copy_project(tmp / "real")
        real_build, real_floor = build(real, tmp / "real-site", runs=3), build(real, tmp / "real-floor", floor="trivial", runs=3)
        real_check = min(check_time(real) for _ in range(3))
        print(f"== this site ({pages(tmp / 'real-site')} pages, {size(tmp / 'real-site') / MB:.1f} MB)")
        print(f"  build {real_build:6.2f} s, floor {real_floor:6.2f} s (same pages, trivial content, no downloads "
              f"or badges): content costs {real_build / real_floor:4.2f}x the floor")
        print(f"  make check {real_check:5.2f} s, target < {TARGETS['check_real']} s: {ok(real_check < TARGETS['check_real'])}",
              flush=True)

        rows = []
        for n_engines, n_features in sizes:
            project = generated_project(tmp / f"g{n_engines}", n_engines, n_features)
            site, floor_site = tmp / f"g{n_engines}-site", tmp / f"g{n_engines}-floor"
            check = check_time(project)  # cold: the first run on these files
            full = build(project, site)
            floor = build(project, floor_site, floor="trivial", runs=2)
            startup = build(project, tmp / f"g{n_engines}-startup", floor="startup", runs=2)
            n_pages, startup_pages = pages(site), pages(tmp / f"g{n_engines}-startup")
            per_page = (floor - startup) / max(1, n_pages - startup_pages)
            rows.append((n_engines, n_features, full, floor, n_pages, size(site), per_page, check, site))
            print(f"== generated {n_engines} engines x {n_features} features: {n_pages} pages, "
                  f"{size(site) / MB:.1f} MB; build {full:.2f} s; trivial content {floor:.2f} s, of which start-up "
                  f"{startup:.2f} s (loading and checking the data, the {startup_pages} hand-written pages) "
                  f"= {per_page * 1000:.1f} ms per page; make check (cold) {check:.2f} s", flush=True)

        first, last = rows[0], rows[-1]
        growth = last[6] / first[6]
        site = last[8]
        compare = next(p for p in sorted((site / "compare").glob("*-vs-*/index.html")) if p.stat().st_size > 4 * KB)
        matrix, search = site / "matrix/index.html", site / "search/search_index.json"
        label = f"{last[0]}x{last[1]}"
        print(f"== targets at {label}")
        print(f"  per-page time {last[6] * 1000:.1f} ms vs {first[6] * 1000:.1f} ms at {first[0]}x{first[1]}: "
              f"{growth:.2f}x, target <= {TARGETS['growth']}x: {ok(growth <= TARGETS['growth'])}")
        print(f"  whole site    {last[5] / MB:7.1f} MB, target <= {TARGETS['site_mb']} MB: {ok(last[5] / MB <= TARGETS['site_mb'])}")
        print(f"  matrix        {matrix.stat().st_size / MB:7.2f} MB, target <= {TARGETS['matrix_mb']} MB: "
              f"{ok(matrix.stat().st_size / MB <= TARGETS['matrix_mb'])}")
        print(f"  comparison    {compare.stat().st_size / KB:7.0f} KB ({compare.parent.name}), target <= "
              f"{TARGETS['compare_kb']} KB: {ok(compare.stat().st_size / KB <= TARGETS['compare_kb'])}")
        parts = site / "compare" / "parts"
        pair_file = next(iter(sorted(parts.glob("*-vs-*.json"))), None) if parts.is_dir() else None
        if pair_file is not None:
            a, b = pair_file.stem.split("-vs-")
            drawn = sum((parts / f"{name}.json").stat().st_size for name in (pair_file.stem, a, b))
            print(f"  a pair drawn in the browser downloads {drawn / KB:.0f} KB ({pair_file.stem}: its own file "
                  f"and its two engines'), target <= {TARGETS['compare_kb']} KB: {ok(drawn / KB <= TARGETS['compare_kb'])}")
        print(f"  search index  {search.stat().st_size / MB:7.2f} MB, target <= {TARGETS['search_mb']} MB: "
              f"{ok(search.stat().st_size / MB <= TARGETS['search_mb'])}")
        print(f"  make check    {last[7]:7.2f} s cold, target < {TARGETS['check_big']} s: {ok(last[7] < TARGETS['check_big'])}")
    return 0
