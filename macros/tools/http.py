"""The one HTTP client of the tools that read the web (`make refresh`, `make verify-quotes`).

Built to be a good citizen towards the hosts it reads, and hard to turn against the machine it runs on:

- timeouts on connecting, on every read and on the whole answer; a few retries, with waits that
  double, for the failures worth retrying (a dropped connection, a timeout, 429 and 5xx answers);
- at most a few requests at a time to one host, and a User-Agent that says who asks and why;
- conditional requests (ETag, Last-Modified) against a cache outside the repository, so a weekly
  run costs the hosts little;
- caps on the size of an answer and on redirects, which are followed one hop at a time so each
  hop is checked again;
- URLs that come from the data or from a redirect are fetched only over https, from hosts whose
  every address is public (no loopback, private, link-local or multicast address). The address is
  checked where the connection is made, so a DNS answer cannot change between check and use. URLs
  under a prefix the operator typed (an API base, a `--rewrite` target) are trusted as typed;
- credentials go only to the prefix they belong to, never on a redirect to another host.

urllib3 does the HTTP; everything above is here, in small functions the tests call directly.
"""
from __future__ import annotations

import hashlib
import ipaddress
import json
import os
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import urllib3
from urllib3.connection import HTTPSConnection
from urllib3.connectionpool import HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, HTTPError, NewConnectionError
from urllib3.util import connection as urllib3_connection

PROJECT = "inference-engines-compared"
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
LONGEST_RETRY_AFTER = 30.0  # seconds: a server asking for a longer pause is answered with a failure instead
ERROR_BODY_BYTES = 64 * 1024  # enough of an error answer to quote its message


def default_cache_dir(environ=os.environ) -> Path | None:
    """$XDG_CACHE_HOME/inference-engines-compared/http, or ~/.cache/...: never inside the repository.
    None (no cache) for a user without a home."""
    base = environ.get("XDG_CACHE_HOME", "")
    try:
        root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".cache"  # XDG: relative is invalid
    except RuntimeError:
        return None
    return root / PROJECT / "http"


def default_ca_certs(environ=os.environ) -> str | None:
    """The certificates to trust: $SSL_CERT_FILE when it names a file (where a machine behind a
    TLS-inspecting proxy keeps its CA, as OpenSSL, curl and pip read it), else certifi's bundle,
    else None (the system's)."""
    named = environ.get("SSL_CERT_FILE", "")
    if named and Path(named).is_file():
        return named
    try:
        import certifi
    except ImportError:
        return None
    return certifi.where()


def user_agent(tool: str, environ=os.environ) -> str:
    """Who asks and why, with the repository CI builds when there is one (host and path only)."""
    contact = ""
    if environ.get("GITHUB_SERVER_URL") and environ.get("GITHUB_REPOSITORY"):
        contact = f"{environ['GITHUB_SERVER_URL']}/{environ['GITHUB_REPOSITORY']}"
    elif environ.get("CI_PROJECT_URL"):
        contact = environ["CI_PROJECT_URL"]
    parts = urlsplit(contact)
    contact = f"; +https://{parts.hostname}{parts.path}" if parts.scheme == "https" and parts.hostname else ""
    return f"{PROJECT}-{tool}/1 (a weekly check of release channels and cited quotes{contact}) urllib3/{urllib3.__version__}"


@dataclass(frozen=True)
class Settings:
    """How the client behaves. The defaults suit a weekly run; tests shorten the timeouts."""

    timeout: float = 15.0  # seconds to connect, and to wait for each read
    retries: int = 2  # further attempts after a failure worth retrying
    backoff: float = 0.5  # seconds before the first retry; doubles with each
    per_host: int = 2  # requests at a time to one host
    workers: int = 8  # requests at a time in all
    max_bytes: int = 20 * 1024 * 1024  # the largest answer read (a PyPI JSON of a busy package is a few MB)
    max_redirects: int = 5
    cache_dir: Path | None = field(default_factory=default_cache_dir)  # None: no cache, no conditional requests
    user_agent: str = field(default_factory=lambda: user_agent("tools"))
    ca_certs: str | None = field(default_factory=default_ca_certs)  # None: the system's certificates

    @property
    def deadline(self) -> float:
        """Seconds for a whole answer: a server that drips bytes cannot hold a worker for ever."""
        return self.timeout * 6


@dataclass(frozen=True)
class Answer:
    url: str  # the URL that answered, after any redirects
    status: int
    headers: dict  # lower-case names
    body: bytes
    from_cache: bool = False

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";")[0].strip().lower()

    @property
    def charset(self) -> str:
        for part in self.headers.get("content-type", "").split(";")[1:]:
            name, _, value = part.partition("=")
            if name.strip().lower() == "charset":
                return value.strip().strip('"').lower()
        return ""


class FetchError(Exception):
    """No usable answer: a timeout, a refused or failed connection, an answer too large. One line."""

    def __init__(self, message: str, retryable: bool = False):
        super().__init__(message)
        self.retryable = retryable  # a transport failure, which another attempt may not meet


class Refused(Exception):
    """A URL this client will not fetch, for the reason given. Never retried."""


@dataclass(frozen=True)
class Credential:
    """Headers (a token) that belong to one URL prefix and go nowhere else."""

    prefix: str
    headers: dict


# --- which URLs may be fetched ---------------------------------------------------------------

def _port(parts) -> int | None:
    try:
        return parts.port or {"https": 443, "http": 80}.get(parts.scheme)
    except ValueError:
        return None


def within(url: str, prefix: str) -> bool:
    """`url` lies under `prefix`: same scheme, host and port, and its path starts with the prefix's.
    Compared parsed, so `http://127.0.0.1:8000@elsewhere/` is not under `http://127.0.0.1:8000`."""
    a, b = urlsplit(url), urlsplit(prefix)
    if (a.scheme.lower(), a.hostname, _port(a)) != (b.scheme.lower(), b.hostname, _port(b)) or a.username or a.password:
        return False
    return a.path.startswith(b.path) if b.path not in ("", "/") else True


def address_kind(ip: str) -> str:
    """What kind of address `ip` is when it is not public ("a private address"), or ""."""
    address = ipaddress.ip_address(ip.split("%")[0])
    address = getattr(address, "ipv4_mapped", None) or address
    for name, is_kind in (("a loopback", address.is_loopback), ("a link-local", address.is_link_local),
                          ("a multicast", address.is_multicast), ("an unspecified", address.is_unspecified),
                          ("a private", address.is_private), ("a reserved", address.is_reserved)):
        if is_kind:
            return f"{name} address"
    return "" if address.is_global else "not a public address"


def address_problem(ip: str) -> str:
    """Why a connection to `ip` is refused ("" when it is a public address)."""
    kind = address_kind(ip)
    return f"{ip} is {kind}" if kind else ""


def public_addresses(host: str, port: int, resolve=socket.getaddrinfo) -> list[str]:
    """Every address `host` resolves to, when all of them are public. Raises Refused otherwise."""
    try:
        found = resolve(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise Refused(f"{host} does not resolve ({error})") from None
    addresses = list(dict.fromkeys(info[4][0] for info in found))
    for ip in addresses:
        if kind := address_kind(ip):
            where = f"{ip} is {kind}" if ip == host.strip("[]") else f"{host} resolves to {ip}, {kind}"
            raise Refused(f"{where}; only public hosts are fetched")
    if not addresses:
        raise Refused(f"{host} does not resolve")
    return addresses


def untrusted_url_problem(url: str) -> str:
    """Why a URL from the data or a redirect cannot be fetched ("" when it may, once its host is checked)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        return "it is not a valid URL"
    if parts.scheme.lower() != "https":
        return "only https:// addresses are fetched"
    if not parts.hostname:
        return "it names no host"
    if parts.username or parts.password or "@" in parts.netloc:
        return "it carries a user name or password"
    return ""


def _vetted_pool_manager(resolve, **options) -> urllib3.PoolManager:
    """A pool manager for untrusted https URLs: each connection goes to an address checked to be public."""

    class VettedHTTPSConnection(HTTPSConnection):
        def _new_conn(self):
            last = None
            for ip in public_addresses(self._dns_host, self.port, resolve):
                try:
                    return urllib3_connection.create_connection((ip, self.port), self.timeout,
                                                                source_address=self.source_address,
                                                                socket_options=self.socket_options)
                except TimeoutError as error:
                    raise ConnectTimeoutError(self, f"connecting to {self.host} timed out") from error
                except OSError as error:
                    last = error
            raise NewConnectionError(self, f"cannot connect to {self.host}: {last}")

    class VettedPool(HTTPSConnectionPool):
        ConnectionCls = VettedHTTPSConnection

    manager = urllib3.PoolManager(**options)
    manager.pool_classes_by_scheme = {"https": VettedPool}
    return manager


def _pool_options(settings: Settings) -> dict:
    options = {"num_pools": 20, "maxsize": settings.per_host, "block": True}
    if settings.ca_certs:
        options["ca_certs"] = settings.ca_certs
    return options


# --- the cache of conditional requests ----------------------------------------------------------

class Cache:
    """Answers kept by URL with their validators, so the next request can ask "changed since?".
    Files under a folder of this user's only; a broken entry is treated as absent."""

    def __init__(self, folder: Path | None):
        self.folder = folder

    def _paths(self, url: str) -> tuple[Path, Path]:
        key = hashlib.sha256(url.encode("utf-8")).hexdigest()
        return self.folder / f"{key}.json", self.folder / f"{key}.body"

    def get(self, url: str) -> tuple[dict, bytes] | None:
        if self.folder is None:
            return None
        meta_path, body_path = self._paths(url)
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            body = body_path.read_bytes()
        except (OSError, ValueError):
            return None
        if not isinstance(meta, dict) or meta.get("url") != url or not isinstance(meta.get("headers"), dict):
            return None
        return meta, body

    def validators(self, url: str) -> dict:
        """The If-None-Match and If-Modified-Since headers for `url`, when an answer is kept."""
        kept = self.get(url)
        if kept is None:
            return {}
        headers = kept[0]["headers"]
        found = {"If-None-Match": headers.get("etag"), "If-Modified-Since": headers.get("last-modified")}
        return {name: value for name, value in found.items() if isinstance(value, str) and value}

    def put(self, url: str, headers: dict, body: bytes) -> None:
        """Keep a 200 answer that carries a validator; a cache that cannot be written is skipped."""
        if self.folder is None or not (headers.get("etag") or headers.get("last-modified")):
            return
        meta_path, body_path = self._paths(url)
        kept = {name: headers[name] for name in ("etag", "last-modified", "content-type") if name in headers}
        try:
            self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            for path, data in ((body_path, body), (meta_path, json.dumps({"url": url, "headers": kept}).encode())):
                temporary = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
                temporary.write_bytes(data)
                os.chmod(temporary, 0o600)
                os.replace(temporary, path)
        except OSError:
            pass


# --- the client ----------------------------------------------------------------------------------

class Client:
    """GET with every rule of this module. `trusted` are the URL prefixes the operator typed;
    `rewrite` maps a URL to the one to fetch (the operator's `--rewrite`); `resolve` and `sleep`
    are the system's, replaced by tests."""

    def __init__(self, settings: Settings | None = None, trusted=(), rewrite=None, resolve=socket.getaddrinfo,
                 sleep=time.sleep):
        self.settings = settings = settings or Settings()
        self.trusted_prefixes = tuple(trusted)
        self.rewrite = rewrite or (lambda url: url)
        self.sleep = sleep
        self.cache = Cache(settings.cache_dir)
        options = _pool_options(settings)
        self._trusted_pools = urllib3.PoolManager(**options)
        self._vetted_pools = _vetted_pool_manager(resolve, **options)
        self._slots: dict[tuple, threading.BoundedSemaphore] = {}
        self._slots_lock = threading.Lock()

    def is_trusted(self, url: str) -> bool:
        return any(within(url, prefix) for prefix in self.trusted_prefixes)

    def map(self, function, items) -> list:
        """`function` over `items`, a few at a time; results in the order of `items`."""
        items = list(items)
        if len(items) <= 1:
            return [function(item) for item in items]
        with ThreadPoolExecutor(max_workers=min(self.settings.workers, len(items))) as pool:
            return list(pool.map(function, items))

    def get(self, url: str, headers: dict | None = None, credential: Credential | None = None) -> Answer:
        """The answer at `url` after redirects (any status), or FetchError. Each hop is checked
        and rewritten again; the credential goes only to URLs under its prefix."""
        current = self.rewrite(url.split("#")[0])
        for _ in range(self.settings.max_redirects + 1):
            sent = {**(headers or {}), **(credential.headers if credential and within(current, credential.prefix) else {})}
            answer = self._with_retries(current, sent)
            location = answer.headers.get("location", "")
            if answer.status not in REDIRECT_STATUSES or not location:
                return answer
            current = self.rewrite(urljoin(current, location).split("#")[0])
        raise FetchError(f"more than {self.settings.max_redirects} redirects")

    def _slot(self, url: str) -> threading.BoundedSemaphore:
        parts = urlsplit(url)
        key = (parts.scheme.lower(), parts.hostname, _port(parts))
        with self._slots_lock:
            return self._slots.setdefault(key, threading.BoundedSemaphore(self.settings.per_host))

    def _with_retries(self, url: str, headers: dict) -> Answer:
        """One hop, tried again after a failure worth retrying, waiting longer each time."""
        settings = self.settings
        for attempt in range(settings.retries + 1):
            last = attempt == settings.retries
            try:
                with self._slot(url):
                    answer = self._send(url, headers)
            except Refused as refusal:
                raise FetchError(f"refused: {refusal}") from None
            except FetchError as failure:
                if last or not failure.retryable:
                    raise
                wait = settings.backoff * 2 ** attempt
            else:
                if answer.status not in RETRY_STATUSES or last:
                    return answer
                wait = _retry_after(answer.headers.get("retry-after", ""), settings.backoff * 2 ** attempt)
                if wait is None:
                    return answer
            self.sleep(wait)
        raise AssertionError("unreachable")  # the loop returns or raises on its last attempt

    def _send(self, url: str, headers: dict) -> Answer:
        """One GET, no redirect followed, the body read within the size cap and the deadline."""
        trusted = self.is_trusted(url)
        if not trusted and (problem := untrusted_url_problem(url)):
            raise Refused(f"{url}: {problem}")
        sent = {"User-Agent": self.settings.user_agent, "Accept-Encoding": "gzip, deflate", **headers,
                **self.cache.validators(url)}
        pools = self._trusted_pools if trusted else self._vetted_pools
        timeout = urllib3.Timeout(connect=self.settings.timeout, read=self.settings.timeout)
        try:
            response = pools.urlopen("GET", url, headers=sent, redirect=False, retries=False, preload_content=False,
                                     timeout=timeout)
        except HTTPError as error:
            raise FetchError(_describe(error, self.settings), retryable=True) from None
        except (OSError, ValueError) as error:  # a URL urllib3 cannot even parse, a socket that failed oddly
            raise FetchError(f"cannot fetch {url}: {error}") from None
        try:
            return self._answer(url, response)
        finally:
            response.release_conn()

    def _answer(self, url: str, response) -> Answer:
        headers = {name.lower(): value for name, value in response.headers.items()}
        status = response.status
        if status == 304:
            kept = self.cache.get(url)
            if kept is not None:
                response.drain_conn()
                return Answer(url, 200, {**kept[0]["headers"], **headers}, kept[1], from_cache=True)
        if status in REDIRECT_STATUSES:
            response.drain_conn()
            return Answer(url, status, headers, b"")
        cap = self.settings.max_bytes if status == 200 else ERROR_BODY_BYTES
        body = _read_capped(response, cap, self.settings, truncate=status != 200)
        if status == 200:
            self.cache.put(url, headers, body)
        return Answer(url, status, headers, body)


def _read_capped(response, cap: int, settings: Settings, truncate: bool) -> bytes:
    """The (decoded) body, up to `cap` bytes, within the deadline; FetchError past either
    (or, for an error answer, its first `cap` bytes)."""
    declared = response.headers.get("content-length", "")
    if not truncate and declared.isdigit() and int(declared) > cap:
        response.close()
        raise FetchError(f"the answer is {int(declared):,} bytes, more than the cap of {cap:,}")
    chunks, size, started = [], 0, time.monotonic()
    try:
        while chunk := response.read(64 * 1024):
            size += len(chunk)
            if size > cap:
                if truncate:
                    chunks.append(chunk[: cap - (size - len(chunk))])
                    response.close()
                    break
                response.close()
                raise FetchError(f"the answer is larger than the cap of {cap:,} bytes")
            if time.monotonic() - started > settings.deadline:
                response.close()
                raise FetchError(f"the answer took longer than {settings.deadline:g} s")
            chunks.append(chunk)
    except HTTPError as error:
        response.close()
        raise FetchError(_describe(error, settings), retryable=True) from None
    return b"".join(chunks)


def _retry_after(header: str, default: float) -> float | None:
    """Seconds to wait before retrying: the server's Retry-After when it is short, the backoff
    otherwise; None when the server asks for a pause too long to wait for."""
    header = header.strip()
    if not header:
        return default
    if header.isdigit():
        return float(header) if float(header) <= LONGEST_RETRY_AFTER else None
    return default  # an HTTP date: not worth parsing for a weekly job


def _describe(error: Exception, settings: Settings) -> str:
    """One line for a transport failure, without urllib3's object dumps."""
    from urllib3.exceptions import (DecodeError, MaxRetryError, NameResolutionError, ProtocolError,
                                    ReadTimeoutError, SSLError)

    if isinstance(error, MaxRetryError) and error.reason is not None:
        error = error.reason
    if isinstance(error, (ConnectTimeoutError, ReadTimeoutError)) or "timed out" in str(error):
        return f"timed out after {settings.timeout:g} s"
    if isinstance(error, NameResolutionError):
        return "the host name does not resolve"
    if isinstance(error, SSLError):
        return "the TLS connection failed (certificate or protocol)"
    if isinstance(error, NewConnectionError):
        return "the connection failed (refused or unreachable)"
    if isinstance(error, ProtocolError):
        return "the connection broke off"
    if isinstance(error, DecodeError):
        return "the answer's compression is broken"
    return f"the request failed ({type(error).__name__})"
