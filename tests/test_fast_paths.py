"""Each shortcut the build takes for speed gives what the code it stands in for gives: the search
index's sections and attribute stripping (macros/site/search.py) against Material's own, the id
check of every page (macros/site/hooks.py html_ids) against its pattern, `mkdocs serve`
(which keeps the package between rebuilds while the code is unchanged) against a fresh build, and
the theme's compiled templates kept between those rebuilds (macros/site/jinja.py) against compiling.

Checked on every page of the real site, on cases made to hit each rule, and on generated HTML
(seeded, so a failure repeats). No timing here: `make bench` measures speed."""
from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from importlib.metadata import version

from material.plugins.search import plugin as material

from macros.site import search
from macros.site.hooks import _HTML_ID, html_ids
from sitebuild import small_project

MATERIAL_SUB = re.compile(r"\s?data-search-\w+=\"[^\"]+\"")  # the pattern Material's on_page_context strips with
ARTICLE = re.compile(r'<article [^>]*class="md-content__inner md-typeset">.*?</article>', re.S)


def sections_of(found) -> list:
    return [(s.el.tag, s.el.attrs, s.id, s.depth, s.title, s.text, s.is_excluded()) for s in found]


def same_sections(html: str) -> bool:
    """True when the fast reading is Material's; False when it hands the page to Material's parser."""
    fast = search.sections(html, material)
    if fast is None:
        return False
    try:
        slow = search.material_sections(html, material)
    except ValueError:  # Material's parser fails on a few shapes of unbalanced lists: the fast one must too
        return False
    assert sections_of(fast) == sections_of(slow), html
    return True


def test_the_fast_search_reading_is_for_the_pinned_material():
    # a newer Material may cut sections differently: re-check search.py against its Parser, then raise MIRRORED
    assert version("mkdocs-material") == search.MIRRORED


def test_search_sections_are_materials_on_a_page_of_every_kind_of_the_site(site):
    # pages of one kind come from one template: the first few of each (Material's parser takes
    # seconds for all of them, comparisons above all, which the index leaves out anyway)
    kinds: dict[str, list] = {}
    for path in sorted(site.rglob("index.html")):
        parts = path.relative_to(site).parts  # engines/<id>/index.html is of a kind; matrix/index.html alone
        kinds.setdefault(parts[0] if len(parts) == 3 and parts[0] != "reference" else parts[:-1], []).append(path)
    pages = [path for paths in kinds.values() for path in paths[:2]]
    articles = [m[0] for path in pages for m in [ARTICLE.search(path.read_text(encoding="utf-8"))] if m]
    assert {"engines", "features"} <= set(kinds) and articles
    assert all(same_sections(html) for html in articles)  # and none of them needs Material's parser


CASES = [
    "", "text only", "<p>a</p>", "<P CLASS=\"x\">Upper</P>", "<h1 id=\"t\">Title</h1><p>x</p>",
    "<p>before</p><h2 id=\"a\">A<a class=\"headerlink\" href=\"#a\">¶</a></h2><p>after &amp; more</p>",
    "<h2 id=\"first\">not h1 first</h2><p>x</p>", "<h3>no id</h3><p>x</p>",
    "<div data-search-exclude><p>hidden</p><div><p>inner</p></div><p>shown again: Material forgets</p></div><p>y</p>",
    "<section data-search-exclude><h2 id=\"s\">in an excluded section</h2><p>t</p></section><p>z</p>",
    "<p>a<br>b<br/>c<img src=\"x\"/></p>", "<ul><li> </li><li>x</li></ul>", "<p>  </p><p></p>",
    "<pre><code>a\n\n  b</code></pre><p>c\nd</p>", "<p>\n</p>\n\n<p>x</p>",
    "<script>var a = 1;</script><p>after</p>", "<style>p{}</style><p>x</p>", "<script/><p>x</p>",
    "<div class=\"linenodiv\"><pre>1\n2</pre></div><p>x</p>", "<p>&lt;b&gt; &#x27;q&#x27; &copy;</p>",
    "<a title=\"a &gt; b\" href=\"#x\">l</a>", "<div><h2 id=\"n\">nested</h2><p>x</p></div><p>after the div</p>",
    "<p><code>x</code> <sub>2</sub><sup>3</sup></p>", "<ol><li><p>deep</p></li></ol>", "</p>stray end",
    "<details open><summary>s</summary><p>d</p></details>", "<td data-label=\"\">empty value</td>",
    "<p>unclosed", "<hx>x</hx>", "<h2 id=\"x\"><span>in</span> title</h2>text",
]
# not plain HTML: the fast reading refuses these, and Material's parser reads them
REFUSED = ["<!-- c --><p>x</p>", "<p class='x'>q</p>", "<p class=x>u</p>", "a < b", "<!DOCTYPE html><p>x</p>",
           "<script>if (a < b) {}</script>", "<title>t</title>", "<p a=\"1\"b=\"2\">x</p>", "<a\u00a0b>x</a>",
           "<script>never closed"]


def test_search_sections_are_materials_on_cases_made_for_each_rule():
    for html in CASES:
        assert same_sections(html), html
    for html in REFUSED:
        assert search.sections(html, material) is None, html


def random_html(rng: random.Random, size: int) -> str:
    opening = ["<p>", "<div>", "<div data-search-exclude>", "<section data-search-exclude>", "<li>", "<ul>",
               "<pre>", "<code>", "<span>", "<a class=\"headerlink\" href=\"#h\">", "<h1 id=\"h1\">", "<h2 id=\"h2\">",
               "<h3>", "<table>", "<td data-label=\"a &amp; b\">", "<sub>", "<details open>"]
    other = ["</p>", "</div>", "</section>", "</li>", "</ul>", "</pre>", "</code>", "</span>", "</a>", "</h1>",
             "</h2>", "</h3>", "</table>", "</td>", "</sub>", "</details>", "<br>", "<br/>", "<img src=\"i\"/>",
             "text", "more words", " ", "\n", "  \n ", "&amp;", "&lt;", "x\ny", "<script>s</script>"]
    return "".join(rng.choice(opening if rng.random() < 0.35 else other) for _ in range(size))


def test_search_sections_are_materials_on_generated_html():
    rng = random.Random(23)
    read = 0
    for _ in range(1500):
        read += same_sections(random_html(rng, rng.randint(1, 40)))
    assert read > 1000  # most are read by the fast path, the rest fail in Material's parser too


def test_stripped_search_attributes_are_materials():
    cases = ['<div data-search-exclude>x</div>', '<p data-search-boost="2">x</p>', 'a\n data-search-x="1" b',
             'data-search-a="x data-search-b="', '<i  data-search-x="1"data-search-y="2">', 'data-search-="1"',
             '\u00a0data-search-z="v"', 'data-search-x=""']
    rng = random.Random(7)
    parts = [" ", "\n", "data-search-", "x", "=", '"', "ex", "_", "\u00a0", "<p>"]
    cases += ["".join(rng.choice(parts) for _ in range(rng.randint(0, 14))) for _ in range(3000)]
    for text in cases:
        assert search.strip_search_attributes(text) == MATERIAL_SUB.sub("", text), text


def test_html_ids_are_what_the_id_pattern_finds_on_the_site(site):
    for path in sorted(site.rglob("*.html"))[:60]:
        html = path.read_text(encoding="utf-8")
        assert html_ids(html) == _HTML_ID.findall(html), path


def test_html_ids_are_what_the_id_pattern_finds_on_cases_and_generated_text():
    cases = ['<a id="x" id="y">', '<a title=" id="x"">', 'text id="x" <b id="y">', '<a\nid="q">', '<1 id="x">',
             '</a id="x">', '<a id="a<b" id="c">', '<a b=">" id="x">', '<a id=" id="x">', '<a xid=" id="x">',
             'aid=" id="x"', '<a\u2028id="z">', '<a> id="x"', '<a x id="1"> id="2" > <c id="3">', '<é id="x">']
    rng = random.Random(5)
    parts = ["<", ">", "a", " ", 'id="', '"', "x", "\n", "/", "1"]
    cases += ["".join(rng.choice(parts) for _ in range(rng.randint(0, 14))) for _ in range(8000)]
    for text in cases:
        assert html_ids(text) == _HTML_ID.findall(text), text


SERVE = """
import os, sys
from pathlib import Path
from mkdocs.commands.build import build
from mkdocs.config import load_config

project, site = Path(sys.argv[1]), Path(sys.argv[2])
os.chdir(project)

def rebuild():  # what `mkdocs serve` does on each change: a new config, a build, in the same process
    build(load_config(config_file=str(project / "mkdocs.yml"), site_dir=str(site)), serve_url="http://127.0.0.1:8000/")
    return sys.modules["macros.site.jinja"].environment()

first = rebuild()
engine = sorted((project / "data/engines").glob("*.yml"))[0]
engine.write_text(engine.read_text().replace("summary: ", "summary: Edited summary. ", 1))
kept = rebuild()
print("data edit shows:", "Edited summary." in (site / "engines" / engine.stem / "index.html").read_text())
print("package kept:", kept is first)
template = project / "macros/site/templates/cell_body.html"
template.write_text(template.read_text().replace("· checked", "· read"))
again = rebuild()
print("template edit shows:", "· read 20" in (site / "engines" / engine.stem / "index.html").read_text())
print("package imported again:", again is not kept)
"""


def test_serve_shows_a_data_edit_and_a_code_edit_with_the_package_kept_between_them(tmp_path):
    project = small_project(tmp_path / "project")
    result = subprocess.run([sys.executable, "-c", SERVE, str(project), str(tmp_path / "site")], capture_output=True,
                            text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"})
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.splitlines() == ["data edit shows: True", "package kept: True", "template edit shows: True",
                                          "package imported again: True"]


REBUILDS = """
import gc, os, sys, time, weakref
from pathlib import Path
from mkdocs.commands.build import build
from mkdocs.config import load_config

project, site = Path(sys.argv[1]), Path(sys.argv[2])
os.chdir(project)
copies = []
for _ in range(3):  # a code edit before each rebuild: the package is imported again, the last copy dropped
    now = time.time_ns()
    os.utime(project / "macros/site/views.py", ns=(now, now))
    build(load_config(config_file=str(project / "mkdocs.yml"), site_dir=str(site)), serve_url="http://127.0.0.1:8000/")
    copies.append(weakref.ref(sys.modules["macros.data.rules"].text_problems))
    print(gc.get_freeze_count())
print([copy() is not None for copy in copies], gc.isenabled())
"""


def test_rebuilds_in_one_process_free_what_the_last_build_froze(tmp_path):
    """A build freezes what it keeps out of the garbage collector (macros/site/hooks.py); `mkdocs serve`
    rebuilds in one process, so the next build must free the last one's pages and dropped package, or
    every rebuild would keep its predecessor (70 MB each on the real data)."""
    project = small_project(tmp_path / "project")
    result = subprocess.run([sys.executable, "-c", REBUILDS, str(project), str(tmp_path / "site")], capture_output=True,
                            text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"})
    assert result.returncode == 0, result.stderr[-3000:]
    *frozen, alive = result.stdout.splitlines()
    assert alive == "[False, False, True] True"  # only this build's package is left, and the collector is on
    assert max(map(int, frozen)) < 1.2 * min(map(int, frozen))  # what stays frozen does not grow build by build


def test_the_theme_bytecode_cache_skips_compiling_again_and_compiles_an_edited_template(tmp_path, monkeypatch):
    """`mkdocs serve` makes a new theme environment for each rebuild: the second one takes the compiled
    template from the cache, and a template edited in between is compiled afresh, never served stale."""
    from jinja2 import Environment, FileSystemLoader

    from macros.site.jinja import MemoryBytecodeCache

    compiled = []
    compile_source = Environment.compile
    monkeypatch.setattr(Environment, "compile", lambda self, source, *a, **k: compiled.append(source) or
                        compile_source(self, source, *a, **k))
    cache, template = MemoryBytecodeCache(), tmp_path / "main.html"

    def build() -> str:  # one build's environment, as MkDocs makes it
        return Environment(loader=FileSystemLoader(tmp_path), bytecode_cache=cache).get_template("main.html").render(x=1)

    template.write_text("one {{ x }}", encoding="utf-8")
    assert build() == "one 1" and build() == "one 1" and compiled == ["one {{ x }}"]
    template.write_text("two {{ x }}", encoding="utf-8")
    assert build() == "two 1" and compiled == ["one {{ x }}", "two {{ x }}"]
