"""Outputs for wikis and readers that follow changes: the Atom feed of data changes (valid, one
entry per commit that changed data/, linked from every page; a shallow clone gets no feed rather
than a different one) and the SVG status badges (one per statement, escaped, with a title)."""
from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from conftest import FIXTURES, ROOT, git

ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture
def history(tmp_path, monkeypatch):
    """A repository whose data/ changed in two commits, beside one that changed nothing in data/."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES / "minimal", repo / "data")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "First data")
    (repo / "README.md").write_text("not data\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "Docs only")
    path = repo / "data/engines/alpha.yml"
    path.write_text(path.read_text().replace("status: experimental", "status: supported"))
    git(repo, "commit", "-qam", "Alpha <caches> & more")
    return repo


def check_atom(text: str) -> ET.Element:
    """The parts RFC 4287 requires: feed id, title, updated, author; each entry id, title, updated, content."""
    root = ET.fromstring(text)
    assert root.tag == f"{ATOM}feed"
    for tag in ("id", "title", "updated", "author"):
        assert len(root.findall(f"{ATOM}{tag}")) == 1, tag
    for entry in root.findall(f"{ATOM}entry"):
        for tag in ("id", "title", "updated", "content"):
            assert len(entry.findall(f"{ATOM}{tag}")) == 1, tag
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d([+-]\d\d:\d\d|Z)", entry.find(f"{ATOM}updated").text)
    assert len({e.find(f"{ATOM}id").text for e in root.findall(f"{ATOM}entry")}) == len(root.findall(f"{ATOM}entry"))
    return root


def test_one_entry_per_data_commit_newest_first_in_plain_words(history):
    from macros.site.outputs.feed import feed

    root = check_atom(feed(history, "https://example.org/engines/", {"url": "https://git.example.org/t/s", "host": "gitlab"}))
    entries = root.findall(f"{ATOM}entry")
    assert [e.find(f"{ATOM}title").text for e in entries] == ["Alpha <caches> & more", "First data"]
    assert "- Alpha / Prefix caching: β Experimental -> ✔ Supported (beta -> full support)" in entries[0].find(f"{ATOM}content").text
    assert entries[0].find(f"{ATOM}link").get("href").startswith("https://git.example.org/t/s/-/commit/")
    assert root.find(f"{ATOM}link[@rel='self']").get("href") == "https://example.org/engines/feed.xml"


def test_the_same_history_gives_the_same_bytes_cached_or_not(history, tmp_path, monkeypatch):
    from macros.site.outputs.feed import feed

    first = feed(history, "", {})
    assert list((tmp_path / "cache").rglob("*.md"))  # texts kept per commit
    assert feed(history, "", {}) == first
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "another-cache"))
    assert feed(history, "", {}) == first


def test_a_shallow_clone_gets_no_feed(history, tmp_path):
    from macros.site.outputs.feed import feed, history_state

    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{history}", str(clone)], check=True)
    assert history_state(clone) == "shallow" and feed(clone, "", {}) is None


def test_the_site_links_its_feed_from_every_page(site):
    text = (site / "feed.xml").read_text(encoding="utf-8")
    entries = check_atom(text).findall(f"{ATOM}entry")
    subjects = git(ROOT, "log", "-n30", "--format=%s", "--", "data").splitlines()
    assert [e.find(f"{ATOM}title").text for e in entries] == subjects
    for path in site.rglob("index.html"):
        html = path.read_text(encoding="utf-8")
        if "Redirecting" not in html[:800] and 'http-equiv="refresh"' not in html[:800]:
            assert 'type="application/atom+xml"' in html, path


def test_a_badge_for_every_statement_with_a_title_and_the_status(site, catalog):
    import xml.etree.ElementTree as ET

    for engine in catalog.engines.values():
        for fid, statement in engine.support.items():
            svg = ET.fromstring((site / "badges" / engine.id / f"{fid}.svg").read_text(encoding="utf-8"))
            title = svg.find("{http://www.w3.org/2000/svg}title").text
            label = catalog.statuses[statement.status].label
            assert svg.get("role") == "img" and label in title and engine.name in title and label in svg.get("aria-label")


def test_a_renamed_feature_or_engine_keeps_its_badge_addresses(data):
    from types import SimpleNamespace

    from macros.data.catalog import build_catalog
    from macros.site.outputs import badges

    data.replace("features.yml", "      - id: prefix-caching\n", "      - id: prefix-reuse\n        former-ids: [prefix-caching]\n")
    for name in ("engines/alpha.yml", "engines/beta.yml"):
        data.replace(name, "  prefix-caching:", "  prefix-reuse:")
    data.replace("guide.yml", "feature: prefix-caching", "feature: prefix-reuse")
    data.replace("engines/beta.yml", "id: beta\n", "id: beta-two\nformer-ids: [beta]\n")
    data.file("engines/beta.yml").rename(data.file("engines/beta-two.yml"))
    found = badges.files(SimpleNamespace(catalog=build_catalog(data.path)))
    new = found["badges/beta-two/prefix-reuse.svg"]
    assert found["badges/beta/prefix-caching.svg"] == found["badges/beta/prefix-reuse.svg"] == \
        found["badges/beta-two/prefix-caching.svg"] == new
    assert found["badges/alpha/prefix-caching.svg"] == found["badges/alpha/prefix-reuse.svg"] != new
    assert "badges/alpha/http-server.svg" in found and "badges/alpha/alpha.svg" not in found


def test_badge_text_is_escaped():
    import xml.etree.ElementTree as ET

    from macros.site.outputs.badges import badge_svg

    svg = badge_svg('<b>"x"</b> & y', "</text><script>", "#000", "a < b & c")
    root = ET.fromstring(svg)  # well formed
    assert [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")] == ['<b>"x"</b> & y', "</text><script>"]
    assert "<script>" not in svg


def test_twin_builds_may_differ_only_in_the_generator_tag(tmp_path):
    from macros.tools.twin import differences

    first, second = tmp_path / "a", tmp_path / "b"
    for root, generator in ((first, "mkdocs-1.6.1"), (second, "mkdocs-ProperDocs 1.6.7")):
        (root / "x").mkdir(parents=True)
        (root / "x/index.html").write_text(f'<head><meta name="generator" content="{generator}"></head><p>same</p>')
        (root / "data.json").write_text("{}")
    assert differences(first, second) == []
    (second / "data.json").write_text('{"a": 1}')
    (second / "extra.txt").write_text("")
    assert differences(first, second) == [f"only in {second}: extra.txt", "differs: data.json"]
