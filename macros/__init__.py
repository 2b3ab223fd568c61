"""The adapter MkDocs calls: one-line macros for pages, over the functions in macros.site.render.

mkdocs-macros-plugin imports this package (`module_name: macros`) and calls define_env
once per build. The catalog is loaded and checked once per build by `catalog_for`, which
macros/site/hooks.py calls first and the macros then share.
"""
from __future__ import annotations

import os
from pathlib import Path


def catalog_for(config):
    """The checked catalog of this build, loaded on first use and kept on the config object."""
    from mkdocs.exceptions import PluginError

    from macros.data.catalog import build_catalog
    from macros.data.problems import DataError

    if "_catalog" not in config.__dict__:
        data_dir = Path(config["config_file_path"]).parent / "data"
        try:
            catalog = build_catalog(data_dir, shown_from=data_dir.parent)
        except DataError as error:
            raise PluginError(f"the data has problems (run `make check`):\n{error}") from None
        catalog.__dict__["_site"] = site_settings(config)
        config.__dict__["_catalog"] = catalog
    return config.__dict__["_catalog"]


def floor_build() -> bool:
    """The benchmark's floor: the same pages and config with trivial content, no downloads and
    no badges (`make bench` sets DI_FLOOR=1), so growth of the page machinery shows on its own.
    DI_FLOOR=startup also leaves out the pages made from data: what is left is the start-up."""
    return os.environ.get("DI_FLOOR") in ("1", "startup")


def startup_build() -> bool:
    return os.environ.get("DI_FLOOR") == "startup"


def site_settings(config) -> dict:
    """What the renderers need to know of the site: its repository, its address, the day of the
    commit (staleness is measured from it), how many engines get every pair pre-rendered."""
    import datetime as dt

    from macros.site.repository import repository

    extra = config["extra"]
    commit_day = extra.get("commit_date")
    repo = repository(extra, os.environ)
    return {
        "repository": repo.get("url", ""),
        "host": repo.get("host", ""),
        "branch": extra.get("edit_branch", "main"),
        "site_url": config.get("site_url") or "",
        "today": dt.date.fromisoformat(commit_day) if commit_day else None,
        "every_pair_up_to": int((extra.get("pair_pages") or {}).get("every_pair_up_to", 12)),
        "commit": extra.get("commit", ""),
    }


STASH = "<div data-di-stash=\"{}\"></div>"


def stash(config, page_uri: str, html) -> str:
    """Keep rendered HTML for a page aside; return the placeholder Markdown will carry."""
    kept = config.__dict__.setdefault("_stash", {}).setdefault(page_uri, [])
    kept.append(str(html))
    return STASH.format(len(kept) - 1)


def unstash(config, page_uri: str, html: str) -> str:
    """Put a page's kept HTML back in place of its placeholders."""
    kept = config.__dict__.get("_stash", {}).pop(page_uri, [])
    for index, fragment in enumerate(kept):
        html = html.replace(STASH.format(index), fragment, 1)
    return html


def define_env(env):
    from markupsafe import escape

    from macros.site import render

    catalog = catalog_for(env.conf)
    floor = floor_build()

    def page_url() -> str:
        return env.page.url if env.page is not None else ""

    def one_line(function):
        """Expose `function(catalog, page_url, *args)` to pages as `name(*args)`.

        The HTML waits in a stash while Python-Markdown reads the page, which then sees a
        one-line placeholder instead of a table of thousands of cells; macros/site/hooks.py puts
        the HTML back after Markdown."""
        def macro(*args):
            # the benchmark's floor: the same pages and config, trivial content
            html = "<p>floor</p>" if floor else function(catalog, page_url(), *args)
            return stash(env.conf, env.page.file.src_uri if env.page is not None else "", html)
        macro.__name__ = function.__name__
        macro.__doc__ = function.__doc__
        return env.macro(macro)

    for function in render.BLOCK_MACROS:
        one_line(function)
    for function in render.TEXT_MACROS:
        text = function  # bind this function, not the loop's last one
        env.macro(lambda text=text: str(escape(text(catalog, page_url()))), function.__name__)
