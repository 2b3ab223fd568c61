"""The decision guide: its static table, and the verdicts its script reads."""
from __future__ import annotations

from markupsafe import Markup

from macros.data.model import Catalog
from macros.site import guide as guide_logic, verdict
from macros.site.build import Build
from macros.site.markdown import plain
from macros.site.renderers.base import render_template, script_json


def guide_data(catalog: Catalog, table: dict | None = None) -> dict:
    """What the guide's script needs: every verdict, keyed need -> engine, with its tier and each
    check [feature, status, ok, tier, limit, words when it falls short, scope], and the hardware
    each hardware need is about, so the script can flag a need met only on other hardware."""
    table = table or guide_logic.verdicts(catalog)
    engines = verdict.researched(catalog)
    return {
        "engines": {e.id: e.name for e in engines},
        "needs": {n.id: plain(n.label) for n in catalog.needs},
        "hardware_needs": {n.id: list(guide_logic.hardware_of(catalog, n)) for n in catalog.needs
                           if guide_logic.hardware_of(catalog, n)},
        "verdicts": {
            n.id: {e: {"met": table[(n.id, e)].met, "tier": table[(n.id, e)].tier,
                       "checks": [[c.feature, c.status, c.ok, c.tier, c.limit, c.short_of, list(c.scope)]
                                  for c in table[(n.id, e)].checks]}
                   for e in (e.id for e in engines)}
            for n in catalog.needs
        },
        "tiers": dict(guide_logic.TIER_WORDS),
        "features": {f.id: plain(f.name) for f in catalog.features.values()},
        "statuses": {s.id: s.label for s in catalog.statuses.values()},
    }

def guide(build: Build, page_url: str) -> Markup:
    catalog = build.catalog
    table = guide_logic.verdicts(catalog)
    data = script_json(guide_data(catalog, table))
    return render_template("guide.html", build, page_url, data=data, verdicts=table, engines=verdict.researched(catalog),
                   gaps=guide_logic.build_yourself(catalog))
