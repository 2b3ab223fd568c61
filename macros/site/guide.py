"""The decision guide's logic: which engines meet which needs, and how well, computed from statements.

A need names the features it requires and the statuses that satisfy each. An engine meets it in
one of three tiers, from the strength of the statuses that satisfy it (data/schema/status.schema.json):
it fits, it fits with limits (a partial or experimental cell, whose limit is named from the cell),
or it needs a plugin. A status the need does not accept falls short, in the words the vocabulary
gives it ("only partial", "lacks"). The interactive guide in the browser only combines these
precomputed answers, so the pages, the exports and the tests all rest on this one function.
"""
from __future__ import annotations

from dataclasses import dataclass

from macros.data.model import Catalog, Need

# Tiers, best first: what a reader is told about an engine for a need.
TIERS = ("fits", "limits", "plugin", "no")
TIER_WORDS = {"fits": "fits", "limits": "fits with limits", "plugin": "needs a plugin", "no": "does not fit"}


@dataclass(frozen=True)
class Check:
    feature: str
    status: str
    ok: bool  # the status is one the need accepts
    tier: str  # the tier this check puts the engine in: its status's strength when ok, "no" otherwise
    limit: str = ""  # for a limited or plugin tier: the cell's short value, naming the limit
    short_of: str = ""  # for a check that is not ok: how it falls short, "only partial", "lacks"
    scope: tuple[str, ...] = ()  # the hardware the cell's support is documented on, where it says


@dataclass(frozen=True)
class Verdict:
    need: str
    engine: str
    met: bool
    checks: tuple[Check, ...]
    tier: str  # fits, limits, plugin or no

    @property
    def limits(self) -> list[Check]:
        """The checks that make the tier less than a plain fit, each naming its limit."""
        return [c for c in self.checks if c.ok and c.tier != "fits"]


def _check(catalog: Catalog, requirement, support: dict) -> Check:
    statement = support.get(requirement.feature)
    status_id = statement.status if statement else ""  # a catalog read tolerantly may lack a statement
    status = catalog.statuses.get(status_id)
    ok = statement is not None and status_id in requirement.statuses
    tier = status.strength.tier if ok and status else "no"
    if ok and tier == "no":  # a need that accepts a status of no strength: the cell says what there is
        tier = "limits"
    return Check(requirement.feature, status_id, ok, tier, statement.value if statement and tier != "fits" else "",
                 "" if ok or status is None else status.short_of, tuple(statement.scope) if statement else ())


def judge(catalog: Catalog, need: Need, engine_id: str) -> Verdict:
    """Does the engine meet the need, and how well? `match: all` needs every requirement (the weakest
    check sets the tier), `any` one of them (the best met check sets it)."""
    support = catalog.engines[engine_id].support
    checks = tuple(_check(catalog, r, support) for r in need.requires)
    met_checks = [c for c in checks if c.ok]
    if need.match == "any":
        met = bool(met_checks)
        tier = min((c.tier for c in met_checks), key=TIERS.index) if met else "no"
    else:
        met = len(met_checks) == len(checks)
        tier = max((c.tier for c in checks), key=TIERS.index) if met else "no"
    return Verdict(need.id, engine_id, met, checks, tier)


def hardware_of(catalog: Catalog, need: Need) -> tuple[str, ...]:
    """The hardware features a need is about, when every feature it requires is hardware (else ())."""
    from macros.data.rules import HARDWARE

    hardware = {f.id for c in catalog.categories if c.id == HARDWARE for f in c.features}
    features = tuple(r.feature for r in need.requires)
    return features if features and all(f in hardware for f in features) else ()


def scope_clashes(catalog: Catalog, need_ids, engine_id: str) -> list[tuple[str, str, tuple]]:
    """(need, hardware need, the scope) for each need this engine meets only on hardware that none of
    the chosen hardware needs names: "GGUF is documented on CUDA and Ascend, not on Apple silicon"."""
    chosen = [n for n in catalog.needs if n.id in set(need_ids)]
    clashes = []
    for hw_need in chosen:
        hardware = {c.feature for c in judge(catalog, hw_need, engine_id).checks if c.ok} if hardware_of(catalog, hw_need) \
            else set()
        if not hardware:
            continue
        for need in chosen:
            if need is hw_need or hardware_of(catalog, need):
                continue
            for check in judge(catalog, need, engine_id).checks:
                if check.ok and check.scope and not hardware & set(check.scope):
                    clashes.append((need.id, hw_need.id, check.scope))
    return clashes


def verdicts(catalog: Catalog) -> dict[tuple[str, str], Verdict]:
    """(need id, engine id) -> Verdict, for every need and engine."""
    return {(n.id, e): judge(catalog, n, e) for n in catalog.needs for e in catalog.engines}


def fitting_engines(catalog: Catalog, need_ids) -> list[str]:
    """Engines that meet every one of the given needs (in any tier), in id order."""
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
