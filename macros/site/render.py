"""The macros a page may call, one per kind of data-driven block, and the names the rest of the
project imports from one place. The renderers live in macros/site/renderers, one module per kind of
page; each takes the build (macros/site/build.py) and the URL of the page it renders into (links are
made relative to it, so the site works under any sub-path) and returns safe HTML. Pages call them
through the one-line macros defined in macros/__init__.py.
"""
from __future__ import annotations

from macros.site.jinja import environment  # noqa: F401  (the tests render templates through it)
from macros.site.renderers.base import (  # noqa: F401
    EVIDENCE, cited, flatten, page_helpers, render_template, script_json, site_root)
from macros.site.renderers.compare import (  # noqa: F401  (rendered_pairs and compare_context are used across the project)
    compare, compare_context, compare_index, live_compare, rendered_pairs)
from macros.site.renderers.engines import data_quality, engine_index, engine_page
from macros.site.renderers.features import feature_index, feature_page, retired_page
from macros.site.renderers.guide import guide, guide_data  # noqa: F401
from macros.site.renderers.overview import home, matrix, status_legend
from macros.site.renderers.reference import badge_example, data_date, seed_text, site_commit, sources_list

# The macros a page may call, each as `{{ name("literal", ...) }}` (macros/site/pages.py refuses
# anything else). Block macros return HTML kept aside while Markdown reads the page; text macros
# return plain text that stays inside its sentence.
BLOCK_MACROS = (home, status_legend, matrix, compare, compare_index, live_compare, feature_page, retired_page,
                feature_index, engine_page, engine_index, guide, sources_list, seed_text, data_quality, badge_example)
TEXT_MACROS = (data_date, site_commit)
MACRO_NAMES = frozenset(f.__name__ for f in BLOCK_MACROS + TEXT_MACROS)
