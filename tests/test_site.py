"""The built site: generated pages, anchors, matrix cells, guide answers, escaping."""
from __future__ import annotations

import json
import re
from itertools import combinations
from pathlib import Path

import pytest

from conftest import ROOT
from macros.catalog import build_catalog, read_catalog
from macros import guide as guide_logic, render
from sitebuild import build, copy_project


@pytest.fixture(scope="session")
def catalog():
    return build_catalog(ROOT / "data")


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    site_dir = tmp_path_factory.mktemp("site")
    result = build(ROOT, site_dir)
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    return site_dir


def page(site: Path, url: str) -> str:
    return (site / url / "index.html").read_text(encoding="utf-8")


def ids(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', html))


def test_matrix_has_one_cell_per_engine_and_feature_with_its_status(site, catalog):
    html = page(site, "matrix")
    cells = re.findall(r'<td id="([a-z0-9-]+)--([a-z0-9-]+)" data-engine="([a-z0-9-]+)" data-status="([a-z-]+)"', html)
    found = {(f, e): s for f, e, engine, s in cells}
    assert len(cells) == len(found) == len(catalog.features) * len(catalog.engines)
    for engine in catalog.engines.values():
        for fid, statement in engine.support.items():
            assert found[(fid, engine.id)] == statement.status


def test_every_feature_row_has_its_id_on_matrix_comparisons_and_feature_page(site, catalog):
    pages = [page(site, "matrix")] + [page(site, f"compare/{a.id}-vs-{b.id}") for a, b in catalog.pairs()]
    for html in pages:
        assert set(catalog.features) <= ids(html)
    for fid in catalog.features:
        assert fid in ids(page(site, f"features/{fid}"))


def test_a_comparison_page_for_each_pair(site, catalog):
    engines = sorted(catalog.engines)
    assert len(catalog.pairs()) == len(list(combinations(engines, 2)))
    for a, b in combinations(engines, 2):
        assert (site / "compare" / f"{a}-vs-{b}" / "index.html").is_file()


def test_engine_pages_list_every_statement(site, catalog):
    for engine in catalog.engines.values():
        html = page(site, f"engines/{engine.id}")
        assert set(catalog.features) <= ids(html)
        assert engine.repository in html


def test_no_template_syntax_leaks(site):
    for path in site.rglob("*"):
        if path.suffix in (".html", ".json", ".xml"):
            text = path.read_text(encoding="utf-8")
            assert "{{" not in text and "{%" not in text, path


def test_guide_embeds_the_verdicts_of_the_data(site, catalog):
    html = page(site, "guide")
    embedded = re.search(r'<script type="application/json" id="di-guide-data">(.*?)</script>', html, re.S)[1]
    assert json.loads(embedded) == json.loads(json.dumps(render.guide_data(catalog)))


# What the data implies for sets of needs (see data/engines/*.yml and data/guide.yml).
GUIDE_CASES = [
    ((), ["deepinfer", "vllm"]),
    (("http-endpoint",), ["vllm"]),
    (("amd-gpus",), ["vllm"]),
    (("reproducible-outputs",), ["deepinfer"]),
    (("v41-flash-on-sm100-or-ascend",), ["deepinfer"]),
    (("ascend-950",), ["deepinfer"]),
    (("quantized-checkpoints",), ["vllm"]),
    (("many-model-families",), ["vllm"]),
    (("disaggregation",), ["vllm"]),
    (("http-endpoint", "reproducible-outputs"), []),
    (("amd-gpus", "quantized-checkpoints", "many-model-families"), ["vllm"]),
]


@pytest.mark.parametrize("needs,expected", GUIDE_CASES, ids=lambda v: ",".join(v) if isinstance(v, tuple) else None)
def test_guide_answers(catalog, needs, expected):
    assert guide_logic.fitting_engines(catalog, needs) == expected


def test_guide_says_what_deepinfer_leaves_to_the_team(catalog):
    gaps = {gap.feature for gap, _ in guide_logic.build_yourself(catalog)["deepinfer"]}
    assert {"openai-server", "kv-cache-management", "disaggregated-prefill-decode", "replica-load-balancing"} <= gaps


def test_text_from_the_data_is_escaped():
    catalog, _ = read_catalog(ROOT / "data")  # unchecked: the no_raw_html rule would refuse this
    statement = catalog.engines["vllm"].support["grpc"]
    statement.detail = 'Hello <script>alert("x")</script> and <img src=x onerror=alert(1)>'
    catalog.engines["vllm"].summary = "<b>bold</b>"
    html = render.compare(catalog, "compare/deepinfer-vs-vllm/", "deepinfer", "vllm")
    html += render.engine_page(catalog, "engines/vllm/", "vllm")
    assert "<script>alert" not in html and "<img src=x" not in html and "<b>bold" not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html


def test_links_are_relative_to_the_page(catalog):
    html = render.matrix(catalog, "matrix/")
    assert 'href="../features/fp8/"' in html
    html = render.compare(catalog, "compare/deepinfer-vs-vllm/", "deepinfer", "vllm")
    assert 'href="../../features/fp8/"' in html and 'href="../../reference/seed/"' in html


def test_a_third_engine_adds_its_page_column_and_comparisons(tmp_path):
    project = copy_project(tmp_path / "project")
    text = (project / "data/engines/vllm.yml").read_text(encoding="utf-8")
    (project / "data/engines/gamma.yml").write_text(text.replace("id: vllm", "id: gamma").replace("name: vLLM", "name: Gamma"),
                                                   encoding="utf-8")
    docs_before = sorted(p.relative_to(project) for p in (project / "docs").rglob("*"))
    result = build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    site = tmp_path / "site"
    assert "Gamma" in page(site, "engines/gamma")
    assert 'id="col-gamma"' in page(site, "matrix")
    for pair in ("deepinfer-vs-gamma", "gamma-vs-vllm", "deepinfer-vs-vllm"):
        assert (site / "compare" / pair / "index.html").is_file()
    assert sorted(p.relative_to(project) for p in (project / "docs").rglob("*")) == docs_before


def test_an_undefined_name_in_a_page_fails_the_build_naming_the_page(tmp_path):
    project = copy_project(tmp_path / "project")
    (project / "docs" / "broken-page.md").write_text("# Broken\n\n{{ no_such_macro }}\n", encoding="utf-8")
    result = build(project, tmp_path / "site")
    assert result.returncode != 0
    assert "broken-page.md" in result.stderr and "no_such_macro" in result.stderr


def test_bad_data_stops_the_build_with_the_check_messages(tmp_path):
    project = copy_project(tmp_path / "project")
    path = project / "data/engines/vllm.yml"
    path.write_text(path.read_text(encoding="utf-8").replace("status: experimental", "status: no", 1), encoding="utf-8")
    result = build(project, tmp_path / "site")
    assert result.returncode != 0
    assert re.search(r"data/engines/vllm\.yml:\d+:\d+: 'no' is read as a yes/no boolean", result.stderr)
    assert "Traceback" not in result.stderr
