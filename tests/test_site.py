"""The built site: generated pages, anchors, matrix cells, guide answers, escaping."""
from __future__ import annotations

import json
import re
from itertools import combinations
from pathlib import Path

import pytest

from conftest import ROOT, TODAY, as_build, first_rendered_pair, git
from macros.data.catalog import read_catalog
from macros.site import guide as guide_logic, render
from sitebuild import build, copy_project, differing_files, small_project


def page(site: Path, url: str) -> str:
    return (site / url / "index.html").read_text(encoding="utf-8")


def ids(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', html))


def test_matrix_has_one_cell_per_engine_and_feature_with_its_status(site, catalog):
    html = page(site, "matrix")
    cells = re.findall(r'<td id="([a-z0-9-]+)--([a-z0-9-]+)" data-status="([a-z-]+)"', html)
    found = {(f, e): s for f, e, s in cells}
    assert len(cells) == len(found) == len(catalog.features) * len(catalog.engines)
    for engine in catalog.engines.values():
        for fid, statement in engine.support.items():
            assert found[(fid, engine.id)] == statement.status


def test_every_feature_row_has_its_id_on_matrix_comparisons_and_feature_page(site, catalog):
    # the pre-rendered pairs: past the pre-render limit the others are drawn in the browser (test_browser.py)
    pages = [page(site, "matrix")] + [page(site, f"compare/{a.id}-vs-{b.id}") for a, b in render.rendered_pairs(catalog)]
    for html in pages:
        assert set(catalog.features) <= ids(html)
    for fid in catalog.features:
        assert fid in ids(page(site, f"features/{fid}"))


def test_a_comparison_page_for_each_pair(site, catalog):
    engines = sorted(catalog.engines)
    for a, b in combinations(engines, 2):  # every pair, counted here rather than by Catalog.pairs
        assert (site / "compare" / f"{a}-vs-{b}" / "index.html").is_file()


def test_engine_pages_list_every_statement(site, catalog):
    for engine in catalog.engines.values():
        html = page(site, f"engines/{engine.id}")
        assert set(catalog.features) <= ids(html)
        assert engine.repository in html


def test_engine_pages_open_with_the_answer(site, catalog):
    from macros.data.evidence import is_known
    from macros.site.verdict import present

    for engine in catalog.engines.values():
        html = page(site, f"engines/{engine.id}")
        glance, first_category = html.index('id="at-a-glance"'), html.index(f'id="{catalog.categories[0].id}"')
        assert glance < html.index('class="di-facts di-factbox"') < first_category
        documented = sum(is_known(catalog, s) for s in engine.support.values())
        ships = sum(present(catalog, engine.support[g.feature]) for g in catalog.gaps if g.feature in engine.support)
        assert re.search(rf"Documents <strong>{documented}</strong> of {len(catalog.features)} features; "
                         rf"ships <strong>{ships}</strong> of the \d+ pieces", html), engine.id
        answer = html[glance:first_category]
        for other in catalog.engines.values():
            if other.id != engine.id:
                assert f'compare/{"-vs-".join(sorted((engine.id, other.id)))}/' in answer
        if engine.latest_release:
            stable = engine.latest_release.stable
            assert re.search(rf"<dt>Checked</dt><dd>Against {re.escape(stable.version)}", answer), engine.id
        # commit hashes sit behind a disclosure, never in the fact box
        factbox = answer[answer.index('class="di-facts di-factbox"'):]
        factbox = factbox[:factbox.index("</dl>")]
        assert not re.search(r"<code>[0-9a-f]{10}</code>", factbox)
        # each row is the engine's own: its name is the column's header, not repeated on every row
        assert f'data-label="{engine.name}"' not in html


def test_every_page_has_a_skip_link_to_its_content(site):
    pages = [p for p in site.rglob("*.html") if "http-equiv=\"refresh\"" not in p.read_text(encoding="utf-8")]
    assert len(pages) > 100
    for path in pages:
        html = path.read_text(encoding="utf-8")
        links = re.findall(r'<a href="#([^"]+)" class="md-skip">', html)
        assert len(links) == 1, path
        assert links[0] in ids(html), path


def test_the_verdict_names_at_most_five_pieces_to_build_and_links_the_rest(site, catalog):
    from macros.site import verdict

    for a, b in render.rendered_pairs(catalog):
        html = page(site, f"compare/{a.id}-vs-{b.id}")
        lines = re.findall(r'<p class="di-builds">(.*?)</p>', html)
        assert len(lines) == 2
        for engine, line in zip((a, b), lines, strict=True):
            builds = [gap for gap, _, ships in verdict.stack(catalog, engine) if not ships]
            named = re.findall(rf'href="[./]*features/([a-z0-9-]+)/#\1--{engine.id}"', line)
            assert named == [gap.feature for gap in builds][:5]
            more = re.search(rf'guide/#build-yourself-{engine.id}">(\d+) more</a>', line)
            assert (int(more[1]) if more else 0) == max(0, len(builds) - 5)


def test_search_snippets_keep_words_apart(site, catalog):
    """The search index holds readable text: no two names of the data run together, as the cells of a
    table header or the options of a menu do when their markup is stripped."""
    from itertools import permutations

    docs = json.loads((site / "search/search_index.json").read_text(encoding="utf-8"))["docs"]
    names = [e.name for e in catalog.engines.values()] + [s.label for s in catalog.statuses.values()]
    joined = [(doc["location"], a + b) for doc in docs for a, b in permutations(names, 2) if a + b in doc["text"]]
    assert joined == []


def test_no_template_syntax_leaks(site):
    for path in site.rglob("*"):
        if path.suffix in (".html", ".json", ".xml"):
            text = path.read_text(encoding="utf-8")
            assert "{{" not in text and "{%" not in text, path


def test_guide_embeds_the_verdicts_of_the_data(site, catalog):
    html = page(site, "guide")
    embedded = re.search(r'<script type="application/json" id="di-guide-data">(.*?)</script>', html, re.S)[1]
    assert json.loads(embedded) == json.loads(json.dumps(render.guide_data(catalog)))


@pytest.mark.parametrize("match,alpha_tier", [("all", "limits"), ("any", "fits")])
def test_a_need_of_all_takes_its_weakest_check_and_a_need_of_any_its_best(data, match, alpha_tier):
    """Alpha serves HTTP (supported: fits) and caches experimentally (beta: fits with limits); beta has neither."""
    from macros.data.catalog import build_catalog

    data.replace("guide.yml", "build-yourself:\n", f"  - id: both\n    label: Served and cached\n    why: Both.\n"
                 f"    match: {match}\n    requires:\n      - feature: http-server\n        statuses: [supported]\n"
                 "      - feature: prefix-caching\n        statuses: [supported, experimental]\nbuild-yourself:\n")
    catalog = build_catalog(data.path, today=TODAY)
    need = next(n for n in catalog.needs if n.id == "both")
    alpha, beta = guide_logic.judge(catalog, need, "alpha"), guide_logic.judge(catalog, need, "beta")
    assert (alpha.met, alpha.tier) == (True, alpha_tier)
    assert (beta.met, beta.tier) == (False, "no")


def test_the_guide_on_a_fixture(data):
    from macros.data.catalog import build_catalog

    catalog = build_catalog(data.path, today=TODAY)
    assert guide_logic.fitting_engines(catalog, ()) == ["alpha", "beta"]
    assert guide_logic.fitting_engines(catalog, ("http",)) == ["alpha"]
    assert guide_logic.fitting_engines(catalog, ("http", "caching")) == ["alpha"]
    assert {gap.feature for gap, _ in guide_logic.build_yourself(catalog)["beta"]} == {"http-server"}
    assert guide_logic.build_yourself(catalog)["alpha"] == []


def test_text_from_the_data_is_escaped():
    catalog, _ = read_catalog(ROOT / "data")  # unchecked: the no_raw_html rule would refuse this
    a, b = (engine.id for engine in first_rendered_pair(catalog))
    statement = next(iter(catalog.engines[b].support.values()))
    statement.detail = 'Hello <script>alert("x")</script> and <img src=x onerror=alert(1)>'
    catalog.engines[b].summary = "<b>bold</b>"
    html = render.compare(as_build(catalog), f"compare/{a}-vs-{b}/", a, b)
    html += render.engine_page(as_build(catalog), f"engines/{b}/", b)
    assert "<script>alert" not in html and "<img src=x" not in html and "<b>bold" not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html


def test_links_are_relative_to_the_page(catalog):
    feature = next(iter(catalog.features))
    assert f'href="../features/{feature}/"' in render.matrix(as_build(catalog), "matrix/")
    a, b = (engine.id for engine in first_rendered_pair(catalog))
    assert f'href="../../features/{feature}/"' in render.compare(as_build(catalog), f"compare/{a}-vs-{b}/", a, b)


def test_every_id_the_templates_write_is_reserved_from_data_ids():
    """The rules keep data ids off the anchors the templates write themselves: their list must
    name every one, or a data id could take a page's anchor (and the build would refuse it late)."""
    from macros.data.rules import RESERVED_ANCHORS, RESERVED_PREFIXES

    templates = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "macros/site/templates").glob("*.html"))
    literal = set(re.findall(r'\bid="([a-z][a-z-]*)"', templates))
    prefixes = set(re.findall(r'\bid="([a-z][a-z-]*-)\{\{', templates))
    assert literal - RESERVED_ANCHORS - {i for i in literal if i.startswith(RESERVED_PREFIXES)} == set()
    assert {p for p in prefixes if not p.startswith(RESERVED_PREFIXES)} == set()


def test_a_growing_catalog_adds_pages_keeps_addresses_and_draws_pairs_beyond_the_limit(tmp_path):
    """One build of a small catalog that grew: a fourth engine (its page, column and pairs, with
    nothing under docs/ changed), a feature split in two (its old page says what it became), an
    engine renamed, and more engines than the pre-rendered limit (other pairs keep an address that
    draws them, under the renamed engine's old id too)."""
    from macros.data.catalog import build_catalog
    from macros.tools.links import resolves

    project = small_project(tmp_path / "project")  # 3 engines; deepinfer-vs-vllm is featured
    catalog = build_catalog(project / "data")
    base = next(iter(catalog.engines.values()))
    text = (project / f"data/engines/{base.id}.yml").read_text(encoding="utf-8")
    (project / "data/engines/gamma.yml").write_text(text.replace(f"id: {base.id}\n", "id: gamma\n", 1)
                                                   .replace(f"name: {base.name}\n", "name: Gamma\n", 1)
                                                   .replace("featured-comparisons:", "# featured-comparisons:"), encoding="utf-8")
    old_id = next(e for e in catalog.engines.values() if not e.featured and all(e.id not in o.featured
                                                                            for o in catalog.engines.values())).id
    renamed = project / f"data/engines/{old_id}.yml"
    renamed.write_text(renamed.read_text(encoding="utf-8").replace(f"id: {old_id}\n", f"id: {old_id}-renamed\n"
                                                                    f"former-ids: [{old_id}]\n", 1), encoding="utf-8")
    renamed.rename(renamed.with_name(f"{old_id}-renamed.yml"))
    first, second = list(catalog.features)[:2]
    features = project / "data/features.yml"
    features.write_text(features.read_text(encoding="utf-8") + f"retired:\n  - id: old-serving\n    name: Old serving\n"
                        f"    became: [{first}, {second}]\n    why: Engines differ inside it.\n", encoding="utf-8")
    config = project / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace("every_pair_up_to: 12", "every_pair_up_to: 3"), encoding="utf-8")
    docs_before = sorted(p.relative_to(project) for p in (project / "docs").rglob("*"))
    site = tmp_path / "site"
    result = build(project, site)
    assert result.returncode == 0 and "WARNING" not in result.stderr, result.stderr
    assert sorted(p.relative_to(project) for p in (project / "docs").rglob("*")) == docs_before

    assert "Gamma" in page(site, "engines/gamma") and 'id="col-gamma"' in page(site, "matrix")
    html = page(site, "features/old-serving")
    assert "Old serving (retired)" in html and f'href="../../features/{first}/"' in html and f'href="../../features/{second}/"' in html

    engines = sorted([*(e for e in catalog.engines if e != old_id), f"{old_id}-renamed", "gamma"])
    rendered = {p.parent.name for p in (site / "compare").glob("*-vs-*/index.html") if "http-equiv" not in p.read_text()}
    assert rendered == {"deepinfer-vs-vllm"}  # beyond the limit, the featured pair only
    for a, b in ((a, b) for i, a in enumerate(engines) for b in engines[i + 1:] if (a, b) != ("deepinfer", "vllm")):
        stub = page(site, f"compare/{a}-vs-{b}")
        assert f"../live/?a={a}&amp;b={b}" in stub and f"../../engines/{a}/" in stub  # and links to both engines
        assert resolves(site, f"/compare/{a}-vs-{b}/")  # a promised pair URL keeps working
        old = "-vs-".join(sorted(old_id if e == f"{old_id}-renamed" else e for e in (a, b)))
        assert page(site, f"compare/{old}") == stub  # and so does its address under the old id


def test_an_undefined_name_in_a_page_fails_the_build_naming_the_page(tmp_path):
    project = small_project(tmp_path / "project")
    (project / "docs" / "broken-page.md").write_text("# Broken\n\n{{ no_such_macro }}\n", encoding="utf-8")
    result = build(project, tmp_path / "site")
    assert result.returncode != 0
    assert "broken-page.md" in result.stderr and "no_such_macro" in result.stderr


def test_bad_data_stops_the_build_with_the_check_messages(tmp_path):
    project = small_project(tmp_path / "project")
    engine = sorted(p.stem for p in (project / "data/engines").glob("*.yml"))[0]
    path = project / f"data/engines/{engine}.yml"
    path.write_text(re.sub(r"status: [a-z-]+", "status: no", path.read_text(encoding="utf-8"), count=1), encoding="utf-8")
    result = build(project, tmp_path / "site")
    assert result.returncode != 0
    assert re.search(rf"data/engines/{engine}\.yml:\d+:\d+: 'no' is read as a yes/no boolean", result.stderr)
    assert "Traceback" not in result.stderr


# --- links that never break -----------------------------------------------------------

def test_every_promised_link_resolves(site):
    from macros.tools.links import broken_promises

    assert broken_promises(site) == []


def test_a_removed_anchor_or_page_breaks_a_promise(tmp_path, site):
    import shutil
    from macros.tools.links import broken_promises, read_registry

    promised = read_registry()[0]
    row = next(p for p in promised if p.startswith("/matrix/#") and "--" not in p)
    feature_page = next(p for p in promised if re.fullmatch(r"/features/[a-z0-9-]+/", p))
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    matrix = copy / "matrix" / "index.html"
    anchor = row.split("#")[1]
    matrix.write_text(matrix.read_text(encoding="utf-8").replace(f'id="{anchor}"', 'id="gone"'), encoding="utf-8")
    shutil.rmtree(copy / feature_page.strip("/"))
    messages = "\n".join(broken_promises(copy))
    assert f"{row} no longer resolves" in messages
    assert f"{feature_page} no longer resolves" in messages and "former-ids" in messages


def test_a_renamed_feature_keeps_its_old_urls_and_anchors(tmp_path):
    """Promise a small site's links, rename a feature the guide names (with its former id), build
    again: every promise still resolves, and the old page redirects to the new one."""
    from macros.data.catalog import build_catalog
    from macros.tools.links import broken_promises, read_registry, update_registry

    project = small_project(tmp_path / "project")
    registry = tmp_path / "promised-links.txt"
    catalog = build_catalog(project / "data")
    assert build(project, tmp_path / "before").returncode == 0
    update_registry(catalog, tmp_path / "before", registry)
    old = next(r.feature for n in catalog.needs for r in n.requires)  # one the guide names: its reference moves too
    new = f"{old}-renamed"
    features = project / "data/features.yml"
    features.write_text(features.read_text(encoding="utf-8").replace(
        f"      - id: {old}\n", f"      - id: {new}\n        former-ids: [{old}]\n"), encoding="utf-8")
    for path in [project / "data/guide.yml", *(project / "data/engines").glob("*.yml")]:
        text = path.read_text(encoding="utf-8").replace(f"\n  {old}:\n", f"\n  {new}:\n")
        path.write_text(re.sub(rf"feature: {old}\b", f"feature: {new}", text), encoding="utf-8")
    site = tmp_path / "site"
    result = build(project, site)
    assert result.returncode == 0, result.stderr
    assert f"/features/{old}/" in read_registry(registry)[0] and broken_promises(site, registry) == []
    assert f'id="{new}"' in page(site, "matrix") and f'id="{old}"' in page(site, "matrix")
    assert f'href="../{new}/"' in page(site, f"features/{old}")  # the old page redirects


# --- downloads, offline, sub-path hosting, reproducible builds ---------------------------

def test_downloads_parse_and_match_the_catalog(site, catalog):
    import csv

    data = json.loads((site / "data/catalog.json").read_text(encoding="utf-8"))
    assert data["data_as_of"] == catalog.data_date and re.fullmatch(r"[0-9a-f]{4,}|unknown", data["commit"])
    assert [f["id"] for c in data["categories"] for f in c["features"]] == list(catalog.features)
    assert {s["id"] for s in data["sources"]} == set(catalog.sources)
    for engine in data["engines"]:
        ours = catalog.engines[engine["id"]]
        assert {f: s["status"] for f, s in engine["support"].items()} == {f: s.status for f, s in ours.support.items()}
        alone = json.loads((site / f"data/engines/{engine['id']}.json").read_text(encoding="utf-8"))
        assert alone["support"] == engine["support"] and alone["data_as_of"] == catalog.data_date

    with (site / "data/matrix.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))  # a standard reader, no options: the header is the first line
    assert len(rows) == sum(1 for _ in catalog.statements())
    assert {(r["engine"], r["feature"]): r["status"] for r in rows} == {
        (e.id, f): s.status for e in catalog.engines.values() for f, s in e.support.items()}
    for row in rows:
        statement = catalog.engines[row["engine"]].support[row["feature"]]
        assert (row["detail"], row["sources"].split(), row["checked"]) == (statement.detail, statement.sources, statement.checked)
        assert (row["data_as_of"], row["commit"]) == (catalog.data_date, data["commit"])

    for schema in (site / "data/schema").glob("*.json"):
        assert json.loads(schema.read_text(encoding="utf-8"))["x-data-as-of"] == catalog.data_date


def test_json_downloads_follow_their_published_schemas(site):
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    schemas = {name: json.loads((site / "data" / name).read_text(encoding="utf-8"))
               for name in ("catalog.schema.json", "engine.schema.json")}
    registry = Registry().with_resources((n, Resource.from_contents(s)) for n, s in schemas.items())
    documents = [("catalog.schema.json", site / "data/catalog.json")]
    documents += [("engine.schema.json", path) for path in (site / "data/engines").glob("*.json")]
    for name, path in documents:
        document = json.loads(path.read_text(encoding="utf-8"))
        errors = list(Draft202012Validator(schemas[name], registry=registry).iter_errors(document))
        assert errors == [], (path, errors[:1])
        assert re.fullmatch(r"\d+\.\d+", document["schema_version"]) and document["commit"]


def test_a_cell_a_spreadsheet_would_run_is_neutralised(data):
    import csv
    import io

    from macros.data.catalog import build_catalog
    from macros.site.outputs.matrix_csv import matrix_csv

    data.replace("engines/alpha.yml", "detail: Ships a server.", "detail: '=HYPERLINK(\"https://evil.example\")'")
    data.replace("engines/beta.yml", "detail: Offline only.", "detail: '@SUM(A1)'")
    rows = list(csv.DictReader(io.StringIO(matrix_csv(build_catalog(data.path, today=TODAY), "abc"))))
    details = {row["engine"] + "/" + row["feature"]: row["detail"] for row in rows}
    assert details["alpha/http-server"] == "'=HYPERLINK(\"https://evil.example\")"
    assert details["beta/http-server"] == "'@SUM(A1)"
    assert not any(value.startswith(("=", "+", "-", "@")) for row in rows for value in row.values())


def test_export_command_writes_the_same_downloads(site, tmp_path):
    from conftest import run_macros

    result = run_macros("export", str(tmp_path))
    assert result.returncode == 0, result.stderr
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert written and all((tmp_path / p).read_bytes() == (site / p).read_bytes() for p in written)
    assert {p.parts[0] for p in written} >= {"data", "badges"}


def test_data_date_and_commit_in_every_page_footer(site, catalog):
    for path in site.rglob("index.html"):
        html = path.read_text(encoding="utf-8")
        if 'http-equiv="refresh"' not in html:  # redirects and the addresses of drawn pairs forward at once
            assert f"Data as of {catalog.data_date} · commit" in html, path


def data_urls(catalog) -> set[str]:
    from macros.site.outputs.json_files import catalog_json

    text = json.dumps(catalog_json(catalog, ""))
    return set(re.findall(r"https://[^\s\"')\]]+", text))


def test_no_request_leaves_the_site(site, catalog):
    allowed = data_urls(catalog)
    for path in site.rglob("*"):
        if path.suffix not in (".html", ".css"):
            continue
        text = path.read_text(encoding="utf-8")
        for tag, attr, url in re.findall(r"<(\w+)[^>]*?\b(href|src|action|srcset)=\"(https?://[^\"]+)\"", text):
            assert tag == "a" and attr == "href" and url.replace("&amp;", "&") in allowed, (path, tag, url)
        assert not re.search(r"url\(\s*['\"]?https?://", text), path
        assert "@import" not in text or "http" not in text.split("@import", 1)[1][:100], path


def internal_links(site: Path):
    for path in site.rglob("*.html"):
        html = path.read_text(encoding="utf-8")
        for url in re.findall(r"\b(?:href|src)=\"([^\"]+)\"", html):
            if not re.match(r"^(https?:|mailto:|#|data:|javascript:)", url):
                yield path, url.replace("&amp;", "&")


def test_a_site_hosted_on_gitlab_under_a_sub_path(tmp_path):
    """An internal GitLab: a sub-path, edit and report links in GitLab's form from CI_PROJECT_URL,
    and a git remote carrying a job token that must not reach any file of the site."""
    import subprocess

    from macros.data.catalog import build_catalog

    token = "glcbt-SECRET-TOKEN"
    project = small_project(tmp_path / "project")
    catalog = build_catalog(project / "data")
    config = project / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace(
        "site_name:", "site_url: https://intranet.example.org/tools/engines/\nsite_name:", 1), encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    subprocess.run(["git", "remote", "add", "origin", f"https://gitlab-ci-token:{token}@gitlab.example.org/team/site.git"],
                   cwd=project, check=True)
    site = tmp_path / "site"
    result = build(project, site, env={"CI_PROJECT_URL": "https://gitlab-ci-token:" + token + "@gitlab.example.org/team/site"})
    assert result.returncode == 0, result.stderr
    leaked = [str(p) for p in site.rglob("*") if p.is_file() and token.encode() in p.read_bytes()]
    assert leaked == []
    engine = next(iter(catalog.engines))
    html = (site / "engines" / engine / "index.html").read_text(encoding="utf-8")
    assert f'href="https://gitlab.example.org/team/site/-/edit/main/data/engines/{engine}.yml"' in html
    assert 'data-repo="https://gitlab.example.org/team/site" data-repo-host="gitlab"' in html
    # the 404 page offers search, the main pages and a word on renamed pages, from the sub-path
    missing = (site / "404.html").read_text(encoding="utf-8")
    assert "data-di-open-search" in missing and "renamed" in missing
    for url in ("", "compare/", "matrix/", "guide/", "engines/", "features/", "api/"):
        assert f'href="/tools/engines/{url}"' in missing, url
    broken = []
    for path, url in internal_links(site):
        if path.name == "404.html":  # served at any depth, so MkDocs writes paths from the site's own root
            assert url.startswith("/tools/engines/"), url
            url, path = url.removeprefix("/tools/engines/"), site / "index.html"
        assert not url.startswith("/"), (path, url)  # a root path would leave the sub-path
        target = (path.parent / url.split("#")[0].split("?")[0]).resolve()
        if not (target.is_file() or (target / "index.html").is_file()):
            broken.append((str(path.relative_to(site)), url))
    assert broken == []


def test_two_builds_are_byte_identical_in_one_process_or_two(tmp_path, monkeypatch):
    """The second build never starts a second process (macros/site/ahead.py), and in the third the
    child leaves its last job of each fork undone (a comparison, the outputs), which this process
    then does itself: what the child does is what this process would have done, byte for byte."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    project = small_project(tmp_path / "project")
    (project / "mkdocs.one-process.yml").write_text("INHERIT: mkdocs.yml\nextra:\n  build_processes: 1\n", encoding="utf-8")
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "data"]):  # with a history: the feed too
        git(project, *args)
    first, second, third = tmp_path / "one", tmp_path / "two", tmp_path / "three"
    assert build(project, first).returncode == 0
    assert "feed.xml" in {p.name for p in first.iterdir()}
    assert build(project, second, "-f", "mkdocs.one-process.yml").returncode == 0
    assert differing_files(first, second) == []
    ahead = project / "macros/site/ahead.py"
    text = ahead.read_text(encoding="utf-8")
    assert "in enumerate(jobs):" in text
    ahead.write_text(text.replace("in enumerate(jobs):", "in enumerate(jobs[:-1]):"), encoding="utf-8")
    assert build(project, third).returncode == 0
    assert differing_files(first, third) == []


def test_a_generated_catalog_checks_and_builds(tmp_path):
    from macros.data.catalog import build_catalog
    from macros.tools.synthetic import write_catalog

    project = copy_project(tmp_path / "project")
    for path in [*(project / "data").glob("*.yml"), *(project / "data/engines").glob("*.yml")]:
        path.unlink()
    write_catalog(project / "data", engines=3, features=12, per_category=5)
    catalog = build_catalog(project / "data")
    assert (len(catalog.engines), len(catalog.features), len(catalog.categories)) == (3, 12, 3)
    result = build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    assert len(re.findall(r'<td id="[a-z0-9-]+--[a-z0-9-]+" data-status=', page(tmp_path / "site", "matrix"))) == 36
    assert len(list((tmp_path / "site/compare").glob("*-vs-*/index.html"))) == 3
