"""The reference pages: the original article claim by claim, the sources, and the data's date and
commit as text inside a sentence."""
from __future__ import annotations

import html
import re
from types import SimpleNamespace

from markupsafe import Markup

from macros.site.build import Build
from macros.site.renderers.base import render_template


MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~])")

# What each verdict of the original article's claims means: shown as a word and a symbol, never colour alone.
VERDICTS = {
    "confirmed": ("Confirmed", "\u2714", "The statements that carry the claim say what it says."),
    "refined": ("Refined", "\u25D0", "True with limits or details the statements add."),
    "contradicted": ("Contradicted", "\u2716", "A statement says otherwise."),
    "unverified": ("Unverified", "?", "A statement the claim rests on is unknown: nothing documents it."),
}

def seed_text(build: Build, page_url: str) -> Markup:
    """The original article, claim by claim, each marked with its verdict."""
    catalog = build.catalog
    from collections import Counter

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

    return render_template("seed.html", build, page_url, claims=catalog.seed_claims, paragraphs=paragraphs,
                   counts=[(v, counted[v]) for v in VERDICTS if counted[v]], verdicts=verdicts, verdict_mark=verdict_mark)

def sources_list(build: Build, page_url: str) -> Markup:
    catalog = build.catalog
    from macros.data.evidence import source_level

    primary_for = {sid: [e.name for e in catalog.engines.values() if source_level(s, e) == "primary"]
                   for sid, s in catalog.sources.items()}
    return render_template("sources.html", build, page_url, citations=catalog.citations(), primary_for=primary_for)

def data_date(build: Build, page_url: str) -> str:
    """The data date, as text inside a sentence: `*Data as of {{ data_date() }}.*`."""
    return build.catalog.data_date

def site_commit(build: Build, page_url: str) -> str:
    """The commit the site was built from, as text inside a sentence."""
    return build.settings.commit

def badge_example(build: Build, page_url: str) -> Markup:
    """One badge and its Markdown and HTML, for the Data and API page: the engine others are most
    often compared with, and its first feature it fully supports (any catalog has an example)."""
    catalog = build.catalog
    # max keeps the first of equals: ties go to the engine first in the catalog's order
    engine = max(catalog.engines.values(), key=lambda e: sum(e.id in other.featured for other in catalog.engines.values()))
    feature = next((f for f in catalog.features.values()
                    if catalog.statuses[engine.support[f.id].status].strength.id == "full"),
                   next(iter(catalog.features.values())))
    alt = f"{engine.name}, {feature.name}"
    badge, cell = f"badges/{engine.id}/{feature.id}.svg", f"features/{feature.id}/#{feature.id}--{engine.id}"
    site = "https://<this-site>/"
    # the snippets "Copy badge" gives (docs/assets/site.js, BADGE_SNIPPETS), as plain text the template escapes
    markdown_alt = MARKDOWN_PUNCTUATION.sub(r"\\\1", alt)
    snippets = [f"[![{markdown_alt}]({site}{badge})]({site}{cell})",
                f'<a href="{site}{cell}"><img src="{site}{badge}" alt="{html.escape(alt)}"></a>']
    return render_template("badge_example.html", build, page_url, engine=engine, feature=feature, badge_path=badge,
                           snippets=snippets)
