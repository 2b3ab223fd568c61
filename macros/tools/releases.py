"""The releases an engine's channels publish: the package index's JSON API and GitHub's releases API.

Versions are ordered the way each channel means them: PEP 440 (`packaging.version`) for a Python
package, the semantic version of the tag for GitHub (a leading `v` allowed). A GitHub tag with no
semantic version, such as llama.cpp's nightly `b7123` builds, is a build, not a release. Drafts
are never releases. Each release carries the address of its public page, whichever API base was
read, because that page is what the data cites.
"""
from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from packaging.version import InvalidVersion, Version

from macros.tools.http import Client, Credential, FetchError

PYPI = "https://pypi.org"
GITHUB = "https://api.github.com"
GITHUB_PAGES = 10  # pages of 100 releases: llama.cpp publishes several builds a day, a release now and then
VERSION_LENGTH = 40  # the schema's cap on a recorded version
_SEMVER_CORE = re.compile(r"[vV]?[0-9]{1,9}\.[0-9]{1,9}\.[0-9]{1,9}")  # the tag must start with one


class ChannelError(Exception):
    """A channel that gave no usable answer, in one line."""


@dataclass(frozen=True)
class Found:
    """One release as a channel publishes it."""

    version: str  # as the channel names it: "0.34.1", "v1.4.0rc2"
    key: Version  # its place in the order of versions
    date: str  # YYYY-MM-DD, the day it was published (UTC)
    pre_release: bool
    page: str  # its public page: what a source in the data cites
    channel: str  # "pypi" or "github"
    name: str  # the package or the owner/repo


def version_key(text: str) -> Version | None:
    """The PEP 440 version of a recorded or published version (a leading `v` allowed), or None."""
    try:
        return Version(text[1:] if text[:1] in "vV" else text)
    except InvalidVersion:
        return None


def tag_version(tag: str) -> Version | None:
    """The semantic version of a GitHub tag, or None for a tag that is not one (`b7123`, `nightly`)."""
    if not isinstance(tag, str) or len(tag) > VERSION_LENGTH or not _SEMVER_CORE.match(tag):
        return None
    return version_key(tag)


def _day(stamp) -> str:
    """YYYY-MM-DD (UTC) of an ISO 8601 time as both APIs write it, or "" when it is not one."""
    if not isinstance(stamp, str):
        return ""
    try:
        moment = dt.datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return ""
    if moment.tzinfo is not None:
        moment = moment.astimezone(dt.UTC)
    return moment.date().isoformat()


def _json(answer, what: str):
    """The JSON of a 200 answer, or ChannelError saying what came instead."""
    if answer.status != 200:
        message = ""
        try:
            detail = json.loads(answer.body)
            message = detail.get("message", "") if isinstance(detail, dict) else ""
        except ValueError:
            pass
        hint = {404: "not found", 401: "not authorised", 403: "forbidden or rate-limited"}.get(answer.status, "")
        said = f": {str(message)[:120]}" if message else ""
        raise ChannelError(f"{what} answered HTTP {answer.status}{f' ({hint})' if hint else ''}{said}")
    try:
        return json.loads(answer.body)
    except ValueError as error:  # includes a body that is not UTF-8
        raise ChannelError(f"{what} answered with malformed JSON ({type(error).__name__})") from None


def _get(client: Client, url: str, what: str, **options):
    try:
        return client.get(url, **options)
    except FetchError as error:
        raise ChannelError(f"{what}: {error}") from None


def pypi_releases(client: Client, base: str, package: str) -> list[Found]:
    """Every release of `package` with an upload date: its earliest file's. Versions that are not
    PEP 440, that have no files, or whose files are all yanked are left out."""
    what = f"PyPI package {package}"
    data = _json(_get(client, f"{base.rstrip('/')}/pypi/{quote(package)}/json", what,
                      headers={"Accept": "application/json"}), what)
    releases = data.get("releases") if isinstance(data, dict) else None
    if not isinstance(releases, dict):
        raise ChannelError(f"{what}: the answer has no `releases` mapping")
    found = []
    for version, files in releases.items():
        key = version_key(version) if isinstance(version, str) and len(version) <= VERSION_LENGTH else None
        files = [f for f in files if isinstance(f, dict) and not f.get("yanked")] if isinstance(files, list) else []
        days = sorted(d for d in (_day(f.get("upload_time_iso_8601") or f.get("upload_time")) for f in files) if d)
        if key is None or not days:
            continue
        found.append(Found(version, key, days[0], key.is_prerelease, f"https://pypi.org/project/{package}/{version}/",
                           "pypi", package))
    return found


def _next_page(link_header: str) -> str:
    """The rel="next" address of a Link header, or ""."""
    for part in link_header.split(","):
        address, _, params = part.partition(";")
        if 'rel="next"' in params.replace(" ", ""):
            return address.strip().strip("<>")
    return ""


def _release_page(raw: dict, repo: str, tag: str) -> str:
    """The release's `html_url` when it is a plain https address; else its page on github.com."""
    url = raw.get("html_url")
    if isinstance(url, str) and len(url) < 500:
        parts = urlsplit(url)
        if parts.scheme == "https" and parts.hostname and "@" not in parts.netloc and not any(
                c.isspace() or c == "\\" for c in url):
            return url
    return f"https://github.com/{repo}/releases/tag/{quote(tag)}"


def github_releases(client: Client, base: str, repo: str, token: str = "") -> list[Found]:
    """Every published release of `repo` whose tag is a semantic version; drafts and build tags are
    left out. The token, when given, goes to the API base only."""
    what = f"GitHub releases of {repo}"
    base = base.rstrip("/")
    credential = Credential(base + "/", {"Authorization": f"Bearer {token}"}) if token else None
    headers = {"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"}
    url, found = f"{base}/repos/{repo}/releases?per_page=100", []
    for _ in range(GITHUB_PAGES):
        answer = _get(client, url, what, headers=headers, credential=credential)
        page = _json(answer, what)
        if not isinstance(page, list):
            raise ChannelError(f"{what}: the answer is not a list of releases")
        found += [release for raw in page if (release := _github_release(raw, repo))]
        url = _next_page(answer.headers.get("link", ""))
        if not url or not page:
            break
    return found


def _github_release(raw, repo: str) -> Found | None:
    if not isinstance(raw, dict) or raw.get("draft") is not False:
        return None  # a draft, or a release that does not say it is not one
    tag = raw.get("tag_name")
    key = tag_version(tag)
    day = _day(raw.get("published_at") or raw.get("created_at"))
    if key is None or not day:
        return None
    pre = key.is_prerelease or raw.get("prerelease") is True  # the project may mark a plain version as a pre-release
    return Found(tag, key, day, pre, _release_page(raw, repo, tag), "github", repo)


def merged(found: list[Found]) -> list[Found]:
    """One release per version, newest first: the first channel that has it wins (the data lists
    PyPI before GitHub, and the package index's upload day is the release date it records)."""
    by_version: dict[Version, Found] = {}
    for release in found:
        by_version.setdefault(release.key, release)
    return sorted(by_version.values(), key=lambda r: (r.key, r.date), reverse=True)
