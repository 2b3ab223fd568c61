"""Contributing is a data-only change. On a copy of the project, a contributor makes, with edits
under data/ only: a scaffolded engine filled in as they would (gamma), a half-researched engine
(delta, tests/fixtures/half-researched/: a few cells from a new source, the rest `not-researched`)
with that new source, and a feature renamed as CONTRIBUTING.md says. Then `make check` passes (the
not-researched cells are warnings, counted), and so does every test that reads the real data, with
the link registry untouched; `make links`, a maintainer's step after a release, works on the
result. One copy, one build, one run of the tests."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from conftest import FIXTURES, ROOT
from sitebuild import copy_project

HEADER = {  # what the contributor fills in at the top of the scaffold
    'summary: ""': "summary: A third-party engine, added to show that a new engine needs nothing but data.",
    'homepage: ""': "homepage: https://gamma.example.org/docs/",
    'repository: ""': "repository: https://gamma.example.org/code/",
    'license: ""': "license: MIT",
    "official-urls: []": "official-urls: [https://gamma.example.org/]",
    'detail: ""        # one sentence, from the sources: why': "detail: Ships its own kernels.",
}
SOURCE = ("  - id: gamma-docs\n    title: Gamma documentation\n    url: https://gamma.example.org/docs/\n"
          "    publisher: Gamma project\n    kind: docs\n    checked: 2026-11-30\n")
CELL = re.compile(r"^  (?P<feature>[a-z0-9-]+):\n(?P<body>(?:    .*\n)+)", re.M)  # one statement of the scaffold
NOT_RESEARCHED = re.compile(r"^warning: (\d+) × A `not-researched` cell", re.M)


def run(command, cwd, **env):
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true", **env})


def add_source(project: Path, entry: str) -> None:
    sources = project / "data/sources.yml"
    sources.write_text(sources.read_text(encoding="utf-8").replace("sources:\n", "sources:\n" + entry, 1), encoding="utf-8")


def fill_gamma(project: Path) -> None:
    """Every field and cell of the scaffold filled in: nothing documented, and where it was searched."""
    path = project / "data/engines/gamma.yml"
    text = path.read_text(encoding="utf-8")
    for old, new in HEADER.items():
        text = text.replace(old, new)
    text = re.sub(r"^sources: \[\] .*$", "sources: [gamma-docs]", text, flags=re.M)
    text = re.sub(r"^  sources: \[\]$", "  sources: [gamma-docs]", text, flags=re.M)  # the kind's
    text = re.sub(r"^releases: \{\}.*\n", "", text, flags=re.M)  # no release channel of its own
    text = text.replace("    status: not-researched\n", "    status: unknown\n")
    text = text.replace("    sources: []\n", "    sources: [gamma-docs]\n    searched: [https://gamma.example.org/docs/]\n")
    path.write_text(text, encoding="utf-8")
    add_source(project, SOURCE)


def fill_delta(project: Path) -> int:
    """The fixture's fields over the scaffold's, its researched cells over the first ones; returns how many."""
    fixture = yaml.safe_load((FIXTURES / "half-researched/delta.yml").read_text(encoding="utf-8"))
    path = project / "data/engines/delta.yml"
    text = path.read_text(encoding="utf-8")
    start, end = text.index("id: delta\n"), text.index("support:\n")
    text = text[:start] + fixture["top"] + text[end:]
    cells = list(CELL.finditer(text))[: len(fixture["researched"])]
    for cell, body in reversed(list(zip(cells, fixture["researched"], strict=True))):
        indented = "".join(f"    {line}\n" for line in body.splitlines())
        text = text[:cell.start("body")] + indented + text[cell.end("body"):]
    path.write_text(text, encoding="utf-8")
    add_source(project, "".join(f"  {line}\n" for line in fixture["source"].splitlines()))
    return len(cells)


def rename_feature(project: Path, catalog) -> tuple[str, str]:
    """CONTRIBUTING.md's steps for a feature the guide and the article's claims name; returns (old, new)."""
    named = [r.feature for n in catalog.needs for r in n.requires]
    carried = {c.feature for claim in catalog.seed_claims for c in claim.carried_by}
    old = next(f for f in named if f in carried and not catalog.features[f].former_ids)
    new = f"{old}-renamed"
    features = project / "data/features.yml"
    features.write_text(features.read_text(encoding="utf-8").replace(
        f"      - id: {old}\n", f"      - id: {new}\n        former-ids: [{old}]\n"), encoding="utf-8")
    for path in (project / "data/engines").glob("*.yml"):
        path.write_text(path.read_text(encoding="utf-8").replace(f"\n  {old}:\n", f"\n  {new}:\n"), encoding="utf-8")
    for name in ("guide.yml", "seed-claims.yml"):
        path = project / "data" / name
        path.write_text(re.sub(rf"\b(feature|server|library): {old}\b(?!-)", rf"\1: {new}",
                               path.read_text(encoding="utf-8")), encoding="utf-8")
    return old, new


def test_contributions_in_data_alone_pass_check_and_the_data_tests(tmp_path):
    from macros.data.catalog import build_catalog

    project = copy_project(tmp_path / "project")
    for part in ("tests", "pytest.ini"):
        source = ROOT / part
        (shutil.copytree(source, project / part, ignore=shutil.ignore_patterns("node_modules", "__pycache__"))
         if source.is_dir() else shutil.copy2(source, project / part))
    registry = (project / "tests/promised-links.txt").read_text(encoding="utf-8")
    python = [sys.executable, "-m", "macros"]
    before = NOT_RESEARCHED.search(run([*python, "check"], project).stdout)
    for engine, name in (("gamma", "Gamma"), ("delta", "Delta")):
        assert run([*python, "new-engine", "--id", engine, "--name", name], project).returncode == 0
    fill_gamma(project)
    researched = fill_delta(project)
    old, new = rename_feature(project, build_catalog(ROOT / "data"))

    check = run([*python, "check"], project)
    assert check.returncode == 0 and check.stderr == "", check.stdout + check.stderr
    catalog = build_catalog(project / "data")
    assert {"gamma", "delta"} <= set(catalog.engines) and "delta-docs-install" in catalog.sources
    assert catalog.features[new].former_ids == [old]
    delta = [s.status for s in catalog.engines["delta"].support.values()]
    assert researched and "not-researched" not in delta[:researched] and set(delta[researched:]) == {"not-researched"}
    # the not-researched cells are warnings, counted: delta's, and none of gamma's
    assert int(NOT_RESEARCHED.search(check.stdout)[1]) == len(delta) - researched + (int(before[1]) if before else 0)
    assert "data/engines/gamma.yml" not in check.stdout

    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "Add Gamma and Delta"]):  # a history, as a clone has
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=project, check=True)
    mkdocs = str(Path(sys.executable).with_name("mkdocs"))
    built = run([mkdocs, "build", "--strict", "-q", "-d", "site"], project)
    assert built.returncode == 0 and "WARNING" not in built.stderr, built.stderr
    tests = run([sys.executable, "-m", "pytest", "-q", "-m", "data", "-p", "no:cacheprovider", "-x"], project,
                BROWSER="0", XDG_CACHE_HOME=str(tmp_path / "cache"), DI_SITE=str(project / "site"))
    assert tests.returncode == 0, tests.stdout[-3000:]
    assert re.search(r"\d+ passed", tests.stdout)
    assert (project / "tests/promised-links.txt").read_text(encoding="utf-8") == registry  # no edit under tests/
    assert f"/features/{old}/" in registry  # ... and the renamed feature's old page is among its promises

    links = run([*python, "links", "--site", "site"], project)  # after a release, a maintainer promises the new pages
    assert links.returncode == 0, links.stderr
    assert "/engines/delta/" in (project / "tests/promised-links.txt").read_text(encoding="utf-8").splitlines()
