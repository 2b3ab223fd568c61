"""A feature's page (every engine's statement), a retired feature's page, the index of features."""
from __future__ import annotations

from markupsafe import Markup

from macros.site.build import Build
from macros.site.renderers.base import cited, render_template


def feature_page(build: Build, page_url: str, feature_id: str) -> Markup:
    catalog = build.catalog
    feature = catalog.features[feature_id]
    category = next(c for c in catalog.categories if c.id == feature.category)
    statements = [e.support[feature_id] for e in catalog.engines.values()]
    summary: dict[str, list[str]] = {}
    for engine in catalog.engines.values():
        summary.setdefault(engine.support[feature_id].status, []).append(engine.name)
    ordered = sorted(summary.items(), key=lambda item: catalog.statuses[item[0]].rank)
    return render_template("feature.html", build, page_url, feature=feature, category=category, summary=ordered,
                   cited=cited(build, statements), statements=statements)

def retired_page(build: Build, page_url: str, feature_id: str) -> Markup:
    catalog = build.catalog
    record = next(r for r in catalog.retired if r.id == feature_id)
    return render_template("retired.html", build, page_url, record=record)

def feature_index(build: Build, page_url: str) -> Markup:
    return render_template("feature_index.html", build, page_url)
