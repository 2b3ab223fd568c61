"""The pages that show every engine at once: the home page, the status legend and the feature matrix."""
from __future__ import annotations

import json

from markupsafe import Markup

from macros.site import verdict, views
from macros.site.build import Build
from macros.site.renderers.base import helpers, render_template, site_root


HOME_NEEDS = 12  # needs shown as chips on the home page; the guide lists every one

def home(build: Build, page_url: str) -> Markup:
    """The home page's body: what do you need, every engine by category, and a grid of symbols
    for each category the data marks `grid: true`."""
    catalog = build.catalog
    engines = verdict.researched(catalog)
    used = {st.status for e in engines for st in e.support.values()}
    return render_template("home.html", build, page_url, engines=engines, chips=HOME_NEEDS,
                   score_statuses=[s for s in catalog.statuses.values() if s.id in used],
                   grids=[views.grid(catalog, c, engines) for c in catalog.categories if c.grid],
                   scores={e.id: verdict.scorecard(catalog, e) for e in engines},
                   left_out=[e.name for e in catalog.engines.values() if e not in engines])

def status_legend(build: Build, page_url: str) -> Markup:
    catalog = build.catalog
    return helpers(build, site_root(page_url))["legend_for"](list(catalog.statements()))

def matrix(build: Build, page_url: str) -> Markup:
    catalog = build.catalog
    ranks = json.dumps({s.id: s.rank for s in catalog.statuses.values()}, sort_keys=True)
    used = {st.status for st in catalog.statements()}
    return render_template("matrix.html", build, page_url, engines=list(catalog.engines.values()), ranks=ranks,
                   statuses_used=[s for s in catalog.statuses.values() if s.id in used])
