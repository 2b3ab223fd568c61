"""Adding an engine is a data-only change: `make new-engine`, then filling the file, is the whole
job. On a copy of the project, a scaffolded engine filled in as a contributor would passes
`make check`, `make links` and every test that reads the real data, with no other edit."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT
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


def run(command, cwd, **env):
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true", **env})


def test_a_scaffolded_and_filled_engine_passes_check_links_and_the_data_tests(tmp_path):
    project = copy_project(tmp_path / "project")
    for part in ("tests", "pytest.ini"):
        source = ROOT / part
        (shutil.copytree(source, project / part, ignore=shutil.ignore_patterns("node_modules", "__pycache__"))
         if source.is_dir() else shutil.copy2(source, project / part))
    python = [sys.executable, "-m", "macros"]
    assert run([*python, "new-engine", "--id", "gamma", "--name", "Gamma"], project).returncode == 0

    path = project / "data/engines/gamma.yml"
    text = path.read_text(encoding="utf-8")
    for old, new in HEADER.items():
        text = text.replace(old, new)
    text = re.sub(r"^sources: \[\] .*$", "sources: [gamma-docs]", text, flags=re.M)
    text = re.sub(r"^  sources: \[\]$", "  sources: [gamma-docs]", text, flags=re.M)  # the kind's
    text = re.sub(r"^releases: \{\}.*\n", "", text, flags=re.M)  # no release channel of its own
    # research done: nothing documented, and the file says where it was searched
    text = text.replace("    status: not-researched\n", "    status: unknown\n")
    text = text.replace("    sources: []\n", "    sources: [gamma-docs]\n    searched: [https://gamma.example.org/docs/]\n")
    path.write_text(text, encoding="utf-8")
    sources = project / "data/sources.yml"
    sources.write_text(sources.read_text(encoding="utf-8").replace("sources:\n", "sources:\n" + SOURCE, 1), encoding="utf-8")

    check = run([*python, "check"], project)
    # passes, and the new engine adds no warning of its own (the data may have others)
    assert check.returncode == 0 and "engines/gamma.yml" not in check.stdout, check.stdout + check.stderr
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "Add Gamma"]):  # a history, as a clone has
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=project, check=True)
    mkdocs = str(Path(sys.executable).with_name("mkdocs"))
    assert run([mkdocs, "build", "--strict", "-q", "-d", "site"], project).returncode == 0
    assert run([*python, "links", "--site", "site"], project).returncode == 0
    tests = run([sys.executable, "-m", "pytest", "-q", "-m", "data", "-p", "no:cacheprovider", "-x"], project,
                BROWSER="0", XDG_CACHE_HOME=str(tmp_path / "cache"), DI_SITE=str(project / "site"))
    assert tests.returncode == 0, tests.stdout[-3000:]
    assert re.search(r"\d+ passed", tests.stdout)
