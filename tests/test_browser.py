"""The site in a real browser: Debian's Chromium driven by Playwright, served on 127.0.0.1.

No console error, no failed request and no request to another origin on any page; the
behaviour of every control, with the mouse and with the keyboard; axe-core finds no
accessibility violation in light and dark schemes; screenshots for a reviewer.

`make test BROWSER=0` skips these tests explicitly; otherwise a missing Chromium fails them.
"""
from __future__ import annotations

import functools
import http.server
import os
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from conftest import ROOT
from macros.data.catalog import build_catalog
from macros.site import guide as guide_logic

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
AXE = ROOT / "tests" / "browser" / "node_modules" / "axe-core" / "axe.min.js"
SCREENSHOTS = ROOT / "test-results" / "screenshots"


def audited(catalog) -> dict[str, str]:
    """One page of each template, chosen from the data."""
    a, b = catalog.pairs()[0]
    return {"home": "", "compare": f"compare/{a.id}-vs-{b.id}/", "matrix": "matrix/", "guide": "guide/",
            "feature": f"features/{next(iter(catalog.features))}/", "engine": f"engines/{a.id}/",
            "compare-index": "compare/", "engines": "engines/", "features": "features/", "sources": "sources/",
            "data": "api/", "article": "reference/seed/"}


AUDITED = audited(build_catalog())
# axe in both schemes on the pages with the data-driven components; the rest share their templates
AXE_PAGES = ("home", "compare", "matrix", "guide", "feature", "engine", "article")

if os.environ.get("BROWSER") == "0":
    pytest.skip("browser tests skipped on request (BROWSER=0)", allow_module_level=True)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def base_url(site):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is not at {CHROMIUM}: install it (as root: apt-get install -y chromium), "
                    "or skip the browser tests explicitly with `make test BROWSER=0`", pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        yield browser
        browser.close()


class Watched:
    """A page that records console errors, failed requests and requests to other origins."""

    def __init__(self, context, base_url):
        self.page = context.new_page()
        self.origin = urlsplit(base_url).netloc
        self.problems: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.problems.append(f"console error: {m.text}"))
        self.page.on("pageerror", lambda e: self.problems.append(f"script error: {e}"))
        self.page.on("requestfailed", self._failed)
        self.page.on("response", lambda r: r.status >= 400 and self.problems.append(f"HTTP {r.status}: {r.url}"))
        self.page.on("request", self._request)

    def _failed(self, request):
        # ERR_ABORTED is a request cut short by the next navigation, not a broken one
        if "ERR_ABORTED" not in (request.failure or ""):
            self.problems.append(f"failed request: {request.url} {request.failure}")

    def _request(self, request):
        parts = urlsplit(request.url)
        if parts.scheme in ("http", "https") and parts.netloc != self.origin:
            self.problems.append(f"request to another origin: {request.url}")


@pytest.fixture
def context(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context
    context.close()


@pytest.fixture
def watched(context, base_url):
    return Watched(context, base_url)


@pytest.mark.parametrize("name", AUDITED)
def test_one_page_of_each_template_loads_clean_and_offline(watched, base_url, name):
    watched.page.goto(base_url + AUDITED[name], wait_until="networkidle")
    assert watched.problems == []


def test_search_finds_a_feature_offline(watched, base_url):
    page = watched.page
    page.goto(base_url, wait_until="networkidle")
    page.keyboard.press("/")  # Material's keyboard shortcut for search
    page.keyboard.type("prefix caching", delay=20)
    result = page.locator(".md-search-result__item").filter(has_text="Automatic prefix caching").first
    result.wait_for(timeout=10000)
    assert watched.problems == []


def matrix_rows(page):
    return page.locator("tr[data-feature]:visible")


def test_matrix_filters_by_category_and_status(watched, base_url, catalog):
    page = watched.page
    page.goto(base_url + "matrix/")
    assert matrix_rows(page).count() == len(catalog.features)
    category = catalog.categories[1]
    page.select_option("[data-di-filter-category]", category.id)
    assert matrix_rows(page).count() == len(category.features)
    page.select_option("[data-di-filter-category]", "")
    page.select_option("[data-di-filter-status]", "via-plugin")
    expected = {f for f in catalog.features if any(e.support[f].status == "via-plugin" for e in catalog.engines.values())}
    shown = {row.get_attribute("data-feature") for row in matrix_rows(page).all()}
    assert shown == expected and page.locator("[data-di-count]").inner_text() == f"{len(expected)} features shown"


def test_matrix_sorts_by_a_column(watched, base_url, catalog):
    page = watched.page
    page.goto(base_url + "matrix/")
    category = max(catalog.categories, key=lambda c: len(c.features)).id
    names = lambda: page.locator(f"tbody[data-category='{category}'] tr[data-feature] th").all_inner_texts()
    page.click("button[data-di-sort='0']")
    ascending = names()
    assert ascending == sorted(ascending, key=str.lower)
    page.click("button[data-di-sort='0']")
    assert names() == ascending[::-1]
    assert page.locator("th:has(button[data-di-sort='0'])").get_attribute("aria-sort") == "descending"


def test_comparison_differences_only(watched, base_url, catalog):
    page = watched.page
    a, b = catalog.pairs()[0]
    page.goto(base_url + f"compare/{a.id}-vs-{b.id}/")
    rows = page.locator("tr[data-differs]:visible")
    assert rows.count() == len(catalog.features)
    page.check("[data-di-diff-only]")
    differing = [f for f in catalog.features if a.support[f].status != b.support[f].status]
    assert rows.count() == len(differing)
    page.uncheck("[data-di-diff-only]")
    assert rows.count() == len(catalog.features)


def need_sets(catalog):
    """One need, two needs, and the two needs no single engine meets together, when there are such."""
    ids = [n.id for n in catalog.needs]
    sets = [(ids[0],), (ids[-1],), tuple(ids[:2])]
    clash = next(((x, y) for x in ids for y in ids if x < y and not guide_logic.fitting_engines(catalog, (x, y))), None)
    return sets + ([clash] if clash else [])


@pytest.mark.parametrize("index", range(4))
def test_guide_answers_match_the_data(watched, base_url, catalog, index):
    sets = need_sets(catalog)
    if index >= len(sets):
        pytest.skip("every pair of needs is met by some engine")
    needs = sets[index]
    page = watched.page
    page.goto(base_url + "guide/")
    for need in needs:
        page.check(f"input[name=need][value='{need}']")
    fits = {item.get_attribute("data-engine"): item.get_attribute("data-fits") == "true"
            for item in page.locator("[data-di-results] li[data-engine]").all()}
    expected = set(guide_logic.fitting_engines(catalog, needs))
    assert {e for e, ok in fits.items() if ok} == expected and set(fits) == set(catalog.engines)
    for engine, ok in fits.items():
        if not ok:
            assert "lacks" in page.locator(f"[data-di-results] li[data-engine='{engine}']").inner_text()


def test_light_dark_switch(watched, base_url):
    page = watched.page
    page.goto(base_url + "matrix/")
    scheme = lambda: page.locator("body").get_attribute("data-md-color-scheme")
    assert scheme() == "default"
    page.locator("form[data-md-component=palette] label:visible").first.click()
    assert scheme() == "slate"
    page.goto(base_url + "guide/")  # the choice follows the reader
    assert scheme() == "slate"


def test_copy_link_to_a_cell(context, base_url, catalog):
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(base_url + "matrix/")
    cell = f"{next(iter(catalog.features))}--{next(iter(catalog.engines))}"
    page.click(f"a.di-anchor[href='#{cell}']")
    assert page.evaluate("navigator.clipboard.readText()") == base_url + f"matrix/#{cell}"
    assert page.locator("[role=status]").filter(has_text="Link copied").count() == 1


def focus_by_tab(page, selector, limit=400):
    """Press Tab until `selector` has the focus; fails if it never does."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement && document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"{selector} is not reachable with the keyboard")


def test_controls_work_with_the_keyboard(watched, base_url, catalog):
    page = watched.page
    page.goto(base_url + "matrix/")
    focus_by_tab(page, "[data-di-filter-category]")
    page.keyboard.press("ArrowDown")  # the first category
    assert matrix_rows(page).count() == len(catalog.categories[0].features)
    focus_by_tab(page, "button[data-di-sort='1']")
    page.keyboard.press("Enter")
    assert page.locator("th:has(button[data-di-sort='1'])").get_attribute("aria-sort") == "ascending"

    a, b = catalog.pairs()[0]
    page.goto(base_url + f"compare/{a.id}-vs-{b.id}/")
    focus_by_tab(page, "[data-di-diff-only]")
    page.keyboard.press("Space")
    assert page.locator("tr[data-differs='false']:visible").count() == 0

    need = catalog.needs[0].id
    page.goto(base_url + "guide/")
    focus_by_tab(page, f"input[value='{need}']")
    page.keyboard.press("Space")
    fits = [f"{catalog.engines[e].name}: fits" for e in guide_logic.fitting_engines(catalog, (need,))]
    assert page.locator("[data-di-results] li[data-fits='true']").all_inner_texts() == fits
    assert watched.problems == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", AXE_PAGES)
def test_no_accessibility_violation(browser, base_url, name, scheme):
    if not AXE.exists():
        pytest.fail("axe-core is missing: run `npm ci --prefix tests/browser` (make test does)", pytrace=False)
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(base_url + AUDITED[name], wait_until="networkidle")
    assert page.locator("body").get_attribute("data-md-color-scheme") == ("slate" if scheme == "dark" else "default")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    context.close()
    violations = [f"{v['id']}: {v['help']} ({len(v['nodes'])} nodes, e.g. {v['nodes'][0]['target']})"
                  for v in result["violations"]]
    assert violations == []


@pytest.mark.parametrize("width,label", [(1280, "desktop"), (390, "phone")])
def test_screenshots_for_review(browser, base_url, width, label):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    for name, url in AUDITED.items():
        page.goto(base_url + url, wait_until="networkidle")
        path = SCREENSHOTS / f"{name}-{label}.png"
        page.screenshot(path=str(path), full_page=False)
        assert path.stat().st_size > 5000
    context.close()
