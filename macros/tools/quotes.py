"""`make verify-quotes`: is each source's `quote` still on the page it cites?

Every source with a `quote` is fetched (each page once, however many sources cite it) and comes
out `found`, `changed` (the page is there, the quote is not), `gone` (404 or 410) or
`unreachable` (anything else: a timeout, another status, a refused address), with the HTTP
status. Source URLs come from pull requests, so they are fetched only as the shared client allows
(https, public hosts); `--rewrite FROM=TO` sends every URL starting with FROM to TO instead (an
internal mirror, a test server), and only such a target may be a private address.

A GitHub file page (`github.com/<owner>/<repo>/blob/<ref>/<path>`) draws the file in the browser,
so the file is read from its raw view instead; a file inside a source archive
(`.../pkg-1.0.tar.gz#pkg-1.0/setup.py`) is read out of the archive.
"""
from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from macros.data.model import Catalog, Source
from macros.data.problems import printable
from macros.tools.http import Client, FetchError
from macros.tools.pagetext import NotText, closest_passage, contains_quote, page_text

RESULTS = ("found", "changed", "gone", "unreachable")
GONE_STATUSES = frozenset({404, 410})
ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".tar")


@dataclass(frozen=True)
class Check:
    """What one source's quote came out as."""

    source: str
    url: str
    result: str
    http_status: int | None
    message: str = ""
    quote: str = ""
    closest: str = ""  # for `changed`: the page's passage most like the quote


class RewriteError(ValueError):
    pass


def parse_rewrites(pairs: list[str]) -> list[tuple[str, str]]:
    """`FROM=TO` pairs, longest FROM first so the most precise mapping wins."""
    rewrites = []
    for pair in pairs:
        source, sep, target = pair.partition("=")
        parts = urlsplit(target)
        if not sep or not source or parts.scheme not in ("http", "https") or not parts.hostname:
            raise RewriteError(f"--rewrite {pair!r}: write it as FROM=TO, TO an http:// or https:// address")
        rewrites.append((source, target))
    return sorted(rewrites, key=lambda pair: len(pair[0]), reverse=True)


def rewriter(rewrites: list[tuple[str, str]]):
    """A function mapping a URL to the one to fetch: TO plus the rest, for the first FROM it starts with."""
    def rewrite(url: str) -> str:
        for source, target in rewrites:
            if url.startswith(source):
                return target + url[len(source):]
        return url
    return rewrite


def fetch_address(url: str) -> tuple[str, str]:
    """(the address to fetch, the archive member to read or "") for a source URL."""
    parts = urlsplit(url)
    path_parts = parts.path.split("/")
    member = ""
    if parts.path.endswith(ARCHIVE_SUFFIXES) and parts.fragment:
        member = parts.fragment
    if parts.hostname == "github.com" and len(path_parts) > 5 and path_parts[3] == "blob":
        owner, repo, rest = path_parts[1], path_parts[2], "/".join(path_parts[4:])
        return urlunsplit(("https", "raw.githubusercontent.com", f"/{owner}/{repo}/{rest}", "", "")), member
    return urlunsplit((parts.scheme, parts.netloc, parts.path, parts.query, "")), member


def sources_to_check(catalog: Catalog, engine_id: str = "") -> list[Source]:
    """Every source with a quote and a URL; with an engine, only those its data cites."""
    sources = [s for s in catalog.sources.values() if s.quote and s.url]
    if not engine_id:
        return sources
    engine = catalog.engines[engine_id]
    cited = set(engine.sources) | {sid for s in engine.support.values() for sid in s.sources}
    cited |= {sid for fact in engine.facts() for sid in fact.sources}
    return [s for s in sources if s.id in cited]


def _outcome(answer, source: Source) -> Check:
    """The result for one source, from the answer at its page (or the archive holding it)."""
    member = fetch_address(source.url)[1]
    if answer.status in GONE_STATUSES:
        return Check(source.id, source.url, "gone", answer.status, f"HTTP {answer.status}", source.quote)
    if answer.status != 200:
        return Check(source.id, source.url, "unreachable", answer.status, f"HTTP {answer.status}", source.quote)
    try:
        text = page_text(answer.body, answer.content_type, answer.charset, member)
    except NotText as error:
        return Check(source.id, source.url, "unreachable", answer.status, str(error), source.quote)
    if contains_quote(text, source.quote):
        return Check(source.id, source.url, "found", answer.status, "", source.quote)
    return Check(source.id, source.url, "changed", answer.status, "the quote is not on the page", source.quote,
                 closest_passage(text, source.quote))


def check_page(client: Client, address: str, sources: list[Source]) -> list[Check]:
    """Fetch one page and check every quote cited from it."""
    try:
        answer = client.get(address, headers={"Accept": "text/html, text/plain;q=0.9, */*;q=0.5"})
    except FetchError as error:
        return [Check(s.id, s.url, "unreachable", None, str(error), s.quote) for s in sources]
    return [_outcome(answer, source) for source in sources]


def run(catalog: Catalog, client: Client, engine_id: str = "") -> list[Check]:
    """Check every quote, each page fetched once, a few at a time."""
    pages: dict[str, list[Source]] = {}
    for source in sources_to_check(catalog, engine_id):
        pages.setdefault(fetch_address(source.url)[0], []).append(source)
    results = client.map(lambda item: check_page(client, *item), list(pages.items()))
    return sorted((check for checks in results for check in checks), key=lambda c: c.source)


def summary(checks: list[Check]) -> dict:
    return {result: sum(1 for c in checks if c.result == result) for result in RESULTS}


def as_json(checks: list[Check]) -> dict:
    """{"sources": {id: {"url", "result", "http_status", ...}}, "summary": {"found": N, ...}}.
    Beside the three fields the issue names: `message` (why, when not found), and for a changed
    quote the `quote` and the page's `closest` passage."""
    sources = {}
    for check in checks:
        entry = {"url": check.url, "result": check.result, "http_status": check.http_status,
                 "message": check.message or None}
        if check.result == "changed":
            entry |= {"quote": check.quote, "closest": check.closest or None}
        sources[check.source] = entry
    return {"sources": sources, "summary": summary(checks)}


def as_text(checks: list[Check]) -> str:
    """Every quote not found, one line each (a changed one with the passage most like it), then the count."""
    lines = []
    for check in sorted(checks, key=lambda c: (RESULTS.index(c.result), c.source)):
        if check.result == "found":
            continue
        status = f"HTTP {check.http_status}" if check.http_status else "no answer"
        why = f": {check.message}" if check.message and check.message != f"HTTP {check.http_status}" else ""
        lines.append(f"{check.result:<11} {check.source}  {check.url}  ({status}{why})")
        if check.result == "changed":
            lines.append(f"    quote:   {check.quote}")
            lines.append(f"    closest: {check.closest or '(nothing on the page is close)'}")
    counts = summary(checks)
    lines.append(f"{len(checks)} quotes: " + ", ".join(f"{counts[r]} {r}" for r in RESULTS))
    return "\n".join(printable(line) for line in lines)


def exit_code(checks: list[Check]) -> int:
    """0 when every quote is found, 1 when some are changed or gone, 2 when some were unreachable."""
    counts = summary(checks)
    if counts["unreachable"]:
        return 2
    return 1 if counts["changed"] or counts["gone"] else 0
