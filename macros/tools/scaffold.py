"""`make new-engine ID=<id> NAME="<name>"`: a new engine file with every feature, in reading
order, marked `not-researched`. The same id and name rules as the data apply first."""
from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

from macros.data.catalog import ENGINES
from macros.data.model import Catalog
from macros.data.rules import id_clash, text_problems

_ID = re.compile(r"\A[a-z0-9]+(?:-[a-z0-9]+)*\Z")


def refusals(catalog: Catalog, data_dir: Path, engine_id: str, name: str) -> list[str]:
    """Why the id or the name cannot be used, or nothing."""
    found = []
    if not _ID.match(engine_id):
        found.append(f"'{engine_id}' is not a kebab-case id: use lowercase letters, digits and single hyphens")
    elif why := id_clash("engine", engine_id):
        found.append(f"engine id '{engine_id}' would break the site: {why}")
    if (Path(data_dir) / ENGINES / f"{engine_id}.yml").exists() or engine_id in catalog.engines:
        found.append(f"data/{ENGINES}/{engine_id}.yml already exists")
    if not name.strip():
        found.append("the name is empty: give the engine's name as the project writes it, NAME=\"...\"")
    found += [f"{message} ({tip})" for message, tip in text_problems("name", name)]
    return found


def engine_file(catalog: Catalog, engine_id: str, name: str) -> str:
    """The text of the new file. The fields at the top are empty on purpose: `make check` points
    at each one until it is filled in; the cells are placeholders it allows, with a warning."""
    lines = ["# yaml-language-server: $schema=../schema/engine.schema.json\n",
             f"# {name}: fill in the fields below, then research each cell (see CONTRIBUTING.md).\n",
             f"id: {engine_id}\n", f"name: {json.dumps(name, ensure_ascii=False)}\n",
             'summary: ""        # one or two sentences: what it is and who makes it\n',
             'homepage: ""       # https:// address of its home page or docs\n',
             'repository: ""     # https:// address of its source repository\n',
             'license: ""        # SPDX identifier: Apache-2.0, MIT\n',
             "kind:              # engine (owns kernels, scheduler, KV cache) or runtime (packages engines)\n",
             "  value: engine\n", '  detail: ""        # one sentence, from the sources: why\n', "  sources: []\n",
             "releases: {}       # where it publishes releases: pypi: [package], github: owner/repo (remove if none)\n",
             "official-urls: []  # URL prefixes of its own docs site, repository and package page\n",
             "sources: []        # source ids backing the fields above\n",
             "support:\n"]
    for category in catalog.categories:
        lines.append(f"  # --- {category.name} ---\n")
        for feature in category.features:
            lines += [f"  {feature.id}:\n", "    status: not-researched\n",
                      f"    detail: {json.dumps(feature.name + ': not researched yet.', ensure_ascii=False)}\n",
                      "    sources: []\n", f"    checked: {dt.date.today().isoformat()}\n"]
    return "".join(lines)
