"""View models: what a template draws, computed from the catalog, as named records. Templates
receive these and hold no data logic of their own."""
from __future__ import annotations

from dataclasses import dataclass

from macros.data.evidence import checked_against
from macros.data.freshness import CheckedAgainst, checked_against_release
from macros.data.model import Catalog, Category, Engine, Feature, Statement, Status


def pair_slug(a: str, b: str) -> str:
    """A comparison's address: the two engine ids, in the catalog's pair order."""
    return f"{a}-vs-{b}"


@dataclass(frozen=True)
class GridCell:
    engine: Engine
    statement: Statement
    status: Status

    @property
    def note(self) -> str:
        """The cell's short value where it is less than full support: the limit, named in the cell."""
        return self.statement.value if self.status.strength.tier != "fits" else ""


@dataclass(frozen=True)
class GridRow:
    feature: Feature
    cells: list[GridCell]


@dataclass(frozen=True)
class Grid:
    """A category drawn as a grid of symbols (the home page's hardware at a glance): one symbol and
    word per cell, from the status vocabulary, and a key naming only the kinds the grid uses."""

    category: Category
    engines: list[Engine]
    rows: list[GridRow]
    key: list[Status]  # the first status of each strength the grid uses: its symbol, and the strength's word


def grid(catalog: Catalog, category: Category, engines: list[Engine]) -> Grid:
    rows = [GridRow(f, [GridCell(e, e.support[f.id], catalog.statuses[e.support[f.id].status]) for e in engines])
            for f in category.features]
    used = {cell.status.strength.id for row in rows for cell in row.cells}
    key, seen = [], set()
    for status in catalog.statuses.values():
        if status.strength.id in used and status.strength.id not in seen:
            key.append(status)
            seen.add(status.strength.id)
    return Grid(category, engines, rows, key)


# --- a comparison of two engines --------------------------------------------------------------

@dataclass(frozen=True)
class Tally:
    """How two engines' statements compare, counted once for the verdict, the toolbar and
    "differences only": a feature differs when the statuses differ and at least one engine has it
    in some form (not-supported against unknown is no difference)."""

    same: int  # the same status, and both rest on evidence
    differ: int  # differ_both + len(only_left) + len(only_right)
    differ_both: int  # both document the feature, differently
    only_left: list  # features only the left engine documents (the right says nothing), in some form
    only_right: list
    undocumented: int  # features at least one of them does not document


@dataclass(frozen=True)
class Reason:
    """A need one engine meets and the other does not: its tier, the limits that make it less than a
    plain fit, and the evidence of the statements that meet it."""

    need: object
    verdict: object  # macros.site.guide.Verdict of the engine that meets it
    level: str


@dataclass(frozen=True)
class Row:
    feature: Feature
    left: Statement
    right: Statement
    differs: bool
    undocumented: bool  # one of the two does not document it

    @property
    def classes(self) -> str:
        return "di-row" + (" di-differs" if self.differs else "") + (" di-undocumented" if self.undocumented else "")


@dataclass(frozen=True)
class Comparison:
    left: Engine
    right: Engine
    tally: Tally
    rows: dict  # category id -> [Row]
    both_ship: list  # needs both engines meet, in any tier
    choose: tuple  # ([Reason] for left, [Reason] for right)
    kinds: str  # a plain sentence when the two are different kinds of software, or ""
    unresearched: list  # the engines of the pair with not-researched cells: no verdict is drawn from those cells


def tally(catalog: Catalog, left: Engine, right: Engine) -> Tally:
    from macros.site.verdict import differs, known, present

    same = differ_both = undocumented = 0
    only_left, only_right = [], []
    for feature in catalog.features.values():
        a, b = left.support[feature.id], right.support[feature.id]
        both_known = known(catalog, a) and known(catalog, b)
        undocumented += not both_known
        if both_known and a.status == b.status:
            same += 1
        elif differs(catalog, a, b):
            if both_known:
                differ_both += 1
            else:
                (only_left if present(catalog, a) else only_right).append(feature)
    return Tally(same, differ_both + len(only_left) + len(only_right), differ_both, only_left, only_right, undocumented)


def _concerns(need, engine_ids) -> bool:
    """A need written for some engines' niche (`for` in data/guide.yml) concerns only their pairs."""
    return not need.only_for or bool(set(need.only_for) & set(engine_ids))


def _kinds_sentence(catalog: Catalog, left: Engine, right: Engine) -> str:
    """A plain sentence when the two are different kinds of software, from their interface cells
    (data/guide.yml `interfaces`) and their `kind`."""
    from macros.site.verdict import present

    server, library = catalog.interfaces.get("server"), catalog.interfaces.get("library")

    def shape(engine):
        if server and server in engine.support and present(catalog, engine.support[server]):
            return "server"
        if library and library in engine.support and present(catalog, engine.support[library]):
            return "library"
        return ""

    a, b = shape(left), shape(right)
    if a and b and a != b:
        lib, srv = (left, right) if a == "library" else (right, left)
        return (f"{lib.name} is a library used from your own code, without a built-in server; {srv.name} is a "
                f"server with an HTTP API. One is not a drop-in replacement for the other.")
    if left.kind and right.kind and left.kind.value != right.kind.value:
        runtime, engine = (left, right) if left.kind.value == "runtime" else (right, left)
        bundled = ", ".join(catalog.engines[p.engine].name if p.engine in catalog.engines else p.engine
                            for p in runtime.kind.packages)
        return (f"{runtime.name} is a runtime that packages {bundled or 'other engines'} with model management; "
                f"{engine.name} is an engine with its own kernels, scheduler and KV cache.")
    return ""


def comparison(catalog: Catalog, a: str, b: str) -> Comparison:
    from macros.data.evidence import NOT_RESEARCHED, strength_is
    from macros.site import guide as guide_logic
    from macros.site.verdict import differs, known, weakest_level

    left, right = catalog.engines[a], catalog.engines[b]
    unresearched = [e for e in (left, right) if any(strength_is(catalog, s, NOT_RESEARCHED) for s in e.support.values())]
    rows = {}
    for category in catalog.categories:
        rows[category.id] = []
        for feature in category.features:
            x, y = left.support[feature.id], right.support[feature.id]
            rows[category.id].append(Row(feature, x, y, differs(catalog, x, y),
                                         not (known(catalog, x) and known(catalog, y))))
    both, choose = [], ([], [])
    if not unresearched:
        for need in catalog.needs:
            if not _concerns(need, (a, b)):
                continue
            mine, theirs = guide_logic.judge(catalog, need, a), guide_logic.judge(catalog, need, b)
            if mine.met and theirs.met:
                both.append(need)
            for side, (win, lose, engine) in enumerate(((mine, theirs, left), (theirs, mine, right))):
                if win.met and not lose.met:
                    used = [engine.support[c.feature] for c in win.checks if c.ok]
                    choose[side].append(Reason(need, win, weakest_level(catalog, used)))
    return Comparison(left, right, tally(catalog, left, right), rows, both, choose,
                      _kinds_sentence(catalog, left, right), unresearched)


@dataclass(frozen=True)
class Freshness:
    """What an engine's data was read against, in words first: the recorded stable release and the
    releases since, the days it was read; the versions and commits of the pages read come after."""

    release: CheckedAgainst | None
    read: str  # "on 2026-12-01", or "between 2026-11-30 and 2026-12-01"
    versions: list[str]  # versions the engine's own cited pages name
    commits: list[str]  # commits its own cited files were read at (10 characters)


def freshness(catalog: Catalog, engine: Engine) -> Freshness:
    against = checked_against(catalog, engine)
    oldest, newest = against["oldest"], against["newest"]
    read = f"on {newest}" if oldest == newest else f"between {oldest} and {newest}"
    return Freshness(checked_against_release(engine), read, against["versions"], against["commits"])


@dataclass(frozen=True)
class EnginePage:
    """An engine's page opens with the answer: how much it documents, what of the serving stack it
    ships, whom to compare it with, and what its data was checked against."""

    engine: Engine
    documented: int
    total: int
    scores: list  # verdict.scorecard rows
    layers: list  # verdict.stack rows: (gap, statement, ships)
    compare: list  # (slug, other engine, featured), featured first, then by name
    freshness: Freshness

    @property
    def ships(self) -> int:
        return sum(1 for *_, ships in self.layers if ships)


def engine_page(catalog: Catalog, engine: Engine) -> EnginePage:
    from macros.site import verdict

    scores = verdict.scorecard(catalog, engine)
    others = [o for o in catalog.engines.values() if o.id != engine.id]
    featured = lambda o: o.id in engine.featured or engine.id in o.featured  # noqa: E731
    others.sort(key=lambda o: (not featured(o), o.name.lower()))
    compare = [(pair_slug(*sorted((engine.id, o.id))), o, featured(o)) for o in others]
    return EnginePage(engine, sum(known for _, _, known, _ in scores), sum(total for *_, total in scores),
                      scores, verdict.stack(catalog, engine), compare, freshness(catalog, engine))
