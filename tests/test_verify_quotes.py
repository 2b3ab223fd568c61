"""`python -m macros verify-quotes`: quoted sources fetched from a local server through --rewrite;
found, changed, gone and unreachable with their HTTP status; exit 0, 1 and 2; private and
loopback hosts refused unless they are a --rewrite target the operator typed."""
from __future__ import annotations

import io
import json
import subprocess
import sys
import tarfile

import pytest

from conftest import ROOT, report_of
from fakeweb import FakeWeb, Reply, run_tool

DOCS = "https://docs.alpha.example/"

PAGE = """<!doctype html><html><head><title>Alpha docs</title>
<script>var hidden = "Only in a script.";</script><style>p::after { content: "Only in a style." }</style></head>
<body><nav>Home</nav><main><h1>Serving</h1>
<p>It's served with "alpha&nbsp;serve"   -
 fast.</p><p>Install with <code>alpha serve</code>.</p>
<!-- Only in a comment. --><p>Prefix caching is experimental in this release.</p></main></body></html>"""


def tarball(files: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


# source id -> (url, quote); the pages behind them are served by the `web` fixture
CASES = {
    "q-typographic": (f"{DOCS}serving", "It\u2019s served with \u201calpha serve\u201d \u2014 fast."),
    "q-markdown": (f"{DOCS}serving#install", "Install with `alpha serve`."),
    "q-changed": (f"{DOCS}caching", "Prefix caching is stable in this release."),
    "q-script": (f"{DOCS}serving?script", "Only in a script."),
    "q-comment": (f"{DOCS}serving?comment", "Only in a comment."),
    "q-404": (f"{DOCS}removed", "Anything."),
    "q-410": (f"{DOCS}withdrawn", "Anything."),
    "q-500": (f"{DOCS}broken", "Anything."),
    "q-slow": (f"{DOCS}slow", "Anything."),
    "q-moved": (f"{DOCS}old-place", "Install with `alpha serve`."),
    "q-blob": ("https://github.com/alpha-org/alpha/blob/v1.0/docs/serve.md", "Run `alpha serve --port 8000`."),
    "q-archive-a": ("https://files.alpha.example/alpha-1.0.tar.gz#alpha-1.0/setup.py", "name='alpha'"),
    "q-archive-b": ("https://files.alpha.example/alpha-1.0.tar.gz#alpha-1.0/LICENSE", "MIT License"),
    "q-private": ("https://10.1.2.3/docs/", "Anything."),
    "q-metadata": ("https://169.254.169.254/latest/meta-data/", "Anything."),
}


@pytest.fixture
def web():
    with FakeWeb() as server:
        server.routes.update({
            "/alpha/serving": Reply.html(PAGE, ETag='"p1"'),
            "/alpha/caching": Reply.html(PAGE),
            "/alpha/removed": Reply(404, "gone"),
            "/alpha/withdrawn": Reply(410, "gone for good"),
            "/alpha/broken": Reply(500, "oops"),
            "/alpha/slow": Reply.html(PAGE, wait=3.0),
            "/alpha/old-place": Reply.redirect("/alpha/serving", 301),
            "/raw/alpha-org/alpha/v1.0/docs/serve.md": Reply(200, "# Serve\n\nRun `alpha serve --port 8000`.\n",
                                                              {"Content-Type": "text/plain; charset=utf-8"}),
            "/files/alpha-1.0.tar.gz": Reply(200, tarball({"alpha-1.0/setup.py": "setup(name='alpha')\n",
                                                           "alpha-1.0/LICENSE": "MIT License\n"}),
                                             {"Content-Type": "application/octet-stream"}),
        })
        yield server


def quoted(data, cases: dict[str, tuple[str, str]]) -> None:
    """Add a source per case to the minimal data, each cited by Alpha."""
    entries = "".join(f"  - id: {sid}\n    title: Page {sid}\n    url: {url}\n    publisher: Alpha project\n"
                      f"    kind: docs\n    checked: 2026-01-10\n    quote: {json.dumps(quote)}\n"
                      for sid, (url, quote) in cases.items())
    data.write("sources.yml", data.file("sources.yml").read_text(encoding="utf-8") + entries)
    data.replace("engines/alpha.yml", "sources: [alpha-docs]\nsupport:", f"sources: [alpha-docs, {', '.join(cases)}]\nsupport:")
    assert data.problems() == []


def rewrites(web) -> list[str]:
    return ["--rewrite", f"{DOCS}={web.base}/alpha/", "--rewrite", f"https://raw.githubusercontent.com/={web.base}/raw/",
            "--rewrite", f"https://files.alpha.example/={web.base}/files/"]


def verify(data, web, *args, cache=None, extra=()):
    return run_tool("--data", str(data.path), "verify-quotes", "--format", "json", "--timeout", "0.5", "--retries", "1",
                    *rewrites(web), *extra, *args, env={"XDG_CACHE_HOME": str(cache or data.path.parent / "cache")})


def pick(*ids: str) -> dict:
    return {sid: CASES[sid] for sid in ids}


def test_every_result_with_its_http_status_in_the_json_shape_of_the_issue(data, web):
    quoted(data, CASES)
    result = verify(data, web)
    report = report_of(result)
    assert set(report) == {"sources", "summary"}
    results = {sid: (entry["result"], entry["http_status"]) for sid, entry in report["sources"].items()}
    assert results == {
        "q-typographic": ("found", 200), "q-markdown": ("found", 200), "q-moved": ("found", 200),
        "q-blob": ("found", 200), "q-archive-a": ("found", 200), "q-archive-b": ("found", 200),
        "q-changed": ("changed", 200), "q-script": ("changed", 200), "q-comment": ("changed", 200),
        "q-404": ("gone", 404), "q-410": ("gone", 410),
        "q-500": ("unreachable", 500), "q-slow": ("unreachable", None),
        "q-private": ("unreachable", None), "q-metadata": ("unreachable", None),
    }
    assert report["summary"] == {"found": 6, "changed": 3, "gone": 2, "unreachable": 4}
    entry = report["sources"]["q-typographic"]
    assert entry["url"] == CASES["q-typographic"][0] and {"url", "result", "http_status"} <= set(entry)
    assert result.returncode == 2  # some were unreachable


def test_a_changed_quote_shows_the_passage_most_like_it(data, web):
    quoted(data, pick("q-changed"))
    entry = report_of(verify(data, web))["sources"]["q-changed"]
    assert entry["closest"] == "comment. --> Prefix caching is experimental in this release." or \
        "Prefix caching is experimental in this release." in entry["closest"]
    assert entry["quote"] == CASES["q-changed"][1]


@pytest.mark.parametrize("ids,code", [
    (("q-typographic", "q-markdown"), 0),
    (("q-typographic", "q-changed"), 1),
    (("q-typographic", "q-404"), 1),
    (("q-changed", "q-500"), 2),
], ids=["all-found", "changed", "gone", "unreachable"])
def test_exit_codes(data, web, ids, code):
    quoted(data, pick(*ids))
    assert verify(data, web).returncode == code


def test_each_page_is_fetched_once_however_many_sources_cite_it(data, web):
    quoted(data, pick("q-archive-a", "q-archive-b", "q-typographic", "q-markdown"))
    assert verify(data, web).returncode == 0
    assert len(web.requests_to("/files/alpha-1.0.tar.gz")) == 1
    assert len(web.requests_to("/alpha/serving")) == 1  # a fragment is not a page of its own


def test_retries_then_gives_up_with_the_status(data, web):
    web.routes["/alpha/broken"] = [Reply(503, "busy"), Reply.html(PAGE)]
    quoted(data, {"q-retry": (f"{DOCS}broken", "Install with `alpha serve`.")})
    assert report_of(verify(data, web))["sources"]["q-retry"]["result"] == "found"
    assert len(web.requests_to("/alpha/broken")) == 2


def test_a_loopback_host_in_a_source_is_refused_unless_it_is_a_rewrite_target(data, web):
    url = f"https://127.0.0.1:{web.port}/alpha/serving"
    quoted(data, {"q-loopback": (url, "Install with `alpha serve`.")})
    refused = report_of(verify(data, web))["sources"]["q-loopback"]
    assert refused["result"] == "unreachable" and "loopback" in refused["message"] and web.seen == []
    typed = verify(data, web, extra=("--rewrite", f"https://127.0.0.1:{web.port}/={web.base}/"))
    assert report_of(typed)["sources"]["q-loopback"]["result"] == "found"


def test_private_and_link_local_hosts_are_refused_before_any_connection(data, web):
    quoted(data, pick("q-private", "q-metadata"))
    sources = report_of(verify(data, web))["sources"]
    assert "10.1.2.3 is a private address" in sources["q-private"]["message"]
    assert "169.254.169.254 is a link-local address" in sources["q-metadata"]["message"]


@pytest.mark.parametrize("location,why", [
    ("https://127.0.0.1:{port}/alpha/serving", "loopback"),  # https, but to this machine
    ("http://127.0.0.1:{port}/elsewhere/serving", "only https://"),  # the operator's host, outside the path typed
    ("https://user:pw@docs.alpha.example/serving", "user name or password"),
], ids=["to-loopback", "off-the-rewrite-target", "credentials"])
def test_every_redirect_is_checked_again(data, web, location, why):
    web.routes["/alpha/hop"] = Reply.redirect(location.format(port=web.port))
    web.routes["/elsewhere/serving"] = Reply.html(PAGE)
    quoted(data, {"q-hop": (f"{DOCS}hop", "Install with `alpha serve`.")})
    entry = report_of(verify(data, web))["sources"]["q-hop"]
    assert entry["result"] == "unreachable" and why in entry["message"], entry
    assert web.requests_to("/elsewhere/serving") == []


def test_a_redirect_loop_stops_at_the_cap(data, web):
    web.routes["/alpha/loop"] = Reply.redirect("/alpha/loop")
    quoted(data, {"q-loop": (f"{DOCS}loop", "x")})
    entry = report_of(verify(data, web))["sources"]["q-loop"]
    assert entry["result"] == "unreachable" and "more than 5 redirects" in entry["message"]
    assert len(web.requests_to("/alpha/loop")) == 6


def test_conditional_requests_on_a_second_run(data, web, tmp_path):
    web.routes["/alpha/serving"] = lambda headers: (
        Reply(304) if headers.get("if-none-match") == '"p1"' else Reply.html(PAGE, ETag='"p1"'))
    quoted(data, pick("q-typographic"))
    for _ in range(2):
        assert report_of(verify(data, web, cache=tmp_path))["sources"]["q-typographic"]["result"] == "found"
    first, second = web.requests_to("/alpha/serving")
    assert "if-none-match" not in first.headers and second.headers["if-none-match"] == '"p1"'
    assert "inference-engines-compared-verify-quotes" in first.headers["user-agent"]


def test_engine_filter_checks_only_the_sources_its_data_cites(data, web):
    quoted(data, pick("q-typographic"))
    assert report_of(verify(data, web, "--engine", "beta"))["summary"] == {"found": 0, "changed": 0, "gone": 0,
                                                                           "unreachable": 0}
    assert web.seen == []
    unknown = verify(data, web, "--engine", "alhpa")
    assert unknown.returncode == 2 and "did you mean 'alpha'?" in unknown.stderr


def test_a_bad_rewrite_is_a_one_line_error(data, web):
    result = run_tool("--data", str(data.path), "verify-quotes", "--rewrite", "https://a.example/")
    assert result.returncode == 2 and "write it as FROM=TO" in result.stderr


def test_the_text_report_lists_what_is_not_found_then_the_count(data, web):
    quoted(data, pick("q-typographic", "q-changed", "q-404", "q-private"))
    result = run_tool("--data", str(data.path), "verify-quotes", "--timeout", "0.5", *rewrites(web),
                      env={"XDG_CACHE_HOME": str(data.path.parent / "cache")})
    lines = result.stdout.splitlines()
    assert result.returncode == 2
    assert lines[-1] == "4 quotes: 1 found, 1 changed, 1 gone, 1 unreachable"
    assert any(line.startswith("changed     q-changed  https://docs.alpha.example/caching  (HTTP 200") for line in lines)
    assert "    closest: " in result.stdout and not any("q-typographic" in line for line in lines)
    assert any(line.startswith("gone        q-404") and "(HTTP 404)" in line for line in lines)


def test_as_the_operator_runs_it(data, web):
    """A new process, as `make verify-quotes` starts it: the report, exit 1, no traceback."""
    quoted(data, pick("q-typographic", "q-changed"))
    command = [sys.executable, "-m", "macros", "--data", str(data.path), "verify-quotes", "--timeout", "0.5",
               *rewrites(web)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60,
                            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin",
                                 "XDG_CACHE_HOME": str(data.path.parent / "cache")})
    assert result.returncode == 1 and "Traceback" not in result.stdout + result.stderr
    assert result.stdout.splitlines()[-1] == "2 quotes: 1 found, 1 changed, 0 gone, 0 unreachable"


# --- what a page says, as text -----------------------------------------------------------------------

def test_html_text_skips_what_a_reader_does_not_see_and_breaks_blocks():
    from macros.tools.pagetext import html_text

    text = html_text(PAGE.encode())
    assert "Only in a script" not in text and "Only in a style" not in text and "Only in a comment" not in text
    assert "Serving\n" in text and "Alpha docs" not in text  # the <title> is not page text


def test_a_deeply_nested_page_does_not_exhaust_the_stack():
    from macros.tools.pagetext import contains_quote, html_text

    page = ("<div>" * 200 + "deep quote" + "</div>" * 200).encode()
    assert contains_quote(html_text(page), "deep quote")
    html_text(b"<div>" * 100_000)  # past the parser's depth limit: no crash (its text reads as changed, never found)


@pytest.mark.parametrize("content_type,member,message", [
    ("image/png", "", "not a page of text"),
    ("application/octet-stream", "pkg/missing.py", "has no file pkg/missing.py"),
    ("application/gzip", "pkg/setup.py", "does not open"),
])
def test_answers_that_hold_no_text_are_said_so(content_type, member, message):
    from macros.tools.pagetext import NotText, page_text

    with pytest.raises(NotText, match=message):
        page_text(tarball({"pkg/setup.py": "x"}) if "missing" in member else b"\x89PNG...", content_type, "", member)


def test_normalise_makes_typography_plain():
    from macros.tools.pagetext import normalise

    assert normalise("It\u2019s \u201cfine\u201d \u2014 really\u2026\u00a0 `ok`") == "It's \"fine\" - really... ok"
    assert normalise("ﬁle") == "file"  # compatibility forms


def test_github_file_pages_are_read_from_their_raw_view():
    from macros.tools.quotes import fetch_address

    assert fetch_address("https://github.com/o/r/blob/release/1.0/docs/a.md#L3") == (
        "https://raw.githubusercontent.com/o/r/release/1.0/docs/a.md", "")
    assert fetch_address("https://github.com/o/r/pull/12") == ("https://github.com/o/r/pull/12", "")
    assert fetch_address("https://f.example/p-1.tar.gz#p-1/setup.py") == ("https://f.example/p-1.tar.gz", "p-1/setup.py")
