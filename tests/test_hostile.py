"""Hostile data: text from data/ never runs, never injects markup, never forges output; hostile
files get a clear error naming the path. One test (or a few) per class of attack.

The gate covers every kind of output the site writes: HTML pages, the search index, the
JSON and CSV downloads. A change that adds an output adds it to `OUTPUTS` below.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
from dataclasses import fields
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import ROOT, TODAY, DataDir, as_build, only, run_macros
from macros.data.catalog import read_catalog
from macros.site import render
from macros.site.hooks import generated_pages
from sitebuild import build, copy_project, small_project


# --- what "inert" means, checked on any HTML ----------------------------------------------

class LiveMarkup(HTMLParser):
    """Collects what would run in a browser: event handlers, script elements that are not
    data, javascript: URLs, and tags no template of ours writes."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.in_script = False

    def handle_endtag(self, tag):
        self.in_script = self.in_script and tag != "script"

    def handle_data(self, data):
        # the theme's own inline scripts are fine; one that carries a payload is not
        if self.in_script and any(word in data for word in ("alert(", "lipsum", "os.system", "onerror")):
            self.found.append("a payload inside a script element")

    def handle_starttag(self, tag, attrs):
        if tag in ("iframe", "object", "embed", "base"):  # no template of ours writes these
            self.found.append(f"<{tag}>")
        self.in_script = tag == "script" and not any(k == "type" and v == "application/json" for k, v in attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"{tag} {name}=")
            if name in ("href", "src", "action") and value and value.strip().lower().startswith(("javascript:", "data:")):
                self.found.append(f"{tag} {name}={value}")


def live_markup(html: str) -> list[str]:
    parser = LiveMarkup()
    parser.feed(html)
    return parser.found


# Pieces of attacks, combined at random by the property test below.
FRAGMENTS = [
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<svg onload=alert(1)>", '"', "'", "&", "&amp;",
    "{{ 7*7 }}", "{{ lipsum.__globals__.os.system('touch pwned') }}", "{% raw %}", "{#", "</script>", "<!--",
    "javascript:alert(1)", "[x](javascript:alert(1))", '[x](https://a.example/"onmouseover=alert(1))',
    "`<b>code</b>`", "*em*", "**", "\u202e", "\x00", "\x1b[2K", "\u200b", "👩\u200d💻", "\n", "]]>", "\\", "%",
]
hostile = st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=4), min_size=1, max_size=6).map("".join)

# Record fields that hold ids, dates, URLs or vocabulary, not free text.
NOT_TEXT = {"id", "engine", "feature", "category", "status", "checked", "url", "page", "kind", "file_stem",
            "homepage", "repository", "match", "icon", "basis", "verdict", "commit"}


def text_fields(catalog):
    """(record, field name) for every free-text field of every record."""
    records = [*catalog.engines.values(), *catalog.categories, *catalog.features.values(), *catalog.sources.values(),
               *catalog.statements(), *catalog.needs, *catalog.gaps, *catalog.statuses.values()]
    for record in records:
        for f in fields(record):
            if f.name not in NOT_TEXT and isinstance(getattr(record, f.name), str):
                yield record, f.name


ID_ONLY = re.compile(r'(---\n[a-z: \n-]*---\n\n)?\{\{ \w+\("[a-z0-9-]+"(, "[a-z0-9-]+")*\) \}\}\n')


def every_render(catalog) -> dict[str, str]:
    """The HTML of every page-level macro, on the fixture catalog."""
    a, b = sorted(catalog.engines)
    fid = next(iter(catalog.features))
    return {
        "home": render.home(as_build(catalog), ""), "legend": render.status_legend(as_build(catalog), "matrix/"),
        "matrix": render.matrix(as_build(catalog), "matrix/"), "compare": render.compare(as_build(catalog), f"compare/{a}-vs-{b}/", a, b),
        "compare_index": render.compare_index(as_build(catalog), "compare/"), "live": render.live_compare(as_build(catalog), "compare/live/"),
        "feature": render.feature_page(as_build(catalog), f"features/{fid}/", fid),
        "feature_index": render.feature_index(as_build(catalog), "features/"),
        "engine": render.engine_page(as_build(catalog), f"engines/{a}/", a), "engine_index": render.engine_index(as_build(catalog), "engines/"),
        "guide": render.guide(as_build(catalog), "guide/"), "sources": render.sources_list(as_build(catalog), "sources/"),
        "quality": render.data_quality(as_build(catalog), "quality/"), "seed": render.seed_text(as_build(catalog), "reference/seed/"),
    }


@settings(derandomize=True, max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payload=hostile)
def test_hostile_text_in_every_field_stays_inert_in_html_and_page_sources(payload):
    catalog, _ = read_catalog(ROOT / "tests/fixtures/minimal")  # unchecked: the rules would refuse most payloads
    for record, name in text_fields(catalog):
        setattr(record, name, payload)
    render.environment.cache_clear()
    for name, html in every_render(catalog).items():
        assert live_markup(html) == [], name
        for script in re.findall(r"<script[^>]*>(.*?)</script>", html, re.S):
            assert "<" not in script, name  # JSON in a script element: no way to close it or open a comment
            json.loads(script)
    for path, (_title, markdown, _job) in generated_pages(as_build(catalog)).items():
        assert ID_ONLY.fullmatch(markdown), path  # the Markdown names records by id, and holds nothing else


def test_generated_titles_are_set_escaped_after_the_macros_render(tmp_path):
    from types import SimpleNamespace

    from macros.site import build as builds
    from macros.site.hooks import on_page_markdown

    config = {"config_file_path": str(tmp_path / "mkdocs.yml")}
    build = builds.start(config["config_file_path"], builds.Build(tmp_path, read_catalog(ROOT / "data")[0]))
    build.titles["engines/x.md"] = '<img src=x onerror=alert(1)> & {{ 7*7 }}'
    page = SimpleNamespace(file=SimpleNamespace(src_uri="engines/x.md"), meta={}, title="X")
    on_page_markdown("{{ engine_page(\"x\") }}\n", page, config, None)
    builds.finish(config)
    assert page.title == page.meta["title"] == "&lt;img src=x onerror=alert(1)&gt; &amp; {{ 7*7 }}"


def test_the_title_hook_runs_after_mkdocs_macros_renders_the_page():
    """... and after it, whatever order the plugins are listed in: a title set before mkdocs-macros
    runs would be rendered by it as a template."""
    import logging

    from mkdocs.config import load_config

    from macros.site.hooks import on_page_markdown

    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    steps = [getattr(step, "__qualname__", "") for step in load_config(str(ROOT / "mkdocs.yml")).plugins.events["page_markdown"]]
    assert steps.index("on_page_markdown") > steps.index("MacrosPlugin.on_page_markdown"), steps
    assert getattr(on_page_markdown, "mkdocs_priority", 0) < 0  # by its priority, not by the listing order alone


# --- one full build with a payload in every field that the rules let through ----------------

MARKER = "hostile-marker"
# Free text may quote template syntax and tags inside backticks; names may hold quotes,
# ampersands, backslashes, emoji sequences and right-to-left script.
TEXT_PAYLOAD = ("Quote `{{ lipsum.__globals__.os.system('touch " + MARKER + "') }}` and `</script><img src=x "
                "onerror=alert(1)>` and `{% include 'x' %}` & \"quotes\" 'single' \\ [a](https://a.example/?q=\"x\")")
LABEL_PAYLOAD = "Q\"'&amp; \\ 👩\u200d💻 عربي javascript:alert(1) }} %} ${x}"
TEXT_KEYS = ("summary", "detail", "description", "why", "supply", "note")
LABEL_KEYS = ("name", "title", "publisher", "label", "license", "value")


def poison(data_dir: Path) -> None:
    """Every text and label field of a generated catalog, replaced by a payload."""
    for path in [*data_dir.glob("*.yml"), *(data_dir / "engines").glob("*.yml")]:
        lines = []
        for line in path.read_text(encoding="utf-8").splitlines():
            match = re.match(r"^(\s*(?:- )?)(\w+): (.*)$", line)
            if match and match[3] in ("engine", "runtime"):  # the kind's value: a vocabulary, not text
                pass
            elif match and match[2] in TEXT_KEYS:
                line = f"{match[1]}{match[2]}: {json.dumps(TEXT_PAYLOAD, ensure_ascii=False)}"
            elif match and match[2] in LABEL_KEYS:
                line = f"{match[1]}{match[2]}: {json.dumps(LABEL_PAYLOAD[:50], ensure_ascii=False)}"
            lines.append(line)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")


# Every kind of file the site writes, and how to read the text a browser or a script would act on.
OUTPUTS = {".html": "html", ".json": "json", ".csv": "text", ".xml": "text", ".svg": "html"}


def test_a_build_with_a_payload_in_every_field_writes_nothing_live(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    from macros.tools.synthetic import write_catalog

    project = copy_project(tmp_path / "project")
    for path in [*(project / "data").glob("*.yml"), *(project / "data/engines").glob("*.yml")]:
        path.unlink()
    write_catalog(project / "data", engines=3, features=6, per_category=3)  # poisoned below
    poison(project / "data")
    # a history, so the feed of data changes is built too, from a hostile commit message
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "<img src=x onerror=alert(1)> {{ 7*7 }}"]):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=project, check=True)
    check = run_macros("check", cwd=project, data=project / "data")
    assert check.returncode == 0, check.stderr  # the payloads are all allowed: the renderer must make them inert
    site = tmp_path / "site"
    result = build(project, site)
    assert result.returncode == 0, result.stderr
    assert not list(tmp_path.rglob(MARKER)) and not (ROOT / MARKER).exists()
    kinds = set()
    for path in site.rglob("*"):
        if path.suffix not in OUTPUTS or not path.is_file():
            continue
        kinds.add(path.suffix)
        text = path.read_text(encoding="utf-8")
        assert "{{" not in text.replace("`{{", "").replace("{{ lipsum", "") or path.suffix != ".html", path
        if path.name == "search_index.json":  # Material's search shows titles and text as HTML
            for doc in json.loads(text)["docs"]:
                assert live_markup(doc["title"]) == [] and live_markup(doc["text"]) == [], doc["location"]
        elif OUTPUTS[path.suffix] == "html":
            assert live_markup(text) == [], path
    assert {".html", ".json", ".csv", ".svg", ".xml"} <= kinds
    import xml.etree.ElementTree as ET

    feed = ET.fromstring((site / "feed.xml").read_text(encoding="utf-8"))  # still well-formed XML
    assert "<img src=x" in feed.find("{http://www.w3.org/2005/Atom}entry/{http://www.w3.org/2005/Atom}title").text
    title = re.search(r"<title>(.*?)</title>", (site / "engines/deepinfer/index.html").read_text(encoding="utf-8"))[1]
    assert "&amp;amp;" in title and "<" not in title  # shown as written, escaped once


def test_template_syntax_in_a_name_stops_the_build_before_anything_runs(tmp_path):
    project = small_project(tmp_path / "project")
    path = project / "data/engines/vllm.yml"
    path.write_text(re.sub(r"name: .*", "name: \"vLLM {{ lipsum.__globals__.os.system('touch " + MARKER + "') }}\"",
                           path.read_text(encoding="utf-8"), count=1), encoding="utf-8")
    result = build(project, tmp_path / "site")
    assert result.returncode != 0 and "Traceback" not in result.stderr
    line = DataDir(project / "data").line_of("engines/vllm.yml", "name: ")
    assert re.search(rf"data/engines/vllm\.yml:{line}:\d+: 'name' contains `\{{\{{`", result.stderr), result.stderr
    assert not list(tmp_path.rglob(MARKER))


# --- defence in depth: the rules ----------------------------------------------------------

@pytest.mark.parametrize("name,expected", [
    ('"Al\\u0000pha"', "U+0000"), ('"Al\\u001bpha"', "U+001B"), ('"Al\\u0085pha"', "U+0085"),
    ('"Al\\u202epha"', "RIGHT-TO-LEFT OVERRIDE"), ('"Al\\u2066pha"', "bidi control"),
    ('"Al\\u200bpha"', "ZERO WIDTH SPACE"), ('"Al\\u200dpha"', "ZERO WIDTH JOINER"), ('"Al\\ufeffpha"', "invisible"),
    ('"Alpha {{ beta }}"', "`{{`"), ('"Alpha {% if %}"', "`{%`"), ('"Alpha {# x"', "`{#`"),
    ('"<img src=x onerror=alert(1)>"', "contains `<`"), ('"Alpha > Beta"', "contains `>`"),
    ('"Alpha\\nBeta"', "U+000A"),
])
@pytest.mark.rule("text_is_plain")
def test_names_refuse_controls_bidi_invisibles_markup_and_template_syntax(data, name, expected):
    data.replace("engines/alpha.yml", "name: Alpha", f"name: {name}")
    problem = only(data.problems(), expected)
    assert (problem.path, problem.line) == ("engines/alpha.yml", data.line_of("engines/alpha.yml", "name: ")) and "'name'" in problem.message


@pytest.mark.parametrize("name", ["Alpha 🚀", "👩\u200d💻 Alpha", "❤\ufe0f Alpha", "Ålpha Ωmega 中文 عربي",
                                  "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Alpha",
                                  "می\u200cخواهم", "AT&T \"quoted\" 'single'"])
def test_emoji_and_ordinary_unicode_in_names_keep_working(data, name):
    data.replace("engines/alpha.yml", "name: Alpha", f"name: {json.dumps(name, ensure_ascii=False)}")
    assert data.problems() == []


def test_template_syntax_inside_backticks_in_a_description_is_fine(data):
    data.replace("engines/alpha.yml", "detail: Ships a server.", "detail: 'Set `{{ chat_template }}`, then `{% x %}`.'")
    assert data.problems() == []
    data.replace("engines/alpha.yml", "`{% x %}`", "{% x %}")
    assert only(data.problems(), "`{%`").line == data.line_of("engines/alpha.yml", "{%")


def test_an_id_with_a_trailing_newline_is_refused(data):
    data.replace("engines/alpha.yml", "id: alpha", 'id: "alpha\\n"')
    assert only(data.problems(), "is not a kebab-case id").line == data.line_of("engines/alpha.yml", "id: ")


@pytest.mark.parametrize("url,expected", [
    ("https://user:secret@alpha.example.org/docs/", "user name or password"),
    ("https://alpha.example.org@evil.example/", "user name or password"),
    ("http://alpha.example.org/docs/", "not an https:// URL"),
    ("https:///docs/", "with a host"),
    ("https://alpha.example.org\\\\@evil.example/", "user name or password"),
    ("https://alpha\uff0eexample.org/docs/", "look-alike dot in its host (U+FF0E FULLWIDTH FULL STOP)"),
    ("https://b\u00fccher.example/docs/", "host name that is not ASCII"),
    ("https://\u0430lpha.example.org/docs/", "host name that is not ASCII"),  # a Cyrillic а
])
@pytest.mark.rule("urls_are_plain_https")
def test_urls_are_https_without_credentials(data, url, expected):
    data.replace("sources.yml", "https://alpha.example.org/docs/", url)
    assert only(data.problems(), expected).path == "sources.yml"


def test_a_link_in_text_with_credentials_is_refused(data):
    data.replace("engines/alpha.yml", "detail: Ships a server.", "detail: See [docs](https://a:b@alpha.example.org/).")
    assert only(data.problems(), "user name or password").line == data.line_of("engines/alpha.yml", "See [docs]")


def test_an_internationalised_host_gets_its_punycode_form_as_the_tip(data):
    data.replace("sources.yml", "https://alpha.example.org/docs/", "https://b\u00fccher.example/docs/")
    assert "xn--bcher-kva.example" in only(data.problems(), "not ASCII").tip


def test_user_names_in_official_urls_and_searched_urls_are_refused(data):
    data.replace("engines/alpha.yml", "official-urls: [https://alpha.example.org/]",
                 "official-urls: [https://alpha.example.org@evil.example/]")
    data.replace("engines/beta.yml", "searched: [https://beta.example.org/readme/]",
                 "searched: [https://beta.example.org@evil.example/readme/, 'docs search: prefix']")
    found = [p for p in data.problems() if "user name or password" in p.message]
    assert {p.path for p in found} == {"engines/alpha.yml", "engines/beta.yml"}
    assert found[1].line == data.line_of("engines/beta.yml", "searched:")


@pytest.mark.parametrize("prefix,expected", [
    ("https://github.com/", "would make every page of github.com primary evidence for Alpha"),
    ("https://huggingface.co/", "would make every page of huggingface.co primary"),
    ("https://pypi.org/project/", "would make every page of pypi.org primary"),
    ("https://github.com/alpha-org", "does not end with /: it also covers https://github.com/alpha-org-anything"),
])
@pytest.mark.rule("official_urls_name_the_project")
def test_an_official_prefix_must_name_the_project(data, prefix, expected):
    data.replace("engines/alpha.yml", "official-urls: [https://alpha.example.org/]",
                 f"official-urls: [https://alpha.example.org/, {prefix}]")
    problem = only(data.problems(), expected)
    assert problem.line == data.line_of("engines/alpha.yml", "official-urls:")


# --- ids that would break the site ----------------------------------------------------------

@pytest.mark.parametrize("file,old,new,expected", [
    ("engines/alpha.yml", "id: alpha", "id: index", "name of a hand-written page"),
    ("features.yml", "id: http-server", "id: index", "name of a hand-written page"),
    ("features.yml", "id: http-server", "id: sources", "anchor the site already uses"),
    ("features.yml", "id: http-server", "id: serving", "already a category id"),
    ("features.yml", "id: http-server", "id: col-alpha", "anchors the site already uses"),
    ("guide.yml", "id: http\n", "id: needs\n", "anchor the site already uses"),
    ("features.yml", "      - id: prefix-caching\n", "      - id: prefix-caching\n        former-ids: [index]\n",
     "name of a hand-written page"),
    ("features.yml", "      - id: prefix-caching\n", "      - id: prefix-caching\n        former-ids: [prefix-caching]\n",
     "redirect to itself"),
])
@pytest.mark.rule("ids_fit_the_site")
def test_ids_that_would_overwrite_a_page_or_an_anchor(data, file, old, new, expected):
    data.replace(file, old, new)
    assert "would break the site" in only(data.problems(), expected).message


def test_an_engine_id_with_vs_is_refused(data):
    data.replace("engines/alpha.yml", "id: alpha", "id: alpha-vs-beta")
    data.file("engines/alpha.yml").rename(data.file("engines/alpha-vs-beta.yml"))
    assert "comparison pages" in only(data.problems(), "'-vs-'").message


def test_the_build_refuses_a_page_with_the_same_html_id_twice(tmp_path):
    project = small_project(tmp_path / "project")
    (project / "docs/twice.md").write_text('# Twice\n\n<p id="same">a</p>\n\n<p id="same">b</p>\n', encoding="utf-8")
    result = build(project, tmp_path / "site")
    assert result.returncode != 0 and "twice.md: the HTML id 'same' appears twice" in result.stderr


# --- files ---------------------------------------------------------------------------------

def test_a_symlink_is_not_read_wherever_it_points(data, tmp_path_factory):
    secret = tmp_path_factory.mktemp("elsewhere") / "secret.yml"
    secret.write_text(data.file("engines/beta.yml").read_text())
    inside = data.file("beta-copy.yml")
    inside.write_text(data.file("engines/beta.yml").read_text())
    for target in (secret, inside):
        data.file("engines/beta.yml").unlink()
        data.file("engines/beta.yml").symlink_to(target)
        problem = only(data.problems(), "is a symbolic link: the build never follows links")
        assert problem.path == "engines/beta.yml" and "commit the file itself" in problem.tip


def test_a_named_pipe_is_refused_without_waiting(data):
    data.file("engines/beta.yml").unlink()
    os.mkfifo(data.file("engines/beta.yml"))
    assert only(data.problems(), "named pipe").path == "engines/beta.yml"


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_a_device_is_refused(data):
    import stat

    data.file("engines/beta.yml").unlink()
    os.mknod(data.file("engines/beta.yml"), 0o600 | stat.S_IFCHR, os.makedev(1, 5))  # like /dev/zero
    assert only(data.problems(), "is a device").path == "engines/beta.yml"


def test_a_folder_named_like_a_data_file_is_refused(data):
    (data.path / "engines/gamma.yml").mkdir()
    assert only(data.problems(), "is a folder").path == "engines/gamma.yml"


def test_a_file_over_the_size_limit_is_refused(data):
    with data.file("engines/beta.yml").open("a") as handle:
        handle.write("# padding\n" * 250_000)
    assert only(data.problems(), "larger than 2 MB").path == "engines/beta.yml"


def test_nesting_deeper_than_the_limit_is_a_positioned_error(data):
    deep = "x:\n" + "".join("  " * i + "a:\n" for i in range(1, 80)) + "  " * 80 + "b\n"
    data.write("engines/beta.yml", data.file("engines/beta.yml").read_text() + deep)
    problem = only(data.problems(), "nested deeper than 64 levels")
    assert problem.path == "engines/beta.yml" and problem.line > 60


@pytest.mark.parametrize("name,tip", [
    ("engines/gamma.yaml", "rename it to data/engines/gamma.yml"),
    ("engines/Gamma.YML", "rename it to data/engines/gamma.yml"),
    ("sglang.yml", "goes in data/engines/sglang.yml"),
    ("features.yaml", "rename it to data/features.yml"),
    ("notes.txt", "remove it"),
])
def test_a_file_that_nothing_reads_is_an_error_saying_what_to_rename_it_to(data, name, tip):
    data.write(name, "id: gamma\n")
    problem = only(data.problems(), "not read")
    assert problem.path == name and tip in problem.tip


def test_fmt_writes_only_regular_files_and_never_follows_a_symlink(data, tmp_path_factory):
    outside = tmp_path_factory.mktemp("elsewhere") / "outside.yml"
    original = data.file("engines/beta.yml").read_text().replace("    status: not-supported\n    detail",
                                                                  "    detail: x\n    status: not-supported\n    detail2")
    outside.write_text(original)
    data.file("engines/beta.yml").unlink()
    data.file("engines/beta.yml").symlink_to(outside)
    result = run_macros("fmt", data=data.path)
    assert outside.read_text() == original and "skipped" in result.stderr and "symbolic link" in result.stderr


# --- output cannot be forged ---------------------------------------------------------------

def test_check_output_escapes_control_characters(data):
    data.replace("engines/alpha.yml", "  prefix-caching:", '  "prefix\\u001b[32m ok\\r\\u202e":')
    result = run_macros("check", data=data.path)
    assert result.returncode == 1
    for raw in ("\x1b", "\r", "\u202e"):
        assert raw not in result.stdout + result.stderr
    assert "\\u001b" in result.stderr


def test_diff_output_escapes_control_characters(data):
    from macros.data.changes import describe

    old, _ = read_catalog(data.path)
    new, _ = read_catalog(data.path)
    new.engines["alpha"].name = "Alpha\x1b[2K\rok"
    new.engines["alpha"].support["http-server"].status = "partial"
    text = describe(old, new)
    assert "\x1b" not in text and "\r" not in text and "\\u001b" in text


# --- bounded cost --------------------------------------------------------------------------

def test_thousands_of_unknown_keys_give_the_first_few_and_a_count(data):
    text = data.file("engines/alpha.yml").read_text()
    data.write("engines/alpha.yml", text.replace("license: MIT\n", "license: MIT\n" + "".join(
        f"stray-{i}: x\n" for i in range(3000))))
    problems = [p for p in data.problems() if p.path == "engines/alpha.yml"]
    assert len(problems) <= 25 and only(problems, "and 2980 more unknown fields")


def test_thousands_of_unknown_features_get_few_suggestions(data):
    text = data.file("engines/alpha.yml").read_text()
    data.write("engines/alpha.yml", text + "".join(
        f"  feature-{i}:\n    status: supported\n    detail: x\n    sources: [alpha-docs]\n    checked: 2026-01-10\n"
        for i in range(3000)))
    problems = data.problems()
    assert len([p for p in problems if p.message.startswith("unknown feature '")]) == 20
    assert len([p for p in problems if "did you mean" in p.tip]) <= 50
    assert only(problems, "and 2980 more unknown features")


def test_a_parse_error_is_reported_first_without_its_echoes(data):
    data.write("features.yml", "categories: [\n")
    data.replace("engines/alpha.yml", "license: MIT", "licence: MIT")
    problems = data.problems()
    from macros.data.catalog import build_catalog
    from macros.data.problems import DataError

    with pytest.raises(DataError) as error:
        build_catalog(data.path, today=TODAY, shown_from=data.path)
    assert error.value.problems[0].path == "features.yml" and "invalid YAML" in error.value.problems[0].message
    assert not [p for p in problems if "unknown feature" in p.message or "no statement for" in p.message]


def test_a_sources_file_that_does_not_parse_is_not_echoed_by_the_claims(data):
    data.write("seed-claims.yml", "source: article\nparagraphs:\n  - claims:\n      - id: alpha-serves\n"
               "        text: Alpha serves.\n        verdict: confirmed\n        carried-by:\n"
               "          - {engine: alpha, feature: http-server, implies: [supported]}\n")
    data.write("sources.yml", "sources:\n  - id: [\n")
    assert [p.path for p in data.problems()] == ["sources.yml"]
