"""HTML for every data-driven part of the site, rendered from the Jinja templates in macros/site/templates.

Each public function takes the catalog and the URL of the page it renders into (links
are made relative to it, so the site works under any sub-path) and returns safe HTML.
Pages call them through the one-line macros defined in macros/__init__.py.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from macros.site import guide as guide_logic
from macros.site.markdown import inline, plain
from macros.data.model import Catalog

TEMPLATES = Path(__file__).parent / "templates"


def site_root(page_url: str) -> str:
    """The relative prefix from a page (`compare/a-vs-b/`) back to the site root (`../../`)."""
    parts = [part for part in page_url.split("/") if part]
    if page_url and not page_url.endswith("/"):
        parts = parts[:-1]  # a file URL such as 404.html sits in its folder
    return "../" * len(parts)


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True)
    env.filters["md"] = inline
    env.filters["plain"] = plain
    return env


def _cache(catalog: Catalog) -> dict:
    """Rendered fragments of this catalog, reused across the pages of one build."""
    return catalog.__dict__.setdefault("_rendered", {})


def _helpers(catalog: Catalog, root: str) -> dict:
    """Template globals for one page depth. Cells and badges repeat thousands of times
    across a big site, so each is rendered once and reused (the build benchmark shows why)."""
    env, cache = environment(), _cache(catalog)
    numbers = cache.setdefault("numbers", {sid: i + 1 for i, sid in enumerate(catalog.sources)})

    def source_href(source):
        return source.url or root + source.page.removesuffix(".md") + "/"

    def once(key, template, **context):
        if key not in cache:
            cache[key] = Markup(env.get_template(template).render(**base, **context).strip())
        return cache[key]

    def badge(status_id):
        return once(("badge", status_id), "badge.html", status_id=status_id)

    def refs(ids):
        return once(("refs", tuple(ids), root), "refs.html", ids=ids)

    def cell(statement, brief=False):
        engine, feature = catalog.engines[statement.engine], catalog.features[statement.feature]
        return once(("cell", statement.engine, statement.feature, brief, root), "cell.html",
                    st=statement, engine=engine, feature=feature, brief=brief)

    base = dict(catalog=catalog, root=root, statuses=catalog.statuses, source_href=source_href,
                number=numbers.__getitem__, badge=badge, refs=refs, cell=cell)
    return base


def cited(catalog: Catalog, statements, extra=()) -> list[str]:
    """The source ids a page cites, in site-wide number order."""
    ids = set(extra) | {sid for st in statements for sid in st.sources}
    return [sid for sid in catalog.sources if sid in ids]


def _render(template: str, catalog: Catalog, page_url: str, **context) -> Markup:
    html = environment().get_template(template).render(**_helpers(catalog, site_root(page_url)), **context)
    # Python-Markdown must see one raw HTML block: no blank lines inside, no leading indent
    return Markup("\n".join(line.strip() for line in html.splitlines() if line.strip()))


def pair_slug(a: str, b: str) -> str:
    return f"{a}-vs-{b}"


def catalog_table(catalog: Catalog, page_url: str) -> Markup:
    """The engines at a glance: a small table for the home page."""
    return _render("home_table.html", catalog, page_url)


def key_differences(catalog: Catalog, page_url: str, a: str, b: str) -> Markup:
    """Features where the two engines' statuses differ and neither is unknown."""
    left, right = catalog.engines[a], catalog.engines[b]
    rows = [
        (category, feature) for category in catalog.categories for feature in category.features
        if left.support[feature.id].status != right.support[feature.id].status
        and "unknown" not in (left.support[feature.id].status, right.support[feature.id].status)
    ]
    return _render("key_differences.html", catalog, page_url, rows=rows, left=left, right=right,
                   slug=pair_slug(a, b))


def status_legend(catalog: Catalog, page_url: str) -> Markup:
    return _render("legend.html", catalog, page_url)


def matrix(catalog: Catalog, page_url: str) -> Markup:
    return _render("matrix.html", catalog, page_url, engines=list(catalog.engines.values()),
                   cited=cited(catalog, catalog.statements()))


def compare(catalog: Catalog, page_url: str, a: str, b: str) -> Markup:
    left, right = catalog.engines[a], catalog.engines[b]
    statements = [*left.support.values(), *right.support.values()]
    return _render("compare.html", catalog, page_url, left=left, right=right, cited=cited(catalog, statements))


def compare_index(catalog: Catalog, page_url: str) -> Markup:
    return _render("compare_index.html", catalog, page_url, pairs=catalog.pairs(), slug=pair_slug)


def feature_page(catalog: Catalog, page_url: str, feature_id: str) -> Markup:
    feature = catalog.features[feature_id]
    category = next(c for c in catalog.categories if c.id == feature.category)
    statements = [e.support[feature_id] for e in catalog.engines.values()]
    return _render("feature.html", catalog, page_url, feature=feature, category=category,
                   cited=cited(catalog, statements))


def feature_index(catalog: Catalog, page_url: str) -> Markup:
    return _render("feature_index.html", catalog, page_url)


def engine_page(catalog: Catalog, page_url: str, engine_id: str) -> Markup:
    engine = catalog.engines[engine_id]
    others = [(pair_slug(*sorted((engine_id, o))), catalog.engines[o]) for o in catalog.engines if o != engine_id]
    return _render("engine.html", catalog, page_url, engine=engine, others=others,
                   cited=cited(catalog, engine.support.values(), engine.sources))


def engine_index(catalog: Catalog, page_url: str) -> Markup:
    return _render("engine_index.html", catalog, page_url)


def script_json(data) -> Markup:
    """JSON safe inside a <script> element: no `<`, `>` or `&` at all, so nothing in the data
    can close the element, open a comment or start a tag; JSON.parse reads the escapes back."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=True)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def guide_data(catalog: Catalog, table: dict | None = None) -> dict:
    """What the guide's script needs: every verdict, keyed need -> engine."""
    table = table or guide_logic.verdicts(catalog)
    return {
        "engines": {e.id: e.name for e in catalog.engines.values()},
        "needs": {n.id: plain(n.label) for n in catalog.needs},
        "verdicts": {
            n.id: {e: {"met": table[(n.id, e)].met,
                       "checks": [[c.feature, c.status, c.ok] for c in table[(n.id, e)].checks]}
                   for e in catalog.engines}
            for n in catalog.needs
        },
        "features": {f.id: plain(f.name) for f in catalog.features.values()},
        "statuses": {s.id: s.label for s in catalog.statuses.values()},
    }


def guide(catalog: Catalog, page_url: str) -> Markup:
    table = guide_logic.verdicts(catalog)
    data = script_json(guide_data(catalog, table))
    return _render("guide.html", catalog, page_url, data=data,
                   verdicts=table, choose=guide_logic.choose_when(catalog),
                   gaps=guide_logic.build_yourself(catalog))


# What each verdict of the original article's claims means: shown as a word and a symbol, never colour alone.
VERDICTS = {
    "confirmed": ("Confirmed", "\u2714", "The statements that carry the claim say what it says."),
    "refined": ("Refined", "\u25D0", "True with limits or details the statements add."),
    "contradicted": ("Contradicted", "\u2716", "A statement says otherwise."),
    "unverified": ("Unverified", "?", "A statement the claim rests on is unknown: nothing documents it."),
}


def seed_text(catalog: Catalog, page_url: str) -> Markup:
    """The original article, claim by claim, each marked with its verdict."""
    from collections import Counter
    from types import SimpleNamespace

    verdicts = {v: SimpleNamespace(id=v, label=label, symbol=symbol, meaning=meaning)
                for v, (label, symbol, meaning) in VERDICTS.items()}
    paragraphs: list[list] = []
    for claim in catalog.seed_claims:
        if not paragraphs or paragraphs[-1][0].paragraph != claim.paragraph:
            paragraphs.append([])
        paragraphs[-1].append(claim)
    counted = Counter(c.verdict for c in catalog.seed_claims)

    def verdict_mark(verdict, short=False):
        v = verdicts[verdict]
        text = f'<span class="di-verdict__icon" aria-hidden="true">{v.symbol}</span>'
        text += f'<span class="di-verdict__label">{v.label}</span>' if not short else ""
        return Markup(f'<span class="di-verdict di-verdict--{v.id}" title="{v.label}: {v.meaning}">{text}</span>')

    return _render("seed.html", catalog, page_url, claims=catalog.seed_claims, paragraphs=paragraphs,
                   counts=[(v, counted[v]) for v in VERDICTS if counted[v]], verdicts=verdicts, verdict_mark=verdict_mark)


def sources_list(catalog: Catalog, page_url: str) -> Markup:
    return _render("sources.html", catalog, page_url, citations=catalog.citations())
