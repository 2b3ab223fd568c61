"""Status badges for wikis: badges/<engine>/<feature>.svg, one small SVG per statement (and the same
at the addresses of former engine and feature ids, so a pasted badge survives a rename), drawn by
the template outputs/badge.svg (text escaped; a title element makes it readable by screen
readers; the symbol, label and colour are the status vocabulary's, its light-scheme colour dark
enough for white text)."""
from __future__ import annotations

from macros.site.jinja import environment

NAME = "status badges"
CHAR_WIDTH = 6.6  # px per character of 11 px Verdana-like text: close enough for a badge


def badge_svg(left: str, right: str, colour: str, title: str) -> str:
    return environment().get_template("outputs/badge.svg").render(
        left=left, right=right, colour=colour, title=title,
        left_width=int(len(left) * CHAR_WIDTH) + 12, right_width=int(len(right) * CHAR_WIDTH) + 12)


def files(build) -> dict[str, str]:
    catalog, found = build.catalog, {}
    for engine in catalog.engines.values():
        for feature in catalog.features.values():
            st = engine.support[feature.id]
            status = catalog.statuses[st.status]
            label = f"{status.symbol} {status.label}" + (f": {st.value}" if st.value else "")
            title = f"{engine.name}, {feature.name}: {label} (checked {st.checked})"
            svg = badge_svg(f"{engine.name} · {feature.name}", label, status.colours["light"], title)
            # a badge in a wiki outlives a rename: the old ids' addresses carry the same badge
            for engine_id in (engine.id, *engine.former_ids):
                for feature_id in (feature.id, *feature.former_ids):
                    found[f"badges/{engine_id}/{feature_id}.svg"] = svg
    return found
