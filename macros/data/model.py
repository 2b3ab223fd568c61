"""The catalog: small typed records built from validated data, each knowing where it came from."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations

from macros.data.load import Document, Pointer
from macros.data.problems import Problem


@dataclass(frozen=True)
class Origin:
    """The file and place a record was read from, so a rule can point at it."""

    doc: Document
    pointer: Pointer

    def problem(self, message: str, tip: str = "", at: Pointer = (), key: bool = False) -> Problem:
        return self.doc.problem(self.pointer + tuple(at), message, tip, key=key)

    @property
    def path(self) -> str:
        return self.doc.path


@dataclass(frozen=True)
class Strength:
    """How strongly a status says the engine does the thing: what the views make of it
    (data/schema/status.schema.json, `x-strengths`)."""

    id: str
    label: str
    present: bool  # the engine has it in some form (documented, in comparisons and the serving stack)
    known: bool  # the status rests on evidence: shown as a fact, and two of them can differ
    score: int  # the diff flags a move to a higher score that no new primary source backs
    tier: str  # in the guide: fits, limits (fits with limits), plugin (needs a plugin) or no
    grid: str  # the kind a grid of symbols shows


@dataclass
class Status:
    """One status of the vocabulary (data/schema/status.schema.json): everything a view shows of it."""

    id: str
    label: str
    icon: str
    meaning: str
    symbol: str = ""
    rank: int = 0  # sort order, best first
    strength: Strength | None = field(default=None, compare=False)
    colours: dict = field(default_factory=dict)  # scheme (light, dark) -> colour
    short_of: str = ""  # how the guide and verdicts say it falls short of a need: "only partial", "lacks"


@dataclass
class Source:
    id: str
    title: str
    publisher: str
    kind: str
    checked: str
    url: str = ""
    page: str = ""  # a page of this site, for the seed text that has no public URL
    note: str = ""
    version: str = ""  # the release the document describes
    commit: str = ""  # the commit of the repository file that was read
    quote: str = ""  # a short verbatim sentence the claim rests on
    origin: Origin = field(default=None, repr=False, compare=False)


@dataclass
class Feature:
    id: str
    name: str
    description: str
    category: str
    former_ids: list[str] = field(default_factory=list)
    origin: Origin = field(default=None, repr=False, compare=False)


@dataclass
class Retired:
    """A feature that was split or removed: its old page says what it became."""

    id: str
    name: str
    became: list[str]
    why: str
    origin: Origin = field(default=None, repr=False, compare=False)


@dataclass
class Category:
    id: str
    name: str
    description: str
    features: list[Feature]
    grid: bool = False  # shown on the home page as a grid of symbols
    origin: Origin = field(default=None, repr=False, compare=False)


@dataclass
class Statement:
    engine: str
    feature: str
    status: str
    detail: str
    sources: list[str]
    checked: str
    value: str = ""
    since: str = ""  # the first release that had it, where a source says so
    basis: str = ""  # for not-supported: stated-absent or exhaustive-list
    searched: list[str] = field(default_factory=list)  # for unknown: where the project's docs were searched
    scope: list[str] = field(default_factory=list)  # hardware feature ids its support is documented on, where restricted
    origin: Origin = field(default=None, repr=False, compare=False)


@dataclass
class Fact:
    """An engine fact that is not a feature: its maintenance status, its latest release."""

    value: str
    detail: str
    sources: list[str]
    date: str = ""
    origin: Origin = field(default=None, repr=False, compare=False)


@dataclass
class Release:
    """One release of an engine, as a source records it."""

    version: str
    date: str
    sources: list[str]
    pre_release: bool = False  # in the release history: an rc, beta, alpha or dev release
    origin: Origin = field(default=None, repr=False, compare=False)


@dataclass
class LatestRelease:
    """The newest stable release, and the newest pre-release when there is one newer than it."""

    stable: Release
    pre_release: Release | None = None
    origin: Origin = field(default=None, repr=False, compare=False)


@dataclass
class Channels:
    """Where the project itself publishes its releases: package names on PyPI, a GitHub repository."""

    pypi: list[str] = field(default_factory=list)
    github: str = ""
    origin: Origin = field(default=None, repr=False, compare=False)


@dataclass
class Bundled:
    """An engine a runtime packages, with its version where known."""

    engine: str
    version: str = ""


@dataclass
class Kind:
    """What kind of software it is: an engine (owns kernels, scheduler, KV cache) or a runtime
    (packages one or more engines with model management)."""

    value: str
    detail: str
    sources: list[str]
    packages: list[Bundled] = field(default_factory=list)
    origin: Origin = field(default=None, repr=False, compare=False)


@dataclass
class Engine:
    id: str
    name: str
    summary: str
    homepage: str
    repository: str
    license: str
    sources: list[str]
    support: dict[str, Statement]
    file_stem: str
    official_urls: list[str] = field(default_factory=list)
    maintenance: Fact | None = None
    latest_release: LatestRelease | None = None
    releases: Channels | None = None
    kind: Kind | None = None
    release_history: list[Release] = field(default_factory=list)  # every release `make refresh --write` saw
    featured: list[str] = field(default_factory=list)  # engines it is most often compared with
    former_ids: list[str] = field(default_factory=list)
    origin: Origin = field(default=None, repr=False, compare=False)

    def facts(self) -> list:
        """The engine facts that cite sources: maintenance, kind, and each recorded release."""
        found = [f for f in (self.maintenance, self.kind) if f]
        if self.latest_release:
            found += [r for r in (self.latest_release.stable, self.latest_release.pre_release) if r]
        return found


@dataclass
class Requirement:
    feature: str
    statuses: list[str]
    origin: Origin = field(default=None, repr=False, compare=False)


@dataclass
class Need:
    id: str
    label: str
    why: str
    match: str
    requires: list[Requirement]
    only_for: list[str] = field(default_factory=list)  # the engines whose niche it describes (guide.yml `for`)
    origin: Origin = field(default=None, repr=False, compare=False)


@dataclass
class Gap:
    """What a team must build or supply itself when an engine lacks a feature."""

    feature: str
    supply: str
    origin: Origin = field(default=None, repr=False, compare=False)


@dataclass
class Carrier:
    """A statement that carries a claim of the original article, and the statuses the claim implies."""

    engine: str
    feature: str
    implies: list[str]
    origin: Origin = field(default=None, repr=False, compare=False)


@dataclass
class SeedClaim:
    """One sentence of the original article, and what checking it found."""

    id: str
    paragraph: int
    text: str
    verdict: str
    carried_by: list[Carrier]
    refines: str = ""  # for a refined claim whose statements carry its status: what they add
    origin: Origin = field(default=None, repr=False, compare=False)


@dataclass
class Catalog:
    statuses: dict[str, Status]
    categories: list[Category]
    sources: dict[str, Source]
    engines: dict[str, Engine]
    needs: list[Need]
    gaps: list[Gap]
    seed_claims: list[SeedClaim] = field(default_factory=list)
    retired: list[Retired] = field(default_factory=list)
    seed_source: str = ""  # the source id of the original article
    interfaces: dict = field(default_factory=dict)  # guide.yml: which features say server, which library
    # every record as written, duplicates included, for the rules that look for them
    source_list: list[Source] = field(default_factory=list, repr=False)
    need_list: list[Need] = field(default_factory=list, repr=False)
    # False when a record was left out for a schema problem: rules that need the
    # whole picture (a source never cited) then stay quiet rather than mislead
    complete: bool = True
    # ids declared by records that failed the schema: still valid targets of a reference,
    # so one broken record does not cascade into "unknown id" problems elsewhere
    broken_ids: set = field(default_factory=set, repr=False)
    # data files (relative to data/) that did not load, and why: rules that need one stay
    # quiet, and its problems are printed first, as the cause of what follows
    unread: set = field(default_factory=set, repr=False)
    unreadable: list = field(default_factory=list, repr=False)

    @cached_property  # derived once: cells, rules and templates look features up thousands of times
    def features(self) -> dict[str, Feature]:
        found: dict[str, Feature] = {}
        for category in self.categories:
            for feature in category.features:
                found.setdefault(feature.id, feature)
        return found

    @cached_property  # every cell, matrix row and CSV line asks: computed once per catalog
    def levels(self) -> dict[tuple[str, str], str]:
        """(engine id, feature id) -> evidence level, for every statement (macros/data/evidence.py)."""
        from macros.data.evidence import statement_level

        return {(s.engine, s.feature): statement_level(self, s) for s in self.statements()}

    def statements(self):
        for engine in self.engines.values():
            yield from engine.support.values()

    def pairs(self) -> list[tuple[Engine, Engine]]:
        """Every pair of engines, each once, in id order: the comparison pages."""
        return list(combinations(sorted(self.engines.values(), key=lambda e: e.id), 2))

    def citations(self) -> dict[str, list[Statement]]:
        """Source id -> the statements citing it."""
        cited: dict[str, list[Statement]] = {sid: [] for sid in self.sources}
        for statement in self.statements():
            for sid in statement.sources:
                cited.setdefault(sid, []).append(statement)
        return cited

    def redirects(self) -> dict[str, str]:
        """Old page -> current page, for every renamed feature and engine (paths under docs/)."""
        moves = {f"features/{old}.md": f"features/{f.id}.md" for f in self.features.values() for old in f.former_ids}
        moves.update({f"engines/{old}.md": f"engines/{e.id}.md" for e in self.engines.values() for old in e.former_ids})
        for a, b in self.pairs():
            for x in [a.id, *a.former_ids]:
                for y in [b.id, *b.former_ids]:
                    old = "-vs-".join(sorted((x, y)))
                    if old != f"{a.id}-vs-{b.id}":
                        moves[f"compare/{old}.md"] = f"compare/{a.id}-vs-{b.id}.md"
        return moves

    @cached_property  # every CSV row and page footer asks: computed once
    def data_date(self) -> str:
        """The newest check of any statement or source: how fresh the data is."""
        dates = [s.checked for s in self.statements()] + [s.checked for s in self.sources.values()]
        return max(dates, default="")
