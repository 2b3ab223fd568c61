"""MkDocs hooks: fresh code on every rebuild; the pages made from data (one per engine, feature
and pair) and the downloads; their place in the navigation; redirects for renamed ids; the
data date in the footer; edit links to the file behind each page.

Kept thin: the pages themselves are one-line macro calls rendered by macros/__init__.py.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, InclusionLevel
from mkdocs.structure.nav import Section


@event_priority(100)  # before mkdocs-macros imports the package
def on_config(config):
    # `mkdocs serve` rebuilds in one process; without this, edits under macros/ would not show
    for name in [m for m in sys.modules if m == "macros" or m.startswith("macros.")]:
        del sys.modules[name]
    project = str(Path(config["config_file_path"]).parent)
    if project not in sys.path:
        sys.path.insert(0, project)
    from macros import catalog_for
    from macros.site.downloads import git_commit

    # the age of the data on every page, so a screenshot or a wiki paste shows it
    config["extra"]["commit"] = git_commit()
    catalog = catalog_for(config)
    config["copyright"] = f"Data as of {catalog.data_date} · commit {config['extra']['commit']}"
    # renamed features and engines: their old pages redirect (the redirect keeps the #anchor)
    config.plugins["redirects"].config["redirect_maps"].update(catalog.redirects())
    return config


def generated_pages(catalog) -> dict[str, str]:
    """Path under docs/ -> Markdown for every page made from the data."""
    from macros.site.render import pair_slug

    def page(title: str, call: str, wide: bool = False) -> str:
        # a comparison repeats what feature and engine pages say: keep it out of the search index
        extra = "hide:\n  - toc\nsearch:\n  exclude: true\n" if wide else ""
        return f"---\ntitle: {json.dumps(title)}\n{extra}---\n\n{call}\n"

    pages = {}
    for engine in catalog.engines.values():
        pages[f"engines/{engine.id}.md"] = page(engine.name, f'{{{{ engine_page("{engine.id}") }}}}')
    for feature in catalog.features.values():
        pages[f"features/{feature.id}.md"] = page(feature.name, f'{{{{ feature_page("{feature.id}") }}}}')
    for a, b in catalog.pairs():
        pages[f"compare/{pair_slug(a.id, b.id)}.md"] = page(f"{a.name} vs {b.name}", f'{{{{ compare("{a.id}", "{b.id}") }}}}', wide=True)
    return pages


@event_priority(50)  # before mkdocs-redirects looks for the pages its redirects lead to
def on_files(files, config):
    from macros import catalog_for

    from macros.site.downloads import downloads

    catalog = catalog_for(config)
    for path, content in generated_pages(catalog).items():
        # NOT_IN_NAV: on_nav below files them under their section, in data order
        files.append(File.generated(config, path, content=content, inclusion=InclusionLevel.NOT_IN_NAV))
    for path, content in downloads(catalog, config["extra"]["commit"]).items():
        files.append(File.generated(config, f"data/{path}", content=content))
    return files


def on_page_content(html, page, config, files):
    from macros import unstash

    return unstash(config, page.file.src_uri, html)


def on_nav(nav, config, files):
    """Put each generated page under the section whose index page sits in the same folder."""
    generated = [f for f in files.documentation_pages() if f.generated_by and f.page is not None]
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
    if folder == "compare" and stem != "index":
        return "tree/data/engines"
    by_page = {"guide.md": "data/guide.yml", "sources.md": "data/sources.yml", "reference/seed.md": "data/sources.yml"}
    return f"blob/{by_page.get(src_uri, 'docs/' + src_uri)}"


def on_page_context(context, page, config, nav):
    repository, branch = config["extra"].get("edit_repository"), config["extra"].get("edit_branch", "main")
    if repository:
        kind, _, path = edit_target(page.file.src_uri).partition("/")
        page.edit_url = f"{repository.rstrip('/')}/{'edit' if kind == 'blob' else 'tree'}/{branch}/{path}"
    return context
