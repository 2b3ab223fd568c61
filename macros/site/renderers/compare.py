"""Comparisons of two engines: a pair's page, the fragments a browser-drawn pair is put together
from (the same context), which pairs are pre-rendered, the index and the browser-drawn page."""
from __future__ import annotations

import json

from markupsafe import Markup

from macros.data.evidence import quality
from macros.site import verdict, views
from macros.site.build import EVERY_PAIR_UP_TO, Build
from macros.site.renderers.base import cited, render_template
from macros.site.views import pair_slug


def compare_context(build: Build, a: str, b: str) -> dict:
    """What the comparison's templates draw, for the page of a pair and for its fragments alike."""
    catalog = build.catalog
    view = views.comparison(catalog, a, b)
    left, right = view.left, view.right
    scores = list(zip(verdict.scorecard(catalog, left), verdict.scorecard(catalog, right), strict=True))
    return dict(view=view, scores=scores,
                layers={e.id: verdict.stack(catalog, e) for e in (left, right)},
                only=(verdict.documents_only(catalog, a, b), verdict.documents_only(catalog, b, a)),
                quality={e.id: quality(catalog, e, build.today) for e in (left, right)})

def compare(build: Build, page_url: str, a: str, b: str) -> Markup:
    catalog = build.catalog
    left, right = catalog.engines[a], catalog.engines[b]
    statements = [*left.support.values(), *right.support.values()]
    return render_template("compare.html", build, page_url, cited=cited(build, statements), statements=statements,
                   **compare_context(build, a, b))

def rendered_pairs(source, limit: int | None = None) -> list[tuple]:
    """The comparisons pre-rendered as pages, for a build or a catalog: every pair up to a number
    of engines (extra.pair_pages.every_pair_up_to, default 12); beyond it, the pairs the data marks
    as featured. Any other pair is drawn in the browser from the published JSON, at the same address."""
    catalog = source.catalog if isinstance(source, Build) else source
    if limit is None:
        limit = source.settings.every_pair_up_to if isinstance(source, Build) else EVERY_PAIR_UP_TO
    pairs = catalog.pairs()
    if len(catalog.engines) <= limit:
        return pairs
    return [(a, b) for a, b in pairs if b.id in a.featured or a.id in b.featured]

def compare_index(build: Build, page_url: str) -> Markup:
    catalog = build.catalog
    featured = [(a, b) for a, b in catalog.pairs() if b.id in a.featured or a.id in b.featured]
    return render_template("compare_index.html", build, page_url, pairs=catalog.pairs(), featured=featured, slug=pair_slug)

def live_compare(build: Build, page_url: str) -> Markup:
    catalog = build.catalog
    names = json.dumps({e.id: e.name for e in catalog.engines.values()}, sort_keys=True)
    return render_template("live.html", build, page_url, engine_names=names,
                   every_pair_has_a_page=len(catalog.engines) <= build.settings.every_pair_up_to)
