"""An engine's page, the index of engines, and the data-quality page (one row per engine)."""
from __future__ import annotations

from markupsafe import Markup

from macros.data.evidence import MAX_AGE_DAYS, quality
from macros.site import views
from macros.site.build import Build
from macros.site.renderers.base import cited, render_template


def engine_page(build: Build, page_url: str, engine_id: str) -> Markup:
    catalog = build.catalog
    engine = catalog.engines[engine_id]
    facts = engine.facts()
    statements = list(engine.support.values())
    used = {st.status for st in statements}
    return render_template("engine.html", build, page_url, page=views.engine_page(catalog, engine),
                   cited=cited(build, statements, [*engine.sources, *(s for f in facts for s in f.sources)]),
                   quality=quality(catalog, engine, build.today), page_statements=statements,
                   score_statuses=[s for s in catalog.statuses.values() if s.id in used])

def engine_index(build: Build, page_url: str) -> Markup:
    return render_template("engine_index.html", build, page_url)

def data_quality(build: Build, page_url: str) -> Markup:
    catalog = build.catalog
    today = build.today
    return render_template("quality.html", build, page_url, today=today.isoformat(), max_age=MAX_AGE_DAYS,
                   rows=[(e, quality(catalog, e, today), views.freshness(catalog, e)) for e in catalog.engines.values()])
