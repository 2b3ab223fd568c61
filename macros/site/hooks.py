"""MkDocs hooks: fresh code on every rebuild; the pages made from data (one per engine, feature
and pair) and the downloads; their place in the navigation; redirects for renamed ids; the
data date in the footer; edit links to the file behind each page.

Kept thin: the pages themselves are one-line macro calls rendered by macros/__init__.py.
"""
from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

from markupsafe import escape
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, InclusionLevel
from mkdocs.structure.nav import Section

# Linear on a hostile page: a tag cannot hold `<`, so no attempt rescans the next tag's text
_HTML_ID = re.compile(r'<[a-zA-Z][^<>]*?\sid="([^"<>]*)"')


@event_priority(100)  # before mkdocs-macros imports the package
def on_config(config):
    # `mkdocs serve` rebuilds in one process; without this, edits under macros/ would not show
    for name in [m for m in sys.modules if m == "macros" or m.startswith("macros.")]:
        del sys.modules[name]
    project = str(Path(config["config_file_path"]).parent)
    if project not in sys.path:
        sys.path.insert(0, project)
    from macros import catalog_for
    from macros.data.problems import report
    from macros.site.downloads import git_commit, git_commit_date
    from macros.site.pages import input_problems

    # before MkDocs walks docs/ and mkdocs-macros renders a page: a link or a template there is refused
    refused = input_problems(Path(config["config_file_path"]).parent)
    if refused:
        raise PluginError(f"the build reads only regular files and plain pages (run `make check`):\n{report(refused)}")

    # the age of the data on every page, so a screenshot or a wiki paste shows it
    config["extra"]["commit"] = git_commit()
    config["extra"]["commit_date"] = git_commit_date()
    catalog = catalog_for(config)
    config["copyright"] = (f"Data as of {catalog.data_date} · commit {config['extra']['commit']} · "
                           "data CC BY 4.0, code Apache-2.0")
    # renamed features and engines: their old pages redirect (the redirect keeps the #anchor); the old
    # address of a comparison drawn in the browser gets that comparison's stub instead (on_post_build)
    config.plugins["redirects"].config["redirect_maps"].update(page_redirects(catalog))
    return config


def page_redirects(catalog) -> dict[str, str]:
    """The redirects that lead to a page MkDocs builds: every one but those to a pair drawn in the browser."""
    from macros.site.render import pair_slug, rendered_pairs

    rendered = {f"compare/{pair_slug(a.id, b.id)}.md" for a, b in rendered_pairs(catalog)}
    return {old: new for old, new in catalog.redirects().items() if not new.startswith("compare/") or new in rendered}


_ID = re.compile(r"\A[a-z0-9]+(?:-[a-z0-9]+)*\Z")


def _call(macro: str, *ids: str) -> str:
    """A one-line macro call naming records by id. Ids are the only data a generated page's
    Markdown carries: mkdocs-macros renders that Markdown (and its front matter) as Jinja."""
    for value in ids:
        if not _ID.match(value):  # the rules refuse such ids; this guards the template source anyway
            raise ValueError(f"not an id: {value!r}")
    return f"{{{{ {macro}({', '.join(json.dumps(v) for v in ids)}) }}}}"


def generated_pages(catalog) -> dict[str, tuple[str, str]]:
    """Path under docs/ -> (title, Markdown) for every page made from the data.

    The title is data text: it never enters the Markdown. on_page_markdown sets it, escaped,
    after mkdocs-macros has rendered the page."""
    from macros.site.render import pair_slug, rendered_pairs

    def page(call: str, wide: bool = False) -> str:
        # a comparison is wide: no table of contents beside it. Out of the search index: what it
        # says is on the feature pages, each once (the compare index, in the index, names every pair)
        extra = "---\nhide:\n  - toc\nsearch:\n  exclude: true\n---\n\n" if wide else ""
        return f"{extra}{call}\n"

    pages = {}
    for engine in catalog.engines.values():
        pages[f"engines/{engine.id}.md"] = (engine.name, page(_call("engine_page", engine.id)))
    for feature in catalog.features.values():
        pages[f"features/{feature.id}.md"] = (feature.name, page(_call("feature_page", feature.id)))
    for record in catalog.retired:  # a split or removed feature keeps its address, saying what it became
        pages[f"features/{record.id}.md"] = (f"{record.name} (retired)", page(_call("retired_page", record.id)))
    for a, b in rendered_pairs(catalog):
        pages[f"compare/{pair_slug(a.id, b.id)}.md"] = (f"{a.name} vs {b.name}",
                                                         page(_call("compare", a.id, b.id), wide=True))
    return pages


@event_priority(50)  # before mkdocs-redirects looks for the pages its redirects lead to
def on_files(files, config):
    from macros import catalog_for, floor_build, startup_build
    from macros.site.downloads import downloads
    from macros.site.render import data_today

    catalog = catalog_for(config)
    titles = config.__dict__["_titles"] = {}
    for path, (title, content) in ({} if startup_build() else generated_pages(catalog)).items():
        titles[path] = title
        # NOT_IN_NAV: on_nav below files them under their section, in data order
        files.append(File.generated(config, path, content=content, inclusion=InclusionLevel.NOT_IN_NAV))
    for path, content in ({} if floor_build() else downloads(catalog, config["extra"]["commit"], data_today(catalog))).items():
        files.append(File.generated(config, f"data/{path}", content=content))
    config.__dict__["_feed"] = None if floor_build() else data_feed(config)
    return files


def data_feed(config) -> str | None:
    """The Atom feed of data changes, or None (and a message) when the history is not there."""
    from macros.site.feed import feed, history_state
    from macros.site.repository import repository

    root = Path(config["config_file_path"]).parent
    state = history_state(root)
    if state == "shallow":
        print("feed.xml is not built: this clone is shallow and the feed reads the whole history "
              "(git fetch --unshallow; in CI, fetch-depth: 0 or GIT_DEPTH: 0)", file=sys.stderr)
    return feed(root, config.get("site_url") or "", repository(config["extra"], os.environ)) if state == "full" else None


@event_priority(-100)  # after mkdocs-macros, which renders any `{{` it finds in a title
def on_page_markdown(markdown, page, config, files):
    """The title of a generated page, escaped: Material writes titles into the navigation,
    <title> and the heading without escaping them, so a title must already be safe HTML text."""
    title = config.__dict__.get("_titles", {}).get(page.file.src_uri)
    if title is not None:
        page.title = page.meta["title"] = str(escape(title))
    return markdown


def on_page_content(html, page, config, files):
    from macros import unstash

    return unstash(config, page.file.src_uri, html)


def on_post_page(output, page, config):
    """The feed in every page's head; and every HTML id on a page is unique, whatever sections
    later templates add: a repeated id sends a promised link to the wrong place."""
    from macros.data.problems import printable
    from macros.site.render import site_root

    if config.__dict__.get("_feed"):
        link = f'<link rel="alternate" type="application/atom+xml" title="Data changes" href="{site_root(page.url)}feed.xml">'
        output = output.replace("</head>", link + "</head>", 1)

    seen = set()
    for value in _HTML_ID.findall(output):
        if value in seen:
            raise PluginError(f"{page.file.src_uri}: the HTML id '{printable(value)}' appears twice on this page; "
                              "a data id probably equals an anchor the page already has: rename the data id")
        seen.add(value)
    return output


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
    from macros.site.repository import edit_url, repository

    repo = repository(config["extra"], os.environ)
    page.edit_url = None
    if repo:
        kind, _, path = edit_target(page.file.src_uri).partition("/")
        page.edit_url = edit_url(repo, config["extra"].get("edit_branch", "main"), kind, path)
    return context


def on_post_build(config):
    """Files that are not pages: an address for every comparison that is not pre-rendered (it
    opens the comparison drawn in the browser), and the status badges for wikis."""
    from macros import catalog_for, floor_build
    from macros.site.badges import write_badges
    from macros.site.render import pair_slug, rendered_pairs

    catalog = catalog_for(config)
    site = Path(config["site_dir"])
    rendered = {(a.id, b.id) for a, b in rendered_pairs(catalog)}
    former = {}  # a pair's page -> the pages it had under former engine ids
    for old, new in catalog.redirects().items():
        former.setdefault(new, []).append(old)
    for a, b in catalog.pairs():
        if (a.id, b.id) not in rendered:
            page = f"compare/{pair_slug(a.id, b.id)}.md"
            for path in (page, *former.get(page, ())):
                folder = site / path.removesuffix(".md")
                folder.mkdir(parents=True, exist_ok=True)
                (folder / "index.html").write_text(pair_stub(a, b), encoding="utf-8")
    if not floor_build():
        write_badges(catalog, site / "badges")
    if config.__dict__.get("_feed"):
        (site / "feed.xml").write_text(config.__dict__["_feed"], encoding="utf-8")


def pair_stub(a, b) -> str:
    """A small page at a comparison's address that opens the comparison drawn in the browser."""
    target = f"../live/?a={a.id}&amp;b={b.id}"
    title = escape(f"{a.name} vs {b.name}")
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
            f'<meta http-equiv="refresh" content="0; url={target}">'
            f'<script>location.replace("{target.replace("&amp;", "&")}" + location.hash)</script></head>'
            f'<body><p><a href="{target}">{title}</a>, or the engines\' own pages: '
            f'<a href="../../engines/{a.id}/">{escape(a.name)}</a>, <a href="../../engines/{b.id}/">{escape(b.name)}</a>.'
            f'</p></body></html>\n')
