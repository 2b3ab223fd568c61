"""The adapter MkDocs calls: one-line macros for pages, over the renderers in macros/site/render.py.

mkdocs-macros-plugin imports this package (`module_name: macros`) and calls define_env once per
build, after macros/site/hooks.py has created the build (macros/site/build.py): the macros render
from that build, which holds the checked catalog, the settings and the fragments shared by pages.
"""
from __future__ import annotations

STASH = "<div data-di-stash=\"{}\"></div>"


def stash(build, page_uri: str, html) -> str:
    """Keep rendered HTML for a page aside; return the placeholder Markdown will carry."""
    kept = build.stash.setdefault(page_uri, [])
    kept.append(str(html))
    return STASH.format(len(kept) - 1)


def unstash(build, page_uri: str, html: str) -> str:
    """Put a page's kept HTML back in place of its placeholders."""
    kept = build.stash.pop(page_uri, [])
    for index, fragment in enumerate(kept):
        html = html.replace(STASH.format(index), fragment, 1)
    return html


def define_env(env):
    from markupsafe import escape

    from macros.site import render
    from macros.site.ahead import MISSING, macro_key
    from macros.site.build import current

    build = current(env.conf)

    def page_url() -> str:
        return env.page.url if env.page is not None else ""

    def block(function):
        """Expose `function(build, page_url, *args)` to pages as `name(*args)`.

        The HTML waits in the build's stash while Python-Markdown reads the page, which then sees a
        one-line placeholder instead of a table of thousands of cells; macros/site/hooks.py puts
        the HTML back after Markdown."""
        def macro(*args):
            url = page_url()
            html = build.ahead.take(macro_key(function.__name__, url, args))
            if html is MISSING:
                html = function(build, url, *args)
            return stash(build, env.page.file.src_uri if env.page is not None else "", html)
        macro.__name__, macro.__doc__ = function.__name__, function.__doc__
        return env.macro(macro)

    def text(function):
        """Expose a renderer of plain text, which stays inside its sentence, escaped."""
        def macro():
            return str(escape(function(build, page_url())))
        macro.__name__, macro.__doc__ = function.__name__, function.__doc__
        return env.macro(macro)

    for function in render.BLOCK_MACROS:
        block(function)
    for function in render.TEXT_MACROS:
        text(function)
