"""The fragments of comparisons drawn in the browser (past the pre-render limit): compare/parts/
<engine>.json with the engine's cells, and compare/parts/<a>-vs-<b>.json with what belongs to the
pair (verdict, scorecard, which rows differ, where they differ, the stacks, the sources). Each
fragment is rendered by the same template macros as a pre-rendered comparison (compare_parts.html,
cell.html), so the browser only puts them in place: a pair reads the same either way. A reader's
browser downloads the pair's file and the two engines' files, nothing else."""
from __future__ import annotations

import json

NAME = "comparison fragments"
PAGE_URL = "compare/live/"  # where the fragments are shown: links inside them are relative to it


def _dump(data) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"


def files(build) -> dict[str, str]:
    from macros.site import render
    from macros.site.views import pair_slug

    catalog = build.catalog
    if len(catalog.engines) <= build.settings.every_pair_up_to:
        return {}  # every pair has its page
    helpers = render.page_helpers(build, PAGE_URL)
    env = render.environment()
    parts = env.get_template("compare_parts.html").make_module(helpers)
    components = env.get_template("components.html").make_module(helpers)
    found = {}
    for engine in catalog.engines.values():
        cells = {fid: render.flatten(helpers["cell"](statement, "compare")) for fid, statement in engine.support.items()}
        found[f"compare/parts/{engine.id}.json"] = _dump({"name": engine.name, "cells": cells})
    for a, b in catalog.pairs():
        context = render.compare_context(build, a.id, b.id)
        view = context["view"]
        statements = [*a.support.values(), *b.support.values()]
        found[f"compare/parts/{pair_slug(a.id, b.id)}.json"] = _dump({
            "title": f"{a.name} vs {b.name}",
            "top": render.flatten(parts.top(view, context["quality"], context["layers"], context["scores"])),
            "legend": render.flatten(helpers["legend_for"](statements)),
            "rows": {row.feature.id: row.classes for rows in view.rows.values() for row in rows},
            "bottom": render.flatten(parts.bottom(view, context["layers"], context["only"])),
            "sources": render.flatten(components.cited_sources(render.cited(build, statements))),
        })
    return found
