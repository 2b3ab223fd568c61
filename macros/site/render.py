"""HTML for every data-driven part of the site, rendered from the Jinja templates in macros/site/templates.

Each public function takes the build (macros/site/build.py: the checked catalog, the settings, the
fragments shared by the pages of one build) and the URL of the page it renders into (links are
made relative to it, so the site works under any sub-path) and returns safe HTML. Pages call them
through the one-line macros defined in macros/__init__.py.
"""
from __future__ import annotations

import json
from types import SimpleNamespace

from markupsafe import Markup

from macros.data.evidence import MAX_AGE_DAYS, is_known, quality
from macros.data.model import Catalog
from macros.site import guide as guide_logic, verdict, views
from macros.site.build import EVERY_PAIR_UP_TO, Build
from macros.site.jinja import environment
from macros.site.markdown import plain
from macros.site.views import pair_slug


def site_root(page_url: str) -> str:
    """The relative prefix from a page (`compare/a-vs-b/`) back to the site root (`../../`)."""
    parts = [part for part in page_url.split("/") if part]
    if page_url and not page_url.endswith("/"):
        parts = parts[:-1]  # a file URL such as 404.html sits in its folder
    return "../" * len(parts)


# How evidence is shown: a symbol that differs in shape (never colour alone), a word, a meaning.
EVIDENCE = {
    "primary": ("\u25C6", "Primary source", "Rests on the engine's own docs, code, release notes or package page."),
    "secondary": ("\u25C7", "Secondary only", "Rests only on pages by others: another project's docs, articles, forums."),
    "claim": ("\u25CB", "Claim only", "Rests only on unverified prose such as the original article."),
}
BASES = {
    "stated-absent": "The project says it does not do this.",
    "exhaustive-list": "The project's own list of what it supports leaves this out.",
}
SOFTWARE_KINDS = {"engine": "Engine", "runtime": "Runtime"}
KINDS = {"docs": "documentation", "repo": "repository file", "readme": "README", "release-notes": "release notes",
         "package-index": "package page", "article": "article", "discussion": "discussion",
         "issue": "issue or pull request", "claim": "claim"}


def _helpers(build: Build, root: str) -> dict:
    """Template globals for one page depth. Cells and badges repeat thousands of times
    across a big site, so each is rendered once and reused (the build benchmark shows why)."""
    catalog, env, cache = build.catalog, environment(), build.rendered
    numbers = cache.setdefault("numbers", {sid: i + 1 for i, sid in
                                           enumerate(s for s in catalog.sources if catalog.sources[s].kind != "claim")})
    level = catalog.levels

    def source_href(source):
        return source.url or root + source.page.removesuffix(".md") + "/"

    def once(key, template, **context):
        if key not in cache:
            cache[key] = Markup(env.get_template(template).render(**base, **context).strip())
        return cache[key]

    def badge(status_id):
        key = ("badge", status_id)
        if key not in cache:
            # a comparison of 300 features carries 600 of these: a short element, styled by its class
            cache[key] = Markup('<b class="di-st--{0}">{1}</b>').format(status_id, catalog.statuses[status_id].label)
        return cache[key]

    def evidence_mark(level_id, short=False):
        key = ("evidence", level_id, short)
        if key not in cache:
            symbol, label, _ = EVIDENCE[level_id]
            # in the matrix (15,000 cells at 50 engines) the symbol alone: the legend above says what it means
            html = '<i class="di-ev--{0}">{2}</i>' if short else '<abbr class="di-ev--{0}" title="{1}">{2}</abbr>'
            cache[key] = Markup(html).format(level_id, label, symbol)
        return cache[key]

    def mark(statement, short=False):
        """The evidence mark of a statement that says something; none for an unknown."""
        return evidence_mark(level[(statement.engine, statement.feature)], short) if is_known(catalog, statement) else Markup("")

    def refs(ids):
        """Numbered links to the page's list of sources (the original article by name): the list
        holds the titles and addresses once, not in every cell."""
        key = ("refs", tuple(ids))
        if key not in cache:
            cache[key] = Markup("").join(
                Markup('<a href="#cite-{0}">[{0}]</a>').format(
                    "article" if catalog.sources[sid].kind == "claim" else numbers[sid]) for sid in ids)
        return cache[key]

    def quotes(ids):
        """The first verbatim quote among the statement's sources."""
        found = next((catalog.sources[sid] for sid in ids if catalog.sources[sid].quote), None)
        return Markup('<blockquote class="di-quote">{0}</blockquote>').format(found.quote) if found else Markup("")

    def cell(statement, mode="full"):
        engine, feature = catalog.engines[statement.engine], catalog.features[statement.feature]
        return once(("cell", statement.engine, statement.feature, mode, root), "cell.html",
                    st=statement, engine=engine, feature=feature, mode=mode)

    def legend_for(statements):
        shown = [s for s in catalog.statuses.values() if any(st.status == s.id for st in statements)]
        return once(("legend", tuple(s.id for s in shown)), "legend.html", shown=shown,
                    evidence={k: SimpleNamespace(id=k, label=v[1], meaning=v[2]) for k, v in EVIDENCE.items()})

    base = dict(catalog=catalog, root=root, statuses=catalog.statuses, source_href=source_href,
                number=numbers.get, badge=badge, refs=refs, cell=cell, mark=mark, evidence_mark=evidence_mark,
                level_of=lambda st: level[(st.engine, st.feature)], quotes=quotes,
                bases=BASES, legend_for=legend_for, repo_attributes=repo_attributes(build),
                maintenance=maintenance_labels(), software_kinds=SOFTWARE_KINDS, kinds=KINDS,
                known=lambda st: verdict.known(catalog, st), differs=lambda x, y: verdict.differs(catalog, x, y),
                tier_words=guide_logic.TIER_WORDS, evidence_label=lambda level: EVIDENCE[level][1])
    return base


def maintenance_labels() -> dict:
    """How the site words each maintenance status: from the engine schema, where the statuses are listed."""
    from macros.data.catalog import SCHEMA_DIR
    from macros.data.schema import load_schemas

    return load_schemas(SCHEMA_DIR)["engine.schema.json"]["properties"]["maintenance"]["properties"]["status"]["x-labels"]


def repo_attributes(build: Build) -> Markup:
    """Where the site script sends "report a problem": the repository and its host's form."""
    settings = build.settings
    if not settings.repository:
        return Markup("")
    return Markup(' data-repo="{0}" data-repo-host="{1}" data-site-url="{2}"').format(
        settings.repository, settings.host or "github", settings.site_url)


def cited(catalog: Catalog, statements, extra=()) -> list[str]:
    """The source ids a page cites: numbered sources in site-wide order, the original article last."""
    ids = set(extra) | {sid for st in statements for sid in st.sources}
    ordered = [sid for sid in catalog.sources if sid in ids]
    return sorted(ordered, key=lambda sid: catalog.sources[sid].kind == "claim")


def page_helpers(build: Build, page_url: str) -> dict:
    """The template globals for a page at `page_url` (links made relative to it)."""
    return _helpers(build, site_root(page_url))


def flatten(html) -> Markup:
    """HTML as pages carry it: Python-Markdown must see one raw HTML block, no blank lines inside,
    no leading indent. Fragments drawn in the browser are flattened the same way."""
    return Markup("\n".join(line.strip() for line in str(html).splitlines() if line.strip()))


def _render(template: str, build: Build, page_url: str, **context) -> Markup:
    helpers = _helpers(build, site_root(page_url))
    return flatten(environment().get_template(template).render(**helpers, **context))


HOME_NEEDS = 12  # needs shown as chips on the home page; the guide lists every one


def home(build: Build, page_url: str) -> Markup:
    """The home page's body: what do you need, every engine by category, and a grid of symbols
    for each category the data marks `grid: true`."""
    catalog = build.catalog
    engines = verdict.researched(catalog)
    used = {st.status for e in engines for st in e.support.values()}
    return _render("home.html", build, page_url, engines=engines, chips=HOME_NEEDS,
                   score_statuses=[s for s in catalog.statuses.values() if s.id in used],
                   grids=[views.grid(catalog, c, engines) for c in catalog.categories if c.grid],
                   scores={e.id: verdict.scorecard(catalog, e) for e in engines},
                   left_out=[e.name for e in catalog.engines.values() if e not in engines])


def status_legend(build: Build, page_url: str) -> Markup:
    catalog = build.catalog
    return _helpers(build, site_root(page_url))["legend_for"](list(catalog.statements()))


def matrix(build: Build, page_url: str) -> Markup:
    catalog = build.catalog
    ranks = json.dumps({s.id: s.rank for s in catalog.statuses.values()}, sort_keys=True)
    used = {st.status for st in catalog.statements()}
    return _render("matrix.html", build, page_url, engines=list(catalog.engines.values()), ranks=ranks,
                   statuses_used=[s for s in catalog.statuses.values() if s.id in used])


def compare_context(build: Build, a: str, b: str) -> dict:
    """What the comparison's templates draw, for the page of a pair and for its fragments alike."""
    catalog = build.catalog
    view = views.comparison(catalog, a, b)
    left, right = view.left, view.right
    return dict(view=view, scores=list(zip(verdict.scorecard(catalog, left), verdict.scorecard(catalog, right))),
                layers={e.id: verdict.stack(catalog, e) for e in (left, right)},
                only=(verdict.documents_only(catalog, a, b), verdict.documents_only(catalog, b, a)),
                quality={e.id: quality(catalog, e, build.today) for e in (left, right)})


def compare(build: Build, page_url: str, a: str, b: str) -> Markup:
    catalog = build.catalog
    left, right = catalog.engines[a], catalog.engines[b]
    statements = [*left.support.values(), *right.support.values()]
    return _render("compare.html", build, page_url, cited=cited(catalog, statements), statements=statements,
                   **compare_context(build, a, b))


def rendered_pairs(source, limit: int | None = None) -> list[tuple]:
    """The comparisons pre-rendered as pages, for a build or a catalog: every pair up to a number
    of engines (extra.pair_pages.every_pair_up_to, default 12); beyond it, the pairs the data marks
    as featured. Any other pair is drawn in the browser from the published JSON, at the same address."""
    catalog = source.catalog if isinstance(source, Build) else source
    if limit is None:
        limit = source.settings.every_pair_up_to if isinstance(source, Build) else EVERY_PAIR_UP_TO
    pairs = catalog.pairs()
    if len(catalog.engines) <= limit:
        return pairs
    return [(a, b) for a, b in pairs if b.id in a.featured or a.id in b.featured]


def compare_index(build: Build, page_url: str) -> Markup:
    catalog = build.catalog
    featured = [(a, b) for a, b in catalog.pairs() if b.id in a.featured or a.id in b.featured]
    return _render("compare_index.html", build, page_url, pairs=catalog.pairs(), featured=featured, slug=pair_slug)


def live_compare(build: Build, page_url: str) -> Markup:
    catalog = build.catalog
    names = json.dumps({e.id: e.name for e in catalog.engines.values()}, sort_keys=True)
    return _render("live.html", build, page_url, engine_names=names,
                   every_pair_has_a_page=len(catalog.engines) <= build.settings.every_pair_up_to)


def feature_page(build: Build, page_url: str, feature_id: str) -> Markup:
    catalog = build.catalog
    feature = catalog.features[feature_id]
    category = next(c for c in catalog.categories if c.id == feature.category)
    statements = [e.support[feature_id] for e in catalog.engines.values()]
    summary: dict[str, list[str]] = {}
    for engine in catalog.engines.values():
        summary.setdefault(engine.support[feature_id].status, []).append(engine.name)
    ordered = sorted(summary.items(), key=lambda item: catalog.statuses[item[0]].rank)
    return _render("feature.html", build, page_url, feature=feature, category=category, summary=ordered,
                   cited=cited(catalog, statements), statements=statements)


def retired_page(build: Build, page_url: str, feature_id: str) -> Markup:
    catalog = build.catalog
    record = next(r for r in catalog.retired if r.id == feature_id)
    return _render("retired.html", build, page_url, record=record)


def feature_index(build: Build, page_url: str) -> Markup:
    return _render("feature_index.html", build, page_url)


def engine_page(build: Build, page_url: str, engine_id: str) -> Markup:
    catalog = build.catalog
    engine = catalog.engines[engine_id]
    facts = engine.facts()
    statements = list(engine.support.values())
    used = {st.status for st in statements}
    return _render("engine.html", build, page_url, page=views.engine_page(catalog, engine),
                   cited=cited(catalog, statements, [*engine.sources, *(s for f in facts for s in f.sources)]),
                   quality=quality(catalog, engine, build.today), page_statements=statements,
                   score_statuses=[s for s in catalog.statuses.values() if s.id in used])


def engine_index(build: Build, page_url: str) -> Markup:
    return _render("engine_index.html", build, page_url)


def data_quality(build: Build, page_url: str) -> Markup:
    catalog = build.catalog
    today = build.today
    return _render("quality.html", build, page_url, today=today.isoformat(), max_age=MAX_AGE_DAYS,
                   rows=[(e, quality(catalog, e, today), views.freshness(catalog, e)) for e in catalog.engines.values()])


def script_json(data) -> Markup:
    """JSON safe inside a <script> element: no `<`, `>` or `&` at all, so nothing in the data
    can close the element, open a comment or start a tag; JSON.parse reads the escapes back."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=True)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def guide_data(catalog: Catalog, table: dict | None = None) -> dict:
    """What the guide's script needs: every verdict, keyed need -> engine, with its tier and each
    check [feature, status, ok, tier, limit, words when it falls short, scope], and the hardware
    each hardware need is about, so the script can flag a need met only on other hardware."""
    table = table or guide_logic.verdicts(catalog)
    engines = verdict.researched(catalog)
    return {
        "engines": {e.id: e.name for e in engines},
        "needs": {n.id: plain(n.label) for n in catalog.needs},
        "hardware_needs": {n.id: list(guide_logic.hardware_of(catalog, n)) for n in catalog.needs
                           if guide_logic.hardware_of(catalog, n)},
        "verdicts": {
            n.id: {e: {"met": table[(n.id, e)].met, "tier": table[(n.id, e)].tier,
                       "checks": [[c.feature, c.status, c.ok, c.tier, c.limit, c.short_of, list(c.scope)]
                                  for c in table[(n.id, e)].checks]}
                   for e in (e.id for e in engines)}
            for n in catalog.needs
        },
        "tiers": dict(guide_logic.TIER_WORDS),
        "features": {f.id: plain(f.name) for f in catalog.features.values()},
        "statuses": {s.id: s.label for s in catalog.statuses.values()},
    }


def guide(build: Build, page_url: str) -> Markup:
    catalog = build.catalog
    table = guide_logic.verdicts(catalog)
    data = script_json(guide_data(catalog, table))
    return _render("guide.html", build, page_url, data=data, verdicts=table, engines=verdict.researched(catalog),
                   gaps=guide_logic.build_yourself(catalog))


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

    return _render("seed.html", build, page_url, claims=catalog.seed_claims, paragraphs=paragraphs,
                   counts=[(v, counted[v]) for v in VERDICTS if counted[v]], verdicts=verdicts, verdict_mark=verdict_mark)


def sources_list(build: Build, page_url: str) -> Markup:
    catalog = build.catalog
    from macros.data.evidence import source_level

    primary_for = {sid: [e.name for e in catalog.engines.values() if source_level(s, e) == "primary"]
                   for sid, s in catalog.sources.items()}
    return _render("sources.html", build, page_url, citations=catalog.citations(), primary_for=primary_for)


def data_date(build: Build, page_url: str) -> str:
    """The data date, as text inside a sentence: `*Data as of {{ data_date() }}.*`."""
    catalog = build.catalog
    return build.catalog.data_date


def site_commit(build: Build, page_url: str) -> str:
    """The commit the site was built from, as text inside a sentence."""
    return build.settings.commit


# The macros a page may call, each as `{{ name("literal", ...) }}` (macros/site/pages.py refuses
# anything else). Block macros return HTML kept aside while Markdown reads the page; text macros
# return plain text that stays inside its sentence.
BLOCK_MACROS = (home, status_legend, matrix, compare, compare_index, live_compare, feature_page, retired_page,
                feature_index, engine_page, engine_index, guide, sources_list, seed_text, data_quality)
TEXT_MACROS = (data_date, site_commit)
MACRO_NAMES = frozenset(f.__name__ for f in BLOCK_MACROS + TEXT_MACROS)
