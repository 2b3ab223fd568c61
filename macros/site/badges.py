"""Status badges for wikis: /badges/<engine>/<feature>.svg, one small SVG per statement, written
after the build (they are files, not pages). Text is XML-escaped; the title element makes the
badge readable by screen readers; colour repeats what the label says."""
from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from macros.data.model import Catalog

# The site's light-scheme status colours (docs/assets/site.css), dark enough for white text.
COLOURS = {"supported": "#1b7a3a", "partial": "#8a5a00", "experimental": "#6a3fb5", "via-plugin": "#1d5fa8",
           "not-supported": "#b3261e", "unknown": "#5f6368", "documented": "#3c4a5c", "not-researched": "#5f6368"}
CHAR_WIDTH = 6.6  # px per character of 11 px Verdana-like text: close enough for a badge


def badge_svg(left: str, right: str, colour: str, title: str) -> str:
    left_w, right_w = int(len(left) * CHAR_WIDTH) + 12, int(len(right) * CHAR_WIDTH) + 12
    width = left_w + right_w
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="20" role="img" '
            f'aria-label={quoteattr(title)}><title>{escape(title)}</title>'
            f'<rect width="{left_w}" height="20" fill="#444"/>'
            f'<rect x="{left_w}" width="{right_w}" height="20" fill="{colour}"/>'
            f'<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">'
            f'<text x="6" y="14">{escape(left)}</text><text x="{left_w + 6}" y="14">{escape(right)}</text></g></svg>\n')


def badges(catalog: Catalog) -> dict[str, str]:
    """Relative path -> SVG text, for every statement."""
    files = {}
    for engine in catalog.engines.values():
        for feature in catalog.features.values():
            st = engine.support[feature.id]
            label = catalog.statuses[st.status].label + (f": {st.value}" if st.value else "")
            title = f"{engine.name}, {feature.name}: {label} (checked {st.checked})"
            files[f"{engine.id}/{feature.id}.svg"] = badge_svg(f"{engine.name} · {feature.name}", label,
                                                               COLOURS.get(st.status, "#5f6368"), title)
    return files


def write_badges(catalog: Catalog, target: Path) -> None:
    for name, text in badges(catalog).items():
        path = Path(target) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
