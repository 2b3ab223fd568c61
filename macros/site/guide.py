"""The decision guide's logic: which engines meet which needs, computed from statements.

The interactive guide in the browser only combines these precomputed answers, so the
pages, the exports and the tests all rest on this one function.
"""
from __future__ import annotations

from dataclasses import dataclass

from macros.data.model import Catalog, Need



@dataclass(frozen=True)
class Check:
    feature: str
    status: str
    ok: bool


@dataclass(frozen=True)
class Verdict:
    need: str
    engine: str
    met: bool
    checks: tuple[Check, ...]


def judge(catalog: Catalog, need: Need, engine_id: str) -> Verdict:
    """Does the engine meet the need? `match: all` needs every requirement, `any` one of them."""
    support = catalog.engines[engine_id].support
    checks = tuple(
        Check(r.feature, support[r.feature].status if r.feature in support else "unknown",
              r.feature in support and support[r.feature].status in r.statuses)
        for r in need.requires
    )
    combine = any if need.match == "any" else all
    return Verdict(need.id, engine_id, combine(c.ok for c in checks), checks)


def verdicts(catalog: Catalog) -> dict[tuple[str, str], Verdict]:
    """(need id, engine id) -> Verdict, for every need and engine."""
    return {(n.id, e): judge(catalog, n, e) for n in catalog.needs for e in catalog.engines}


def fitting_engines(catalog: Catalog, need_ids) -> list[str]:
    """Engines that meet every one of the given needs, in id order."""
    table = verdicts(catalog)
    return [e for e in catalog.engines if all(table[(n, e)].met for n in need_ids)]


def leaves_to_the_team(catalog: Catalog, statement) -> bool:
    """The engine does not ship it in any form (its status's strength says so): the team supplies it."""
    return not catalog.statuses[statement.status].strength.present


def build_yourself(catalog: Catalog) -> dict[str, list[tuple]]:
    """For each engine, (gap, statement) pairs where the team must supply the feature itself."""
    return {
        e.id: [(gap, e.support[gap.feature]) for gap in catalog.gaps
               if gap.feature in e.support and leaves_to_the_team(catalog, e.support[gap.feature])]
        for e in catalog.engines.values()
    }
