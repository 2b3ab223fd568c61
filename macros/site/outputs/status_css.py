"""assets/statuses.css: the colour and symbol of every status, in both schemes, drawn by the template
outputs/statuses.css from the status vocabulary (data/schema/status.schema.json). The hand-written
site.css styles badges and cells by their class and never names a status."""
from __future__ import annotations

from macros.site.jinja import environment

NAME = "status styles"


def files(build) -> dict[str, str]:
    text = environment().get_template("outputs/statuses.css").render(statuses=list(build.catalog.statuses.values()))
    return {"assets/statuses.css": text}
