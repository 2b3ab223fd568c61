"""What every page's renderer shares: the template globals for a page depth (cells, badges, marks and
references, each rendered once per build and reused), the relative root, the cited sources, and the
one way a template becomes a page's HTML."""
from __future__ import annotations

import json
from types import SimpleNamespace

from markupsafe import Markup

from macros.data.evidence import is_known
from macros.site import guide as guide_logic, verdict
from macros.site.build import Build
from macros.site.jinja import environment


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

_ROW_END = Markup("</tr>")  # closes a row that compare_row.html starts


def helpers(build: Build, root: str) -> dict:
    """Template globals for one page depth. Cells and badges repeat thousands of times
    across a big site, so each is rendered once and reused (the build benchmark shows why).
    Made once per build and depth: every page at that depth shares them and their caches."""
    if ("helpers", root) not in build.rendered:
        build.rendered[("helpers", root)] = _helpers(build, root)
    return build.rendered[("helpers", root)]


def _helpers(build: Build, root: str) -> dict:
    catalog, env, cache = build.catalog, environment(), build.rendered
    if "numbers" not in cache:
        cache["numbers"] = {sid: i + 1 for i, sid in enumerate(s for s in catalog.sources if catalog.sources[s].kind != "claim")}
    numbers = cache["numbers"]
    level = catalog.levels

    def source_href(source):
        return source.url or root + source.page.removesuffix(".md") + "/"

    def once(key, template, **context):
        # stripped here, once: callers join fragments as they are, with no whitespace around them
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
            # each label is a number or the word "article", never data text: nothing to escape, so a plain
            # f-string (Markup.format runs the escaping formatter: a fifth of an engine page's time)
            labels = ("article" if catalog.sources[sid].kind == "claim" else int(numbers[sid]) for sid in ids)
            cache[key] = Markup("".join(f'<a href="#cite-{label}">[{label}]</a>' for label in labels))
        return cache[key]

    def quotes(ids):
        """The first verbatim quote among the statement's sources."""
        found = next((catalog.sources[sid] for sid in ids if catalog.sources[sid].quote), None)
        return Markup('<blockquote class="di-quote">{0}</blockquote>').format(found.quote) if found else Markup("")

    def cell(statement, mode="full"):
        """A statement's cell: "full" (engine and feature pages), "compare" or "matrix"."""
        engine, feature = catalog.engines[statement.engine], catalog.features[statement.feature]
        return once(("cell", statement.engine, statement.feature, mode, root), "cell.html",
                    st=statement, engine=engine, feature=feature, mode=mode)

    def cell_body(statement):
        """What a cell's disclosure holds: the same in every mode that has one."""
        return once(("cell_body", statement.engine, statement.feature, root), "cell_body.html", st=statement)

    def row_head(feature):
        """A feature's row header: the same in the matrix, an engine's tables and every comparison."""
        return once(("row_head", feature.id, root), "row_head.html", feature=feature)

    def compare_cell(statement):
        """A statement's cell in a comparison: the same on either side, in every pair the engine is in."""
        engine = catalog.engines[statement.engine]
        return once(("compare_cell", statement.engine, statement.feature, root), "compare_cell.html",
                    st=statement, engine=engine, feature=catalog.features[statement.feature])

    def compare_rows(rows):
        """A comparison's rows of one category, one row a line, from pieces rendered once per
        build: each row's start (per feature and row classes), its cells (per statement). A
        comparison has a row per feature and a build 66 comparisons: a template loop over them
        would cost a third of the comparisons' time."""
        lines = []
        for row in rows:
            classes = row.classes
            start = once(("compare_row", row.feature.id, classes, root), "compare_row.html", feature=row.feature,
                         classes=classes)
            # every piece is Markup already: str.join does not escape each again (Markup.join would, and
            # copy it, 30,000 times a build)
            lines.append("".join((start, compare_cell(row.left), compare_cell(row.right), _ROW_END)))
        return Markup("\n".join(lines))

    def cited_items(ids):
        """The entries of a page's list of sources, one a line: each rendered once, then reused."""
        return Markup("\n").join(once(("cited", sid, root), "cited_source.html", source=catalog.sources[sid], sid=sid)
                                 for sid in ids)

    def legend_for(statements):
        shown = [s for s in catalog.statuses.values() if any(st.status == s.id for st in statements)]
        return once(("legend", tuple(s.id for s in shown)), "legend.html", shown=shown,
                    evidence={k: SimpleNamespace(id=k, label=v[1], meaning=v[2]) for k, v in EVIDENCE.items()})

    base = dict(catalog=catalog, root=root, statuses=catalog.statuses, source_href=source_href,
                number=numbers.get, badge=badge, refs=refs, cell=cell, mark=mark, evidence_mark=evidence_mark,
                cell_body=cell_body, row_head=row_head, compare_cell=compare_cell, compare_rows=compare_rows,
                cited_items=cited_items,
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

def cited(build: Build, statements, extra=()) -> list[str]:
    """The source ids a page cites: numbered sources in site-wide order, the original article last."""
    catalog = build.catalog
    if "source order" not in build.rendered:  # sorting each page's few ids beats walking every source per page
        build.rendered["source order"] = {sid: (s.kind == "claim", i) for i, (sid, s) in enumerate(catalog.sources.items())}
    order = build.rendered["source order"]
    ids = set(extra) | {sid for st in statements for sid in st.sources}
    return sorted((sid for sid in ids if sid in order), key=order.__getitem__)

def page_helpers(build: Build, page_url: str) -> dict:
    """The template globals for a page at `page_url` (links made relative to it)."""
    return helpers(build, site_root(page_url))

def flatten(html) -> Markup:
    """HTML as pages carry it: Python-Markdown must see one raw HTML block, no blank lines inside,
    no leading indent. Fragments drawn in the browser are flattened the same way."""
    # map and filter: the same as a generator that strips each line, at a third of the cost on 18 MB of comparisons
    return Markup("\n".join(filter(None, map(str.strip, str(html).splitlines()))))

def render_template(template: str, build: Build, page_url: str, **context) -> Markup:
    globals_ = helpers(build, site_root(page_url))
    return flatten(environment().get_template(template).render(**globals_, **context))

def script_json(data) -> Markup:
    """JSON safe inside a <script> element: no `<`, `>` or `&` at all, so nothing in the data
    can close the element, open a comment or start a tag; JSON.parse reads the escapes back."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=True)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))
