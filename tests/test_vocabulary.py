"""The status vocabulary is defined once (data/schema/status.schema.json): a status added there,
as one entry, shows in every view with its label, symbol and strength, with no other file edited."""
from __future__ import annotations

import json
import re

import pytest

from conftest import ROOT, git, run_macros
from sitebuild import build, small_project

PREVIEW = {"const": "preview", "title": "Preview", "description": "Offered as a preview: it may change before it is final.",
           "x-icon": "eye", "x-symbol": "\u2609", "x-rank": 6, "x-strength": "beta",
           "x-colour": {"light": "#7a3e00", "dark": "#ffb870"}, "x-short-of": "only a preview"}


def add_preview(project):
    """The one entry, in the project's own vocabulary; one cell of the first engine takes it."""
    path = project / "data/schema/status.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    schema["oneOf"].insert(5, PREVIEW)
    path.write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def set_status(project, engine: str, feature: str, status: str) -> None:
    path = project / f"data/engines/{engine}.yml"
    text = path.read_text(encoding="utf-8")
    start = text.index(f"  {feature}:\n")
    end = text.index("    checked:", start)
    block = re.sub(r"    status: [a-z-]+\n", f"    status: {status}\n", text[start:end], count=1)
    block = re.sub(r"    (basis|searched): .*\n", "", block)
    path.write_text(text[:start] + block + text[end:], encoding="utf-8")


def test_a_status_added_to_the_vocabulary_shows_everywhere_with_its_label_symbol_and_strength(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    project = small_project(tmp_path / "project")
    (project / "data/features.yml").write_text(
        (project / "data/features.yml").read_text(encoding="utf-8").replace(
            "    description: Generated category 1.\n", "    description: Generated category 1.\n    grid: true\n", 1),
        encoding="utf-8")
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "before")
    add_preview(project)
    set_status(project, "deepinfer", "feature-001", "preview")  # need-00 accepts supported and partial only
    guide = project / "data/guide.yml"
    guide.write_text(guide.read_text(encoding="utf-8").replace(
        "      - feature: feature-002\n        statuses: [supported, partial]",
        "      - feature: feature-002\n        statuses: [supported, partial, preview]"), encoding="utf-8")
    set_status(project, "vllm", "feature-002", "preview")

    check = run_macros("check", cwd=project, data=project / "data")
    assert check.returncode == 0, check.stderr
    site = tmp_path / "site"
    result = build(project, site)
    assert result.returncode == 0, result.stderr

    # the styles: its colour in both schemes and its symbol, from the one entry
    css = (site / "assets/statuses.css").read_text(encoding="utf-8")
    assert "--di-preview: #7a3e00;" in css and "--di-preview: #ffb870;" in css and "\\002609" in css
    # the matrix: the cell, its label, its place in the sort order
    matrix = (site / "matrix/index.html").read_text(encoding="utf-8")
    assert re.search(r'<td id="feature-001--deepinfer" data-status="preview"[^>]*>.*?>Preview</a>', matrix, re.S)
    assert '&#34;preview&#34;: 6' in matrix or '"preview": 6' in matrix
    # a comparison: the badge, and the row differs from the other engine's status
    compare = (site / "compare/deepinfer-vs-vllm/index.html").read_text(encoding="utf-8")
    assert '<b class="di-st--preview">Preview</b>' in compare
    # the guide: a need that accepts it puts the engine in the tier of its strength (beta: fits with limits);
    # a need that does not says how it falls short, in the entry's words
    data = json.loads(re.search(r'<script type="application/json" id="di-guide-data">(.*?)</script>',
                                (site / "guide/index.html").read_text(encoding="utf-8"), re.S)[1])
    assert data["verdicts"]["need-01"]["vllm"]["tier"] == "limits"
    assert data["verdicts"]["need-00"]["deepinfer"]["checks"][0][5] == "only a preview"
    assert data["statuses"]["preview"] == "Preview"
    # the home grid: the symbol's class, and the strength's word
    home = (site / "index.html").read_text(encoding="utf-8")
    assert 'di-st--preview"></span>Experimental</a>' in home
    # a badge: symbol, label and colour
    badge = (site / "badges/deepinfer/feature-001.svg").read_text(encoding="utf-8")
    assert "\u2609 Preview" in badge and 'fill="#7a3e00"' in badge
    # the diff: label and symbol, and the move in strength
    diff = run_macros("diff", "HEAD", cwd=project, data=project / "data")
    assert diff.returncode == 0, diff.stderr
    assert "\u2609 Preview" in diff.stdout and "-> beta" in diff.stdout


def test_a_status_naming_a_strength_that_does_not_exist_is_one_clear_error(tmp_path):
    project = small_project(tmp_path / "project")
    PREVIEW["x-strength"] = "betta"
    try:
        add_preview(project)
    finally:
        PREVIEW["x-strength"] = "beta"
    check = run_macros("check", cwd=project, data=project / "data")
    assert check.returncode == 1 and "Traceback" not in check.stderr
    assert "status 'preview' names strength 'betta', which x-strengths does not define" in check.stderr


@pytest.mark.parametrize("module", ["macros/site/verdict.py", "macros/site/guide.py", "macros/site/views.py", "macros/site/render.py",
                                    *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "macros/site/renderers").glob("*.py")),
                                    "macros/data/changes.py", "macros/site/outputs/badges.py",
                                    "docs/assets/site.js", "docs/assets/site.css"])
def test_no_module_or_asset_names_a_status(module):
    """Meaning lives in the vocabulary: views name strengths, never statuses."""
    statuses = [s["const"] for s in json.loads((ROOT / "data/schema/status.schema.json").read_text())["oneOf"]]
    text = (ROOT / module).read_text(encoding="utf-8")
    named = [s for s in statuses if re.search(rf'["\'](?:di-st--)?{re.escape(s)}["\']', text)]
    assert named == [], f"{module} names {named}"
