"""What the conclusions a page opens with are made of, derived from the data: whether a statement
counts as present or known, the evidence a conclusion rests on, where two engines differ, what each
ships of the serving stack, and scorecards by category. Which engine to choose when is drawn from
these in macros/site/views.py (comparison).

Nothing here is typed by hand, so every line stays true as the data changes, and no line rests
on an `unknown`: an engine meets a need only through statuses the guide accepts.
"""
from __future__ import annotations

from collections import Counter

from macros.data.evidence import LEVELS, NOT_RESEARCHED, strength_is
from macros.data.model import Catalog, Engine, Feature, Statement


def present(catalog: Catalog, statement: Statement) -> bool:
    """The engine does the thing in some form (the status's strength says so)."""
    return catalog.statuses[statement.status].strength.present


def known(catalog: Catalog, statement: Statement) -> bool:
    """The status rests on evidence: not unknown, not a placeholder."""
    return catalog.statuses[statement.status].strength.known


def researched(catalog: Catalog) -> list[Engine]:
    """Engines with no `not-researched` cell: only these appear on the home page, in the guide and in verdicts."""
    return [e for e in catalog.engines.values()
            if not any(strength_is(catalog, s, NOT_RESEARCHED) for s in e.support.values())]


def weakest_level(catalog: Catalog, statements) -> str:
    """The evidence a conclusion rests on: the weakest level among its statements."""
    level = catalog.levels
    found = {level[(s.engine, s.feature)] for s in statements}
    return next((lv for lv in reversed(LEVELS) if lv in found), LEVELS[0])


def documents_only(catalog: Catalog, a: str, b: str) -> list[tuple[Feature, Statement, Statement]]:
    """Features `a` documents in some form while `b` says it does not, or documents nothing."""
    ea, eb = catalog.engines[a], catalog.engines[b]
    return [(f, ea.support[f.id], eb.support[f.id]) for f in catalog.features.values()
            if present(catalog, ea.support[f.id]) and not present(catalog, eb.support[f.id])]


def differs(catalog: Catalog, x: Statement, y: Statement) -> bool:
    """The two statements differ: the statuses differ and at least one engine has the feature in some
    form. Not-supported against unknown is no difference: neither has it. The one test the verdict's
    count, the comparison's rows and its "differences only" switch all use."""
    if x.status == y.status:
        return False
    return present(catalog, x) or present(catalog, y) if known(catalog, x) and known(catalog, y) \
        else (present(catalog, x) and not known(catalog, y)) or (present(catalog, y) and not known(catalog, x))


def scorecard(catalog: Catalog, engine: Engine) -> list[tuple]:
    """(category, counts by status in rank order, documented count, total) for each category."""
    rows = []
    for category in catalog.categories:
        counts = Counter(engine.support[f.id].status for f in category.features)
        ordered = [(s, counts[s]) for s in catalog.statuses if counts[s]]
        documented = sum(n for s, n in counts.items() if catalog.statuses[s].strength.known)
        rows.append((category, ordered, documented, len(category.features)))
    return rows


def stack(catalog: Catalog, engine: Engine) -> list[tuple]:
    """The serving stack: each piece the guide says a team must otherwise build, and whether the
    engine ships it. (gap, statement, ships)"""
    return [(gap, engine.support[gap.feature], present(catalog, engine.support[gap.feature]))
            for gap in catalog.gaps if gap.feature in engine.support]
