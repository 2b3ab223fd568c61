"""`make bench`: what a build costs and how it grows, and how long the loop of an edit takes. Not a
test: figures for a human, with the target beside each and ok/MISSED.

- this site: build time against its floor (the same pages and config with trivial content), at most
  1.5x: the median ratio of five pairs, each a build and its floor run one after the other;
- `make serve` on this site: the time from a data edit to the edited page served, at most 2 s;
- generated catalogs of 8x80, 20x150 and 50x300 (engines x features): build time, pages, total
  size, and the same build with trivial content. Growth is judged on the trivial-content time
  per page after subtracting the start-up (the same build without the pages made from data:
  loading and checking the data, the hand-written pages): at 50x300 at most 1.5x that at 8x80,
  so the build stays linear in pages;
- byte budgets at 50x300: the matrix, one comparison, the search index, the whole site;
- `make check` on the real data and, cold, on 50x300;
- `make test`, warm (set up already), at most 75 s on 2 cores of an otherwise idle machine: the load
  before and after is printed beside it. `--no-tests` leaves it out.
"""
from __future__ import annotations

import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from macros.data.catalog import ROOT
from macros.tools.synthetic import write_catalog

PROJECT_PARTS = ("mkdocs.yml", "docs", "data", "macros")
SIZES = [(8, 80), (20, 150), (50, 300)]
MB, KB = 1024 * 1024, 1024
TARGETS = {"growth": 1.5, "site_mb": 150, "matrix_mb": 3, "compare_kb": 400, "search_mb": 3, "check_real": 1.0,
           "check_big": 2.0, "ratio": 1.5, "serve_s": 2.0, "tests_s": 75}
SERVE_EDITS = 3  # data edits timed under `mkdocs serve`; the median is judged
RATIO_PAIRS = 5  # builds of this site and of its floor, in turn; the median of their ratios is judged


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


def pair_ratios(pairs: list[tuple[float, float]]) -> list[float]:
    return [build / floor for build, floor in pairs]


def paired_ratio(pairs: list[tuple[float, float]]) -> float:
    """The median of each pair's ratio: a build and its floor run one after the other, so a machine
    whose speed drifts (other work starting or stopping) moves both of a pair alike, where the best
    of three of each, taken minutes apart, could compare a slow moment with a quick one."""
    return statistics.median(pair_ratios(pairs))


def ok(good: bool) -> str:
    return "ok" if good else "MISSED"


def per_page_growth(first: float, last: float) -> float | None:
    """How many times the per-page cost of the smallest generated catalog the largest one's is, or None
    when either is not a cost: on a busy machine the start-up alone can take longer than the whole
    trivial build it is subtracted from, and a ratio of such figures would pass any target."""
    return last / first if first > 0 and last > 0 else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _get(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            return answer.read().decode("utf-8", "replace")
    except OSError:
        return None


def _cpu_seconds(pid: int) -> float | None:
    """The CPU time a process has used so far (Linux), to tell a slow rebuild from a busy machine."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def with_marker(text: str, marker: str) -> str:
    """An engine file whose summary starts with `marker`: a data edit that shows on the engine's page."""
    def edit(match):
        quote = match[2][:1] if match[2][:1] in ("'", '"') else ""
        return f"{match[1]}{quote}{marker} {match[2][len(quote):]}"
    edited, count = re.subn(r"(?m)^(summary: )(.*)$", edit, text, count=1)
    if not count:
        raise SystemExit("bench: the engine file has no `summary:` line to edit")
    return edited


def serve_reload(project: Path, edits: int = SERVE_EDITS, timeout: float = 180) -> list[tuple[float, float | None]]:
    """(seconds, server CPU seconds) from a data edit to its page served by `mkdocs serve`, per edit:
    the engine's summary changes, and the engine page is fetched until it shows the change (the
    server holds a request while it rebuilds). The wait includes MkDocs noticing the edit (it looks
    every half second)."""
    mkdocs = str(Path(sys.executable).with_name("mkdocs"))
    engine = sorted((project / "data/engines").glob("*.yml"))[-1]
    port = _free_port()
    url = f"http://127.0.0.1:{port}/engines/{engine.stem}/"
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"}
    times = []
    original = engine.read_text(encoding="utf-8")
    run_id = f"{time.time_ns():x}"  # in each marker: one left in the file by a stopped run never shows a new edit
    with tempfile.TemporaryFile() as log:
        server = subprocess.Popen([mkdocs, "serve", "-a", f"127.0.0.1:{port}"], cwd=project, env=environment,
                                  stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.perf_counter() + timeout
            while _get(url) is None:
                if server.poll() is not None or time.perf_counter() > deadline:
                    log.seek(0)
                    raise SystemExit(f"bench: mkdocs serve did not serve {url}\n{log.read().decode()[-2000:]}")
                time.sleep(0.2)
            for number in range(edits):
                time.sleep(1.5)  # the watcher has taken its first look, and the last rebuild is over
                marker = f"Bench edit {number} of {run_id}."
                cpu = _cpu_seconds(server.pid)
                engine.write_text(with_marker(original, marker), encoding="utf-8")
                start = time.perf_counter()
                while marker not in (_get(url) or ""):
                    if server.poll() is not None or time.perf_counter() > start + timeout:
                        log.seek(0)
                        raise SystemExit(f"bench: the edit never showed under mkdocs serve\n{log.read().decode()[-2000:]}")
                    time.sleep(0.05)
                seconds = time.perf_counter() - start
                after = _cpu_seconds(server.pid)
                times.append((seconds, after - cpu if cpu is not None and after is not None else None))
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            # as it was: a second measure on the same copy would otherwise find its last edit made already
            engine.write_text(original, encoding="utf-8")
    return times


def _load() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "unknown"


def test_time() -> tuple[float, str, str] | None:
    """Seconds of `make test` in this checkout (warm: set up already), its summary line, and the load
    average before and after; None where make is missing."""
    if shutil.which("make") is None:
        return None
    before = _load()
    with tempfile.TemporaryFile() as output:
        start = time.perf_counter()
        status = subprocess.call(["make", "-s", "test"], cwd=ROOT, stdout=output, stderr=subprocess.STDOUT)
        seconds = time.perf_counter() - start
        output.seek(0)
        text = output.read().decode("utf-8", "replace")
    if status != 0:
        raise SystemExit(f"bench: make test failed\n{text[-3000:]}")
    summary = next((line.strip("= ") for line in reversed(text.splitlines()) if re.search(r"\d+ passed", line)), "")
    return seconds, summary, f"load {before} before, {_load()} after"


def main(engines: int = 50, features: int = 300, tests: bool = True) -> int:
    sizes = [s for s in SIZES if s[0] <= engines] or [(engines, features)]
    if sizes[-1] != (engines, features):
        sizes.append((engines, features))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        real = copy_project(tmp / "real")
        build(real, tmp / "real-site")  # a first build, not timed: the file system's caches are warm for all
        timed = [(build(real, tmp / "real-site"), build(real, tmp / "real-floor", floor="trivial"))
                 for _ in range(RATIO_PAIRS)]
        real_build, real_floor = (statistics.median(times) for times in zip(*timed, strict=True))
        real_check = min(check_time(real) for _ in range(3))
        ratio = paired_ratio(timed)
        spread = pair_ratios(timed)  # printed beside the median: how far the machine's drift moved each pair
        print(f"== this site ({pages(tmp / 'real-site')} pages, {size(tmp / 'real-site') / MB:.1f} MB)")
        print(f"  build {real_build:6.2f} s, floor {real_floor:6.2f} s (medians; the floor: same pages, trivial content, "
              f"no downloads or badges): {ratio:4.2f}x the floor (median of {RATIO_PAIRS} pairs run in turn, "
              f"{min(spread):.2f}x to {max(spread):.2f}x), "
              f"target <= {TARGETS['ratio']}x: {ok(ratio <= TARGETS['ratio'])}")
        print(f"  make check {real_check:5.2f} s, target < {TARGETS['check_real']} s: {ok(real_check < TARGETS['check_real'])}",
              flush=True)
        reloads = serve_reload(copy_project(tmp / "serve"))
        median = statistics.median(seconds for seconds, _ in reloads)
        each = ", ".join(f"{seconds:.2f} s" + (f" ({cpu:.2f} s CPU)" if cpu is not None else "") for seconds, cpu in reloads)
        print(f"  make serve: a data edit shows in {median:5.2f} s (median of {len(reloads)}: {each}), target <= "
              f"{TARGETS['serve_s']} s: {ok(median <= TARGETS['serve_s'])}", flush=True)

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
        growth = per_page_growth(first[6], last[6])
        site = last[8]
        compare = next(p for p in sorted((site / "compare").glob("*-vs-*/index.html")) if p.stat().st_size > 4 * KB)
        matrix, search = site / "matrix/index.html", site / "search/search_index.json"
        label = f"{last[0]}x{last[1]}"
        print(f"== targets at {label}")
        verdict = (f"{growth:.2f}x, target <= {TARGETS['growth']}x: {ok(growth <= TARGETS['growth'])}" if growth is not None
                   else "NOT MEASURED (the start-up took as long as a whole trivial build: the machine was busy; run again)")
        print(f"  per-page time {last[6] * 1000:.1f} ms vs {first[6] * 1000:.1f} ms at {first[0]}x{first[1]}: {verdict}")
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
        print(f"  make check    {last[7]:7.2f} s cold, target < {TARGETS['check_big']} s: {ok(last[7] < TARGETS['check_big'])}",
              flush=True)
    if tests:
        timed = test_time()
        if timed is None:
            print("== make test: not measured (no make)")
        else:
            seconds, summary, load = timed
            print(f"== make test (warm, {os.cpu_count()} cores, {load}): {seconds:.0f} s, {summary}; target <= "
                  f"{TARGETS['tests_s']} s on 2 idle cores: {ok(seconds <= TARGETS['tests_s'])}")
    return 0
