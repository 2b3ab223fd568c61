"""The benchmark's floor (`make bench`, macros/tools/bench.py): the same pages and config as the
site, with trivial content and no outputs, so that the cost of MkDocs' own page machinery shows on
its own. The bench adds this file to a copy of the project's hooks (mkdocs.floor.yml); the site
itself has no benchmark switch. With `extra.floor: startup` the pages made from data are left out
too: what remains is the start-up (loading and checking the data, the hand-written pages)."""
from __future__ import annotations

import re
from dataclasses import replace

from mkdocs.plugins import event_priority

_MACRO_CALL = re.compile(r"\{\{.*?\}\}", re.S)


@event_priority(90)  # after the site's on_config (100), which created the build
def on_config(config):
    from macros.site.build import current

    build = current(config)
    build.outputs = []
    build.make_data_pages = config["extra"].get("floor") != "startup"
    # no second process (macros/site/ahead.py): it would render content the floor then throws away
    build.settings = replace(build.settings, processes=1)
    return config


@event_priority(100)  # before mkdocs-macros renders the page: every macro's output is trivial
def on_page_markdown(markdown, page, config, files):
    return _MACRO_CALL.sub("<p>floor</p>", markdown)
