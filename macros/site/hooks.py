"""MkDocs hooks, in the order MkDocs calls them (CONTRIBUTING.md, "The hook order", says why): on_startup
notes a `--dirty` build; on_config creates the build (macros/site/build.py) after refusing special files
and templated pages; on_pre_build sets the last build's files aside from MkDocs' cleaning, to be written
over (macros/site/last_site.py), gives the search plugin the faster indexer (macros/site/search.py),
makes the pages made from data (one per engine, feature and pre-rendered pair) and starts a second
process rendering the engine and feature pages and comparisons ahead (macros/site/ahead.py); on_files
adds those pages and the files that are not pages (macros/site/outputs); on_nav files engine pages under
their section; on_env puts the last build's files back, keeps the theme's compiled templates between
builds and starts a second process reading the pages' search sections ahead, then writing the outputs;
for each page, on_page_markdown sets generated titles, escaped, and on_page_content puts rendered HTML
back; on_post_template fills the 404 page; for each page again, on_page_context sets edit links and
on_post_page links the feed, gives every page a skip link and refuses a repeated HTML id; on_post_build
sees the outputs written, removes the last build's files this one did not write and ends the build, and
on_build_error stops a second process still at work.

Kept thin and stateless: each hook looks up the build of its config and passes it on. The one thing
kept between builds is what the package was imported from (code_state), so that `mkdocs serve`
imports it again after a code edit only (and, from on_startup, whether MkDocs builds `--dirty`).
"""
from __future__ import annotations

import gc
import json
import re
import sys
import time
from functools import partial
from pathlib import Path

from markupsafe import escape
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, InclusionLevel
from mkdocs.structure.nav import Section

# What on_post_page counts as an HTML id: the first `id="..."` of a tag. Linear on a hostile page: a
# tag cannot hold `<`, so no attempt rescans the next tag's text. html_ids finds the same, faster.
_HTML_ID = re.compile(r'<[a-zA-Z][^<>]*?\sid="([^"<>]*)"')
_ID_ATTRIBUTE = re.compile(r'id="([^"<>]*)"')
_ID = re.compile(r"\A[a-z0-9]+(?:-[a-z0-9]+)*\Z")
_BODY = re.compile(r"<body\b[^<>]*>")
_CONTENT = '<article class="md-content__inner md-typeset">'
WRITE_OUTPUTS = ("write the outputs",)  # the second process's last job at on_env, taken at on_post_build


# What the modules under macros/ were last imported from (code_state): `mkdocs serve` rebuilds in one
# process, and this module is loaded once per process, so it can tell when they must be imported again.
_imported_from: tuple | None = None
# Whether MkDocs builds `--dirty` (on_startup): such a build keeps the last build's files by design, and
# the site folder is then left as it is (macros/site/last_site.py)
_dirty = False


def code_state(project: Path) -> tuple:
    """Every file the modules under macros/ and their caches are made from (the code, its templates, the
    data's schemas, which macros/data/schema.py keeps compiled), with its size and modification time."""
    found = [str(project)]
    for folder in (project / "macros", project / "data" / "schema"):
        for path in sorted(folder.rglob("*")):
            if "__pycache__" not in path.parts and path.is_file():
                info = path.stat()
                found.append((path.relative_to(project).as_posix(), info.st_size, info.st_mtime_ns))
    return tuple(found)


def on_startup(command, dirty):
    global _dirty
    _dirty = dirty


@event_priority(100)  # before mkdocs-macros imports the package
def on_config(config):
    global _imported_from
    project = Path(config["config_file_path"]).parent
    # `mkdocs serve` rebuilds in one process: after an edit under macros/ (or a schema) the package is
    # imported again, so the edit shows; after a data edit it is kept, with its compiled templates and
    # validators, which saves a rebuild the time of importing and compiling them
    state = code_state(project)
    if state != _imported_from:
        for name in [m for m in sys.modules if m == "macros" or m.startswith("macros.")]:
            del sys.modules[name]
        _imported_from = state
    if gc.get_freeze_count():
        # `mkdocs serve`: the last build froze all it had (on_post_build), which is garbage now, and so is
        # the package just dropped after a code edit: collected once here, or this build would freeze it again
        gc.unfreeze()
        gc.collect()
    if str(project) not in sys.path:
        sys.path.insert(0, str(project))
    from macros.data.catalog import build_catalog
    from macros.data.problems import DataError, report
    from macros.site import build as builds, outputs
    from macros.site.outputs.feed import history_state
    from macros.site.pages import input_problems

    # before MkDocs walks docs/ and mkdocs-macros renders a page: a link or a template there is refused
    refused = input_problems(project)
    if refused:
        raise PluginError(f"the build reads only regular files and plain pages (run `make check`):\n{report(refused)}")
    try:
        settings = builds.settings_from(config["extra"], config.get("site_url") or "", project)
    except builds.SettingsError as error:
        raise PluginError(str(error)) from None
    started = time.perf_counter()
    try:
        catalog = build_catalog(project / "data", shown_from=project)
    except DataError as error:
        raise PluginError(f"the data has problems (run `make check`):\n{error}") from None
    build = builds.start(config["config_file_path"], builds.Build(project, catalog, settings, list(outputs.OUTPUTS)))
    build.timings["load and check the data"] = time.perf_counter() - started
    build.feed_linked = history_state(project) == "full"
    # the age of the data on every page, so a screenshot or a wiki paste shows it
    config["copyright"] = (f"Data as of {catalog.data_date} · commit {settings.commit} · "
                           "data CC BY 4.0, code Apache-2.0")
    # renamed features and engines: their old pages redirect (the redirect keeps the #anchor); the old
    # address of a comparison drawn in the browser gets that comparison's stub instead (outputs/pair_stubs.py)
    config.plugins["redirects"].config["redirect_maps"].update(page_redirects(build))
    # What is alive now (the modules, the theme, the checked catalog) lives as long as the build: frozen,
    # it is left out of the collector's full passes, which would walk it again and again to free nothing
    # (they took 0.13 s of a build here, 0.07 s once frozen; and 0.17 s at exit, see on_post_build)
    gc.freeze()
    return config


def page_redirects(build) -> dict[str, str]:
    """The redirects that lead to a page MkDocs builds: every one but those to a pair drawn in the browser."""
    from macros.site.render import rendered_pairs
    from macros.site.views import pair_slug

    rendered = {f"compare/{pair_slug(a.id, b.id)}.md" for a, b in rendered_pairs(build)}
    return {old: new for old, new in build.catalog.redirects().items() if not new.startswith("compare/") or new in rendered}


def _call(macro: str, *ids: str) -> str:
    """A one-line macro call naming records by id. Ids are the only data a generated page's
    Markdown carries: mkdocs-macros renders that Markdown (and its front matter) as Jinja."""
    for value in ids:
        if not _ID.match(value):  # the rules refuse such ids; this guards the template source anyway
            raise ValueError(f"not an id: {value!r}")
    return f"{{{{ {macro}({', '.join(json.dumps(v) for v in ids)}) }}}}"


def generated_pages(build) -> dict[str, tuple[str, str, tuple | None]]:
    """Path under docs/ -> (title, Markdown, job) for every page made from the data; the job, for an
    engine, a feature or a comparison, is its renderer and arguments, which can be done ahead
    (macros/site/ahead.py).

    The title is data text: it never enters the Markdown. on_page_markdown sets it, escaped,
    after mkdocs-macros has rendered the page."""
    from macros.site.render import compare, engine_page, feature_page, rendered_pairs
    from macros.site.views import pair_slug

    catalog = build.catalog

    def page(call: str, wide: bool = False) -> str:
        # a comparison is wide: no table of contents beside it. Out of the search index: what it
        # says is on the feature pages, each once (the compare index, in the index, names every pair)
        extra = "---\nhide:\n  - toc\nsearch:\n  exclude: true\n---\n\n" if wide else ""
        return f"{extra}{call}\n"

    pages = {}
    for engine in catalog.engines.values():
        pages[f"engines/{engine.id}.md"] = (engine.name, page(_call("engine_page", engine.id)), (engine_page, engine.id))
    for feature in catalog.features.values():
        pages[f"features/{feature.id}.md"] = (feature.name, page(_call("feature_page", feature.id)), (feature_page, feature.id))
    for record in catalog.retired:  # a split or removed feature keeps its address, saying what it became
        pages[f"features/{record.id}.md"] = (f"{record.name} (retired)", page(_call("retired_page", record.id)), None)
    for a, b in rendered_pairs(build):
        pages[f"compare/{pair_slug(a.id, b.id)}.md"] = (f"{a.name} vs {b.name}",
                                                         page(_call("compare", a.id, b.id), wide=True), (compare, a.id, b.id))
    return pages


@event_priority(50)  # before mkdocs-redirects looks for the pages its redirects lead to
def on_files(files, config):
    """The pages made from data (made at on_pre_build), and the files that are not pages
    (macros/site/outputs): MkDocs writes both, and knows the downloads that hand-written pages link to."""
    from macros.site import outputs
    from macros.site.build import current

    build = current(config)
    for file in build.generated_files:
        files.append(file)
    for path, content in outputs.files(build).items():
        build.output_files.append(File.generated(config, path, content=content))
        files.append(build.output_files[-1])
    return files


def on_nav(nav, config, files):
    """Put each generated engine page under the Engines section. Feature pages and comparisons
    stay out of the sidebar: on each of their pages the sidebar would list all of them, which
    makes the build grow with the square of the catalog. The Features and Compare index pages,
    the matrix and the engine pages link to them."""
    generated = [f for f in files.documentation_pages()
                 if f.generated_by and f.page is not None and f.src_uri.startswith("engines/")]
    for section in nav.items:
        if not isinstance(section, Section) or not section.children:
            continue
        folder = section.children[0].file.src_uri.rsplit("/", 1)[0] + "/"
        for file in generated:
            if file.src_uri.startswith(folder):
                file.page.parent = section
                section.children.append(file.page)
    return nav


def on_env(env, config, files):
    """The theme's templates, compiled once per process (macros/site/jinja.py MemoryBytecodeCache):
    MkDocs makes this environment anew for every build, and `mkdocs serve` rebuilds in one process.

    Every page is read now, so a second process (macros/site/ahead.py) reads their search sections
    while this one writes the pages, then writes the outputs: MkDocs would write those first, one
    file at a time (1,300 badges: half a second of file system calls). The child writes them as
    MkDocs does (File.copy_file); on_post_build waits for it, or writes them itself."""
    from macros.site import search
    from macros.site.ahead import start as start_ahead
    from macros.site.build import current
    from macros.site.jinja import THEME_BYTECODE
    from macros.site.last_site import restore

    env.bytecode_cache = THEME_BYTECODE
    build = current(config)
    build.ahead.close()  # every page's HTML is made: what the first child did for them is taken
    if build.last_site is not None:  # nothing is written yet: the last build's files go back, to be written over
        restore(build.last_site, [f.abs_dest_path for f in files])
    page_files = [f for f in files.documentation_pages() if f.page is not None]
    # an output at a page's address is left to MkDocs, which writes the page over it
    page_paths = {f.abs_dest_path for f in page_files}
    outputs = [f for f in build.output_files if f.abs_dest_path not in page_paths]
    jobs = search.ahead_jobs([f.page for f in page_files])
    jobs[WRITE_OUTPUTS] = partial(write_files, outputs)
    build.ahead = start_ahead(jobs, build.settings.processes)
    if build.ahead.pid is not None:
        for file in outputs:
            files.remove(file)
        build.written_ahead = outputs
    return env


def write_files(written) -> int:
    """Write files as MkDocs writes the files that are not pages."""
    for file in written:
        file.copy_file()
    return len(written)


@event_priority(-100)  # after mkdocs-macros, which renders any `{{` it finds in a title
def on_page_markdown(markdown, page, config, files):
    """The title of a generated page, escaped: Material writes titles into the navigation,
    <title> and the heading without escaping them, so a title must already be safe HTML text."""
    from macros.site.build import current

    title = current(config).titles.get(page.file.src_uri)
    if title is not None:
        page.title = page.meta["title"] = str(escape(title))
    return markdown


def on_pre_build(config):
    """Material's search plugin, made in its on_config, indexes with macros/site/search.py: the same
    index, in a fraction of the time. The pages made from data are made now (every on_config has
    run), and a second process starts rendering the engine and feature pages and comparisons
    (macros/site/ahead.py) while this one reads docs/, makes the outputs and renders the hand-written
    pages."""
    from macros.site import last_site, search
    from macros.site.ahead import macro_key, start as start_ahead
    from macros.site.build import current

    search.install(config)
    build = current(config)
    # MkDocs empties the site folder next: the last build's files are set aside, to be written over
    build.last_site = None if _dirty else last_site.set_aside(config["site_dir"])
    if not build.make_data_pages:
        return
    ahead = {}
    for path, (title, content, job) in generated_pages(build).items():
        build.titles[path] = title
        # NOT_IN_NAV: on_nav files them under their section, in data order
        file = File.generated(config, path, content=content, inclusion=InclusionLevel.NOT_IN_NAV)
        build.generated_files.append(file)
        if job is not None:
            ahead[macro_key(job[0].__name__, file.url, job[1:])] = partial(job[0], build, file.url, *job[1:])
    build.ahead = start_ahead(ahead, build.settings.processes)


def on_page_content(html, page, config, files):
    from macros import unstash
    from macros.site.build import current

    return unstash(current(config), page.file.src_uri, html)


def edit_target(src_uri: str) -> str:
    """The file a reader should edit to change a page: the data behind it, or its own Markdown."""
    folder, _, name = src_uri.rpartition("/")
    stem = name.removesuffix(".md")
    if folder == "engines" and stem != "index":
        return f"blob/data/engines/{stem}.yml"
    if folder == "features" and stem != "index":
        return "blob/data/features.yml"
    if folder == "compare" and stem not in ("index", "live"):
        return "tree/data/engines"
    by_page = {"guide.md": "data/guide.yml", "sources.md": "data/sources.yml",
               "reference/seed.md": "data/seed-claims.yml"}
    return f"blob/{by_page.get(src_uri, 'docs/' + src_uri)}"


def on_page_context(context, page, config, nav):
    from macros.site.build import current
    from macros.site.repository import edit_url

    settings = current(config).settings
    page.edit_url = None
    if settings.repository:
        kind, _, path = edit_target(page.file.src_uri).partition("/")
        page.edit_url = edit_url({"url": settings.repository, "host": settings.host}, settings.branch, kind, path)
    return context


def on_post_page(output, page, config):
    """The feed in every page's head; and every HTML id on a page is unique, whatever sections
    later templates add: a repeated id sends a promised link to the wrong place."""
    from macros.data.problems import printable
    from macros.site.build import current
    from macros.site.outputs import feed
    from macros.site.render import site_root

    build = current(config)
    if build.feed_linked and feed in build.outputs:
        link = f'<link rel="alternate" type="application/atom+xml" title="Data changes" href="{site_root(page.url)}feed.xml">'
        output = output.replace("</head>", link + "</head>", 1)

    output = with_skip_link(output)
    seen = set()
    for value in html_ids(output):
        if value in seen:
            raise PluginError(f"{page.file.src_uri}: the HTML id '{printable(value)}' appears twice on this page; "
                              "a data id probably equals an anchor the page already has: rename the data id")
        seen.add(value)
    return output


def html_ids(output: str) -> list[str]:
    """What `_HTML_ID.findall(output)` finds, at a fraction of the cost: that pattern tries every
    character of every tag (a quarter of a second on the real site's 27 MB of pages, on every build);
    this jumps from one `id="` to the next. An occurrence counts when whitespace precedes it and the
    nearest `<` before it opens a tag (a letter follows) with no `>` in between; only the first in
    a tag counts, as the pattern's matches never overlap. Linear: it looks back no further than the
    previous occurrence (tests/test_site.py compares the two)."""
    found: list[str] = []
    pos, seen_to = 0, 0  # where to search on; the previous occurrence, where looking back stops
    tag, closed, used = -1, False, -1  # the `<` nearest before it; a `>` after that `<`; the last tag counted
    while (match := _ID_ATTRIBUTE.search(output, pos)) is not None:
        at = match.start()
        nearer = output.rfind("<", seen_to, at)
        if nearer != -1:
            tag, closed = nearer, output.find(">", nearer, at) != -1
        elif not closed:
            closed = output.find(">", seen_to, at) != -1
        seen_to = at
        opens = output[tag + 1:tag + 2]
        if at and output[at - 1].isspace() and tag > used and not closed and opens.isascii() and opens.isalpha():
            found.append(match[1])
            used, pos = tag, match.end()
        else:
            pos = at + 1
    return found


def with_skip_link(output: str) -> str:
    """Material writes a skip link only on pages whose table of contents it built from Markdown
    headings; pages drawn by templates (comparisons, engines, features, the 404 page) have none.
    Those get one to the start of the content."""
    if 'class="md-skip"' in output or _CONTENT not in output:
        return output
    output = output.replace(_CONTENT, _CONTENT.replace("<article ", '<article id="di-main" tabindex="-1" '), 1)
    body = _BODY.search(output)
    if not body:
        return output
    return output[:body.end()] + '<a href="#di-main" class="md-skip">Skip to content</a>' + output[body.end():]


def on_post_template(output, template_name, config):
    """The 404 page: search, the pages most links go to, and a word on renamed pages, every link
    from the site's base path so it works at any depth and under a sub-path."""
    if template_name != "404.html":
        return output
    from urllib.parse import urlsplit

    from macros.site.jinja import environment

    base = urlsplit(config.get("site_url") or "/").path
    base = base if base.endswith("/") else base + "/"
    content = environment().get_template("not_found.html").render(base=base)
    start = output.find(_CONTENT)
    end = output.find("</article>", start)
    if start < 0 or end < 0:
        raise PluginError("404.html: the theme's page has no content article to fill (macros/site/hooks.py)")
    output = output[:start + len(_CONTENT)] + content + output[end:]
    return with_skip_link(output)


@event_priority(-100)  # after every plugin has written its files (the search index, the redirects)
def on_post_build(config):
    from macros.site.ahead import MISSING
    from macros.site.build import current, finish
    from macros.site.last_site import remove_unwritten

    build = current(config)
    if build.written_ahead and build.ahead.take(WRITE_OUTPUTS) is MISSING:
        write_files(build.written_ahead)  # the child did not write them all: written here, as MkDocs would
    if build.last_site is not None:
        remove_unwritten(build.last_site)
    finish(config)
    # the build is over: Python's last collection at exit need not walk the pages it made (under
    # `mkdocs serve`, the next build's on_config unfreezes and frees them)
    gc.freeze()


def on_build_error(error):
    """A failed build stops the second process it started, if it is still at work."""
    from macros.site.build import abandon_all

    abandon_all()
