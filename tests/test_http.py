"""The shared HTTP client (macros/tools/http.py) called directly: each rule shown refusing the bad
case, against a local server or a stand-in resolver. Nothing here reaches the network."""
from __future__ import annotations

import gzip
import socket

import pytest

from fakeweb import FakeWeb, Reply
from macros.tools.http import (Cache, Client, Credential, FetchError, Settings, address_problem, default_ca_certs,
                               default_cache_dir, public_addresses, Refused, untrusted_url_problem, within)


def settings(tmp_path, **changes) -> Settings:
    return Settings(**{"timeout": 0.5, "retries": 0, "backoff": 0.01, "cache_dir": tmp_path / "cache", **changes})


@pytest.fixture
def web():
    with FakeWeb() as server:
        yield server


def trusted(web, tmp_path, **changes) -> Client:
    return Client(settings(tmp_path, **changes), trusted=[web.base])


@pytest.mark.parametrize("ip,problem", [
    ("127.0.0.1", "loopback"), ("::1", "loopback"), ("::ffff:127.0.0.1", "loopback"), ("10.0.0.8", "private"),
    ("192.168.1.1", "private"), ("172.16.0.1", "private"), ("169.254.169.254", "link-local"), ("fe80::1", "link-local"),
    ("224.0.0.251", "multicast"), ("0.0.0.0", "unspecified"), ("100.64.0.1", "not a public address"),
    ("fd00::1", "private"),
])
def test_addresses_that_are_not_public_are_named(ip, problem):
    assert problem in address_problem(ip)


def test_public_addresses_pass():
    assert address_problem("93.184.216.34") == "" and address_problem("2606:2800:220:1:248:1893:25c8:1946") == ""


def fake_resolver(*ips):
    def resolve(host, port, type=0):
        return [(socket.AF_INET6 if ":" in ip else socket.AF_INET, socket.SOCK_STREAM, 6, "", (ip, port)) for ip in ips]
    return resolve


def test_a_host_with_one_private_address_among_public_ones_is_refused():
    with pytest.raises(Refused, match="mixed.example resolves to 10.0.0.1, a private address"):
        public_addresses("mixed.example", 443, fake_resolver("93.184.216.34", "10.0.0.1"))
    assert public_addresses("fine.example", 443, fake_resolver("93.184.216.34")) == ["93.184.216.34"]


def test_a_public_looking_name_that_resolves_to_metadata_is_refused_at_connection_time(tmp_path):
    client = Client(settings(tmp_path), resolve=fake_resolver("169.254.169.254"))
    with pytest.raises(FetchError, match="docs.example.org resolves to 169.254.169.254, a link-local address"):
        client.get("https://docs.example.org/page")


@pytest.mark.parametrize("url,problem", [
    ("http://docs.example.org/", "only https://"), ("https://user:pw@docs.example.org/", "user name or password"),
    ("https:///nohost", "no host"), ("https://docs.example.org:99999/", "not a valid URL"), ("ftp://x/", "only https"),
])
def test_untrusted_urls_must_be_plain_https(url, problem):
    assert problem in untrusted_url_problem(url)
    assert untrusted_url_problem("https://docs.example.org/page") == ""


@pytest.mark.parametrize("url,prefix,inside", [
    ("http://127.0.0.1:8000/mirror/a", "http://127.0.0.1:8000/mirror/", True),
    ("http://127.0.0.1:8000/other/a", "http://127.0.0.1:8000/mirror/", False),
    ("http://127.0.0.1:8000@evil.example/mirror/", "http://127.0.0.1:8000", False),
    ("https://127.0.0.1:8000/mirror/a", "http://127.0.0.1:8000/mirror/", False),
    ("http://127.0.0.1:8001/mirror/a", "http://127.0.0.1:8000/mirror/", False),
    ("https://API.github.com/repos/x", "https://api.github.com/", True),
    ("https://api.github.com.evil.example/repos/x", "https://api.github.com/", False),
])
def test_within_compares_scheme_host_port_and_path(url, prefix, inside):
    assert within(url, prefix) is inside


def test_an_answer_over_the_size_cap_is_refused(web, tmp_path):
    web.routes["/big"] = Reply(200, b"x" * 5000)
    with pytest.raises(FetchError, match="more than the cap of 1,000"):
        trusted(web, tmp_path, max_bytes=1000).get(f"{web.base}/big")


def test_a_compressed_answer_is_capped_by_its_decoded_size(web, tmp_path):
    web.routes["/bomb"] = Reply(200, gzip.compress(b"x" * 200_000), {"Content-Encoding": "gzip"})
    with pytest.raises(FetchError, match="larger than the cap of 100,000 bytes"):
        trusted(web, tmp_path, max_bytes=100_000).get(f"{web.base}/bomb")


def test_at_most_per_host_requests_at_a_time(web, tmp_path):
    # each answer takes long enough that two requests overlap even on a loaded machine: the cap is seen reached
    web.routes.update({f"/slow/{i}": Reply(200, "ok", wait=0.5) for i in range(6)})
    client = trusted(web, tmp_path, per_host=2, workers=6, timeout=5)
    answers = client.map(lambda i: client.get(f"{web.base}/slow/{i}"), range(6))
    assert [a.status for a in answers] == [200] * 6 and web.most_active == 2


def test_retries_wait_longer_each_time_and_give_up_with_the_last_status(web, tmp_path):
    web.routes["/flaky"] = Reply(502, "bad gateway")
    waits = []
    client = Client(settings(tmp_path, retries=2, backoff=0.25), trusted=[web.base], sleep=waits.append)
    assert client.get(f"{web.base}/flaky").status == 502
    assert waits == [0.25, 0.5] and len(web.requests_to("/flaky")) == 3


def test_a_long_retry_after_is_not_waited_for(web, tmp_path):
    web.routes["/limited"] = Reply(429, "slow down", {"Retry-After": "3600"})
    waits = []
    client = Client(settings(tmp_path, retries=2), trusted=[web.base], sleep=waits.append)
    assert client.get(f"{web.base}/limited").status == 429 and waits == []
    web.routes["/limited"] = [Reply(429, "slow down", {"Retry-After": "2"}), Reply(200, "ok")]
    assert client.get(f"{web.base}/limited").status == 200 and waits == [2.0]


def test_a_404_is_an_answer_not_retried(web, tmp_path):
    waits = []
    client = Client(settings(tmp_path, retries=2), trusted=[web.base], sleep=waits.append)
    assert client.get(f"{web.base}/missing").status == 404 and waits == [] and len(web.seen) == 1


def test_a_credential_goes_only_under_its_prefix(web, tmp_path):
    with FakeWeb() as other:
        other.routes["/landed"] = Reply(200, "ok")
        web.routes["/api/start"] = Reply.redirect("/api/next")
        web.routes["/api/next"] = Reply.redirect(f"{other.base}/landed")
        client = Client(settings(tmp_path), trusted=[web.base, other.base])
        answer = client.get(f"{web.base}/api/start", credential=Credential(f"{web.base}/api/", {"Authorization": "t"}))
    assert answer.status == 200 and answer.url == f"{other.base}/landed"
    assert [s.headers.get("authorization") for s in web.seen] == ["t", "t"]
    assert "authorization" not in other.seen[0].headers


def test_a_broken_cache_entry_is_ignored(web, tmp_path):
    web.routes["/page"] = Reply(200, "fresh", {"ETag": '"1"'})
    client = trusted(web, tmp_path)
    assert client.get(f"{web.base}/page").body == b"fresh"
    for path in (tmp_path / "cache").iterdir():
        path.write_text("{broken")
    assert client.get(f"{web.base}/page").body == b"fresh"
    assert "if-none-match" not in web.seen[-1].headers
    assert Cache(None).validators("x") == {}


def test_the_cache_lives_outside_the_repository():
    from conftest import ROOT

    assert default_cache_dir({"XDG_CACHE_HOME": "/var/cache/me"}).as_posix() == "/var/cache/me/inference-engines-compared/http"
    assert ROOT not in default_cache_dir({"XDG_CACHE_HOME": "relative/ignored"}).parents


def test_the_certificates_trusted_are_ssl_cert_file_when_it_names_a_file(tmp_path):
    import certifi

    bundle = tmp_path / "proxy-ca.pem"
    bundle.write_text("-----BEGIN CERTIFICATE-----\n", encoding="utf-8")
    assert default_ca_certs({"SSL_CERT_FILE": str(bundle)}) == str(bundle)
    assert default_ca_certs({"SSL_CERT_FILE": str(tmp_path / "missing.pem")}) == certifi.where()
    assert default_ca_certs({}) == certifi.where()
