"""An address for every comparison that is not pre-rendered (compare/<a>-vs-<b>/index.html): a
small page, drawn by the template outputs/pair_stub.html, that opens the comparison drawn in the
browser, so every pair keeps one address whatever the number of engines."""
from __future__ import annotations

import json

from markupsafe import Markup

from macros.site.jinja import environment

NAME = "pair addresses"


def files(build) -> dict[str, str]:
    from macros.site.render import rendered_pairs
    from macros.site.views import pair_slug

    template = environment().get_template("outputs/pair_stub.html")
    rendered = {(a.id, b.id) for a, b in rendered_pairs(build)}
    former = {}  # a pair's page -> the pages it had under former engine ids
    for old, new in build.catalog.redirects().items():
        former.setdefault(new, []).append(old)
    found = {}
    for a, b in build.catalog.pairs():
        if (a.id, b.id) not in rendered:
            target = f"../live/?a={a.id}&b={b.id}"
            # JSON inside <script>: no `<`, `>` or `&` reaches the element
            target_js = Markup(json.dumps(target).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))
            stub = template.render(a=a, b=b, target=target, target_js=target_js)
            page = f"compare/{pair_slug(a.id, b.id)}.md"
            for path in (page, *former.get(page, ())):  # the same depth, so the relative target holds
                found[f"{path.removesuffix('.md')}/index.html"] = stub
    return found
