"""The conclusions a page opens with, derived from the data and the guide: which engine to choose
when, what each leaves to the team, where two engines differ, and scorecards by category.

Nothing here is typed by hand, so every line stays true as the data changes, and no line rests
on an `unknown`: an engine meets a need only through statuses the guide accepts.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from macros.data.evidence import LEVELS, NOT_RESEARCHED, levels
from macros.data.model import Catalog, Engine, Feature, Need, Statement
from macros.site import guide as guide_logic

# Statuses that say an engine does the thing, in some form; the rest say it does not, or nobody knows.
POSITIVE = ("supported", "partial", "experimental", "via-plugin", "documented")
NOT_DOCUMENTED = ("unknown", NOT_RESEARCHED)
# Sort order of statuses, best first: the matrix sorts a column by it.
RANK = ("supported", "documented", "partial", "via-plugin", "experimental", "not-supported", "unknown", NOT_RESEARCHED)


def researched(catalog: Catalog) -> list[Engine]:
    """Engines with no `not-researched` cell: only these appear on the home page, in the guide and in verdicts."""
    return [e for e in catalog.engines.values() if all(s.status != NOT_RESEARCHED for s in e.support.values())]


def weakest_level(catalog: Catalog, statements) -> str:
    """The evidence a conclusion rests on: the weakest level among its statements."""
    level = levels(catalog)
    found = {level[(s.engine, s.feature)] for s in statements}
    return next((lv for lv in reversed(LEVELS) if lv in found), LEVELS[0])


@dataclass(frozen=True)
class Reason:
    """One line of a verdict: a need one engine meets and the other does not, and its evidence."""

    need: Need
    level: str


def choose_over(catalog: Catalog, a: str, b: str) -> list[Reason]:
    """The needs `a` meets and `b` does not, each with the evidence of `a`'s statements that meet it."""
    reasons = []
    for need in catalog.needs:
        mine, theirs = guide_logic.judge(catalog, need, a), guide_logic.judge(catalog, need, b)
        if mine.met and not theirs.met:
            used = [catalog.engines[a].support[c.feature] for c in mine.checks if c.ok]
            reasons.append(Reason(need, weakest_level(catalog, used)))
    return reasons


def documents_only(catalog: Catalog, a: str, b: str) -> list[tuple[Feature, Statement, Statement]]:
    """Features `a` documents in some form while `b` says it does not, or documents nothing."""
    ea, eb = catalog.engines[a], catalog.engines[b]
    return [(f, ea.support[f.id], eb.support[f.id]) for f in catalog.features.values()
            if ea.support[f.id].status in POSITIVE and eb.support[f.id].status not in POSITIVE]


def differs(x: Statement, y: Statement) -> bool:
    """Both engines document the feature, and say different things about it."""
    return x.status not in NOT_DOCUMENTED and y.status not in NOT_DOCUMENTED and x.status != y.status


def scorecard(catalog: Catalog, engine: Engine) -> list[tuple]:
    """(category, counts by status in RANK order, documented count, total) for each category."""
    rows = []
    for category in catalog.categories:
        counts = Counter(engine.support[f.id].status for f in category.features)
        ordered = [(s, counts[s]) for s in RANK if counts[s]]
        known = sum(n for s, n in counts.items() if s not in NOT_DOCUMENTED)
        rows.append((category, ordered, known, len(category.features)))
    return rows


def stack(catalog: Catalog, engine: Engine) -> list[tuple]:
    """The serving stack: each piece the guide says a team must otherwise build, and whether the
    engine ships it. (gap, statement, ships)"""
    return [(gap, engine.support[gap.feature], engine.support[gap.feature].status not in guide_logic.UNMET)
            for gap in catalog.gaps if gap.feature in engine.support]


def grid_kind(status: str) -> str:
    """How a hardware grid shows a status: in the core, through a plugin, not at all, or not known."""
    if status == "via-plugin":
        return "plugin"
    if status in ("supported", "partial", "experimental", "documented"):
        return "core"
    if status == "not-supported":
        return "none"
    return "unknown"
