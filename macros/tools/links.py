"""Links that never break: the registry of promised page URLs and anchors, checked against a built site.

tests/promised-links.txt holds one promise per line, `/features/fp8/` or
`/matrix/#fp8--vllm`, and `old -> new` where a promise was moved on purpose.
`make links` adds the promises a new build makes (a maintainer runs it when a release is
published: a contribution that only adds pages needs no edit here); nothing ever removes one.
"""
from __future__ import annotations

import posixpath
import re
from pathlib import Path

from macros.data.catalog import ROOT
from macros.data.model import Catalog

REGISTRY = ROOT / "tests" / "promised-links.txt"
HEADER = """\
# Every public page URL and anchor this site promises to wikis and bookmarks.
# `make links` adds new ones after a build; never delete a line. When a promise moves on
# purpose, keep it and write `old -> new`. A renamed feature or engine needs no line here:
# give it `former-ids` in data/ and its old URLs and anchors keep working.
"""
_ID = re.compile(r'\bid="([^"]+)"')
_REDIRECT = re.compile(r'<meta http-equiv="refresh" content="\d+; url=([^"]+)"')


def data_anchors(catalog: Catalog) -> set[str]:
    """The anchors made from data ids that are worth promising: rows and sections. Cells
    (`#<feature>--<engine>`) are kept on the site but not registered one by one: a new engine
    would add a hundred lines to review, and every cell anchor follows from its row's."""
    features = [fid for f in catalog.features.values() for fid in (f.id, *f.former_ids)]
    anchors = set(features) | {c.id for c in catalog.categories} | set(catalog.sources)
    anchors |= {f"need-{n.id}" for n in catalog.needs} | {n.id for n in catalog.needs}
    return anchors


def _page_file(site: Path, url: str) -> Path:
    return site / url.strip("/") / "index.html" if url.strip("/") else site / "index.html"


def _follow(site: Path, url: str, hops: int = 3) -> tuple[str, str | None]:
    """The page a URL ends on after redirects, and its HTML (None when there is no page)."""
    for _ in range(hops):
        path = _page_file(site, url)
        if not path.is_file():
            return url, None
        html = path.read_text(encoding="utf-8")
        redirect = _REDIRECT.search(html)
        if not redirect:
            return url, html
        url = posixpath.normpath(posixpath.join(url, redirect[1].split("#")[0].split("?")[0])) + "/"
    return url, None


def resolves(site: Path, promise: str) -> bool:
    page, _, anchor = promise.partition("#")
    _, html = _follow(Path(site), page)
    return html is not None and (not anchor or f'id="{anchor}"' in html)


# The pages whose rows are promised one by one: the canonical place of each feature, source and
# need. Other pages (an engine, a comparison) are promised as pages; their rows follow the matrix.
ROW_PAGES = ("/matrix/", "/features/", "/sources/", "/guide/")


def current_promises(catalog: Catalog, site: Path) -> set[str]:
    """Every page of a built site, and every data anchor on the pages whose rows are promised."""
    wanted = data_anchors(catalog)
    found = set()
    for path in sorted(Path(site).rglob("index.html")):
        folder = path.parent.relative_to(site).as_posix()
        url = "/" if folder == "." else f"/{folder}/"
        html = path.read_text(encoding="utf-8")
        if _REDIRECT.search(html):
            continue
        found.add(url)
        if url in ROW_PAGES:
            found |= {f"{url}#{anchor}" for anchor in _ID.findall(html) if anchor in wanted}
    return found


def read_registry(path: Path = REGISTRY) -> tuple[list[str], dict[str, str]]:
    promises, moved = [], {}
    for line in path.read_text(encoding="utf-8").splitlines() if path.exists() else []:
        line = line.split(" #", 1)[0].strip() if not line.startswith("#") else ""
        if "->" in line:
            old, new = (part.strip() for part in line.split("->", 1))
            moved[old] = new
            promises.append(old)
        elif line:
            promises.append(line)
    return promises, moved


def broken_promises(site: Path, path: Path = REGISTRY) -> list[str]:
    """A message for every promise the built site no longer keeps."""
    promises, moved = read_registry(path)
    problems = []
    for promise in promises:
        target = moved.get(promise, promise)
        if not resolves(site, target):
            where = f" (recorded as moved to {target})" if promise in moved else ""
            problems.append(f"{path.name}: promised link {promise}{where} no longer resolves. If its feature or "
                            f"engine was renamed, add the old id to `former-ids` in data/; if it moved on purpose, "
                            f"write `{promise} -> <new link>` in {path.name}")
    return problems


def update_registry(catalog: Catalog, site: Path, path: Path = REGISTRY) -> list[str]:
    """Add the promises a build makes that the registry lacks; returns the added lines."""
    promises, _ = read_registry(path)
    added = sorted(current_promises(catalog, site) - set(promises))
    if added or not path.exists():
        lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else HEADER.splitlines()
        body = sorted({line for line in lines if line and not line.startswith("#")} | set(added))
        header = [line for line in lines if line.startswith("#")] or HEADER.splitlines()
        path.write_text("\n".join(header + body) + "\n", encoding="utf-8")
    return added
