"""Every pattern that reads data or page text finishes on hostile input at the size limit.

Each case feeds one function a pathological text as large as a data file may be (2 MB) and
must finish well within a generous limit: a quadratic pattern takes hours on these inputs, a
linear one under a second. This catches a hang; it is not a speed test (`make bench` measures speed).

How the cases were found: every `re.compile`/`re.` call under macros/ (grep), every function that
reads text from data or pages (the inline Markdown renderer, the rules over text and URLs, the
id check on built pages and the search index's reading of them, the page checks of
macros/site/pages.py, the YAML loader), and Python-Markdown itself on pages that pass those page
checks.
"""
from __future__ import annotations

import multiprocessing

import pytest

from macros.data.load import MAX_BYTES

SIZE = MAX_BYTES
LIMIT = 60  # seconds: hours for a quadratic pattern at this size, a second or two for a linear one


def _fill(unit: str, size: int = SIZE) -> str:
    return unit * (size // len(unit))


def _inline(text):
    from macros.site.markdown import inline
    inline(text)


def _plain(text):
    from macros.site.markdown import plain
    plain(text)


def _rule_links(text):
    from macros.data import rules
    list(rules._LINK.finditer(text))


def _rule_html(text):
    from macros.data import rules
    list(rules._RAW_HTML.finditer(rules._CODE_SPAN.sub("", text)))


def _text_problems(text):
    from macros.data.rules import text_problems
    text_problems("detail", text)


def _url(text):
    from macros.data.rules import url_problem
    url_problem("https://" + text)


def _page_ids(text):
    from macros.site.hooks import html_ids
    html_ids(text)


def _search_sections(text):
    from material.plugins.search import plugin as material

    from macros.site.search import sections, strip_search_attributes
    sections(text, material)
    strip_search_attributes(text)


def _printable(text):
    from macros.data.problems import printable
    printable(text)


def _page_checks(text):
    from macros.site.pages import bounded_openings, template_problems
    from macros.site.render import MACRO_NAMES
    template_problems("docs/x.md", text, MACRO_NAMES)
    bounded_openings("docs/x.md", text)


def _yaml(text):
    from macros.data.load import parse
    parse("summary: " + '"' + text.replace("\\", "").replace('"', "") + '"\n', "x.yml")


def _markdown_page(text):
    """Python-Markdown, on a page that passes the page checks (the build refuses any other)."""
    import markdown

    from macros.site.pages import bounded_openings
    assert bounded_openings("docs/x.md", text) == []
    markdown.markdown(text, extensions=["toc", "attr_list", "admonition", "tables"])


CASES = {
    "inline: unclosed links": (_inline, _fill("[a](https://")),
    "inline: brackets": (_inline, _fill("[")),
    "inline: emphasis openings": (_inline, _fill(" *a")),
    "inline: strong openings": (_inline, _fill(" **a")),
    "inline: code ticks": (_inline, _fill("`a")),
    "plain: brackets": (_plain, _fill("[a](")),
    "rule links_use_https": (_rule_links, _fill("](")),
    "rule no_raw_html: tags": (_rule_html, _fill("<a")),
    "rule no_raw_html: spaces": (_rule_html, "<" + " " * (SIZE - 1)),
    "rule text_is_plain: joiners": (_text_problems, _fill("\U0001F469\u200d")),
    "rule text_is_plain: braces": (_text_problems, _fill("{<")),
    "rule urls_are_plain_https": (_url, _fill("a.") + "@x"),
    "duplicate HTML ids": (_page_ids, _fill("<a ")),
    "duplicate HTML ids: attributes outside tags": (_page_ids, _fill(' id=""')),
    "duplicate HTML ids: tags never closed": (_page_ids, _fill('<a id="x" id="y"')),
    "search index: open tags": (_search_sections, _fill("<p>x", 300_000)),  # a page, slower per byte than data
    "search index: a tag never closed": (_search_sections, "<a" + _fill(' b="" data-search-x="1"')),
    "printable": (_printable, _fill("\x1b\u202e")),
    "page checks: jinja openings": (_page_checks, _fill("{{ '{{' }}")),
    "page checks: brackets": (_page_checks, _fill("[" * 30 + "]" * 30 + "\n")),
    "yaml loader": (_yaml, _fill("a: [{")),
    # Python-Markdown is slower per byte: a page of 200 KB
    "markdown: closed links": (_markdown_page, _fill("[a](b) " * 5 + "\n\n", 200_000)),
    "markdown: nested brackets": (_markdown_page, _fill("[" * 20 + "]" * 20 + "\n\n", 200_000)),
    "markdown: tags": (_markdown_page, _fill("<a" * 150 + ">\n\n", 200_000)),
    # ... and as many `*` as a page may hold, in blocks as long as they may be
    "markdown: emphasis": (_markdown_page, _fill("*a" * 500 + "\n\n", 20_000)),
    "markdown: strong": (_markdown_page, _fill("**a" * 333 + "\n\n", 30_000)),
}


def _run(case: str) -> None:
    function, text = CASES[case]
    function(text)


@pytest.mark.parametrize("case", list(CASES))
def test_finishes_on_hostile_input_at_the_size_limit(case):
    process = multiprocessing.get_context("fork").Process(target=_run, args=(case,))
    process.start()
    process.join(LIMIT)
    if process.is_alive():
        process.kill()
        pytest.fail(f"{case}: still running after {LIMIT} s on {SIZE // 1024} KB: a pattern is not linear")
    assert process.exitcode == 0, f"{case}: failed (exit {process.exitcode})"
