"""How much a statement's evidence weighs, derived from its sources rather than typed.

A source is `primary` for an engine when its URL falls under one of that engine's official
URL prefixes (its docs site, repository, package page), `claim` when it is unverified prose
(kind `claim`, such as the original article), and `secondary` otherwise: SGLang's docs are
primary for SGLang and secondary for a statement about vLLM. A statement's level is the best
level among its sources. The check, the site and the downloads all read these functions.
"""
from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass
from urllib.parse import urlsplit

from macros.data.model import Catalog, Engine, Source, Statement

LEVELS = ("primary", "secondary", "claim")  # best first
MAX_AGE_DAYS = 180  # a statement checked longer ago than this is stale
# Strength ids (data/schema/status.schema.json, x-strengths) the rules and views name: the statuses of
# each are whatever the vocabulary says
ABSENT, UNDOCUMENTED, NOT_RESEARCHED = "absent", "undocumented", "not-researched"


def source_level(source: Source, engine: Engine) -> str:
    if source.kind == "claim":
        return "claim"
    if source.url and source.url.startswith(tuple(engine.official_urls)):  # any of them
        return "primary"
    return "secondary"


def statement_level(catalog: Catalog, statement: Statement) -> str:
    """The best level among the statement's sources, for its engine."""
    engine = catalog.engines[statement.engine]
    levels = {source_level(catalog.sources[sid], engine) for sid in statement.sources if sid in catalog.sources}
    return next((level for level in LEVELS if level in levels), "claim")


def is_bare_root(url: str) -> bool:
    """A site's front page (`https://docs.example.org/`), which backs no particular claim."""
    return urlsplit(url).path in ("", "/") and not urlsplit(url).query


def strength_is(catalog: Catalog, statement: Statement, strength_id: str) -> bool:
    """The statement's status has this strength (a status the vocabulary lacks has none)."""
    status = catalog.statuses.get(statement.status)
    return status is not None and status.strength.id == strength_id


def is_known(catalog: Catalog, statement: Statement) -> bool:
    """The status rests on evidence (not unknown, not a placeholder): shown as a fact."""
    status = catalog.statuses.get(statement.status)
    return status is not None and status.strength.known


def statuses_of(catalog: Catalog, strength_id: str) -> list[str]:
    """The status ids of one strength, in rank order."""
    return [s.id for s in catalog.statuses.values() if s.strength.id == strength_id]


def age_days(checked: str, today: dt.date) -> int:
    return (today - dt.date.fromisoformat(checked)).days


def is_stale(statement: Statement, today: dt.date, max_age: int = MAX_AGE_DAYS) -> bool:
    return age_days(statement.checked, today) > max_age


@dataclass(frozen=True)
class Quality:
    """One engine's data at a glance: the numbers of the data-quality page, catalog.json and `make check`."""

    engine: str
    statements: int
    by_status: dict
    by_level: dict  # over known statements only: unknowns rest on no evidence by definition
    known: int
    primary_share: float  # of known statements
    oldest_check: str
    newest_check: str
    unknown: int
    not_researched: int
    stale: int

    @property
    def mostly_secondary(self) -> bool:
        """More than half of the known statements rest on no primary source."""
        return self.known > 0 and self.primary_share < 0.5


def quality(catalog: Catalog, engine: Engine, today: dt.date, max_age: int = MAX_AGE_DAYS) -> Quality:
    statements = list(engine.support.values())
    level = catalog.levels
    known = [s for s in statements if is_known(catalog, s)]
    by_level = Counter(level[(s.engine, s.feature)] for s in known)
    checks = sorted(s.checked for s in statements)
    return Quality(
        engine=engine.id, statements=len(statements), by_status=dict(Counter(s.status for s in statements)),
        by_level={lv: by_level.get(lv, 0) for lv in LEVELS}, known=len(known),
        primary_share=by_level.get("primary", 0) / len(known) if known else 0.0,
        oldest_check=checks[0] if checks else "", newest_check=checks[-1] if checks else "",
        unknown=sum(strength_is(catalog, s, UNDOCUMENTED) for s in statements),
        not_researched=sum(strength_is(catalog, s, NOT_RESEARCHED) for s in statements),
        stale=sum(is_stale(s, today, max_age) for s in statements),
    )


def checked_against(catalog: Catalog, engine: Engine) -> dict:
    """What an engine's statements were checked against, derived from its cited sources: the
    releases and commits they name, and the oldest and newest day one was read."""
    cited = {sid for s in engine.support.values() for sid in s.sources} | set(engine.sources)
    sources = [catalog.sources[sid] for sid in sorted(cited) if sid in catalog.sources]
    own = [s for s in sources if source_level(s, engine) == "primary"]
    days = sorted(s.checked for s in sources)
    return {
        "versions": sorted({s.version for s in own if s.version}),
        "commits": sorted({s.commit[:10] for s in own if s.commit}),
        "oldest": days[0] if days else "", "newest": days[-1] if days else "",
    }
