"""`python -m macros refresh`: release channels read from a local server through --pypi and --github,
the JSON report, the exit codes, failing channels as entries, and --write in place."""
from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys

import pytest

from conftest import ROOT, report_of
from fakeweb import FakeWeb, Ran, Reply, run_tool

TODAY = dt.date(2026, 11, 29)
TOKEN = "ghp_test_secret_never_shown_0123456789"


def day(days_ago: int) -> str:
    return (TODAY - dt.timedelta(days=days_ago)).isoformat()


def pypi_file(days_ago: int, yanked: bool = False) -> dict:
    return {"filename": "x.whl", "upload_time_iso_8601": f"{day(days_ago)}T10:00:00.000000Z", "yanked": yanked}


ALPHA_PYPI = {"info": {"name": "alpha-engine"}, "releases": {
    "1.0.0": [pypi_file(200)], "1.1.0": [pypi_file(60)], "1.2.0": [pypi_file(20), pypi_file(19)],
    "1.3.0.dev2": [pypi_file(6)], "1.3.0rc1": [pypi_file(5)],
    "0.9": [pypi_file(400, yanked=True)],  # yanked: not a release
    "2.0.0": [],  # no files, so no date: not a release
    "not a version": [pypi_file(3)],
}}


def github_release(tag: str, days_ago: int, draft: bool = False, pre: bool = False, repo: str = "alpha-org/alpha"):
    return {"tag_name": tag, "name": f"<b>{tag}</b> {{{{ 7*7 }}}}", "draft": draft, "prerelease": pre,
            "published_at": f"{day(days_ago)}T12:00:00Z", "html_url": f"https://github.com/{repo}/releases/tag/{tag}"}


ALPHA_GITHUB = [
    github_release("b4321", 1),  # a nightly build tag: not a release
    github_release("v9.9.9", 2, draft=True),  # a draft: never a release
    github_release("v1.3.0rc1", 5, pre=True),
    github_release("v1.2.1", 10, pre=True),  # a plain version the project marks as a pre-release
    github_release("v1.2.0", 20),
]
BETA_GITHUB = [github_release("v2.1.0", 3, repo="beta-org/beta"), github_release("v2.0.0", 30, repo="beta-org/beta")]

ALPHA_HEAD = f"""releases:  # where Alpha publishes its releases
  pypi: [alpha-engine]
  github: alpha-org/alpha
official-urls: [https://alpha.example.org/, https://pypi.org/project/alpha-engine/, https://github.com/alpha-org/]
latest-release:
  # what the sources showed when last read
  stable:
    version: v1.0.0  # the first one
    date: {day(200)}
    sources: [alpha-pypi-1-0-0]
sources: [alpha-docs]
"""
ALPHA_SOURCE = """  - id: alpha-pypi-1-0-0
    title: alpha-engine 1.0.0 on PyPI
    url: https://pypi.org/project/alpha-engine/1.0.0/
    publisher: PyPI
    kind: package-index
    version: v1.0.0
    checked: 2026-06-01
  # --- Beta ---
"""


@pytest.fixture
def channels(data):
    """The minimal data with release channels: Alpha on PyPI and GitHub, Beta on GitHub."""
    data.replace("engines/alpha.yml", "official-urls: [https://alpha.example.org/]\nsources: [alpha-docs]\n", ALPHA_HEAD)
    data.replace("engines/alpha.yml", "    checked: 2026-01-10\n", f"    checked: {day(2)}\n")  # one statement is fresh
    data.replace("engines/beta.yml", "official-urls: [https://beta.example.org/]",
                 "releases:\n  github: beta-org/beta\nofficial-urls: [https://beta.example.org/, https://github.com/beta-org/]")
    data.replace("sources.yml", "  - id: beta-readme\n", ALPHA_SOURCE + "  - id: beta-readme\n")
    assert data.problems() == []
    return data


@pytest.fixture
def web():
    with FakeWeb() as server:
        server.routes.update({
            "/pypi/alpha-engine/json": Reply.json(ALPHA_PYPI),
            "/gh/repos/alpha-org/alpha/releases": Reply.json(ALPHA_GITHUB),
            "/gh/repos/beta-org/beta/releases": Reply.json(BETA_GITHUB),
        })
        yield server


def run_refresh(data, web, *args, token: str = "", cache=None, github: str | None = None) -> Ran:
    env = {"XDG_CACHE_HOME": str(cache or data.path.parent / "cache")} | ({"GITHUB_TOKEN": token} if token else {})
    return run_tool("--data", str(data.path), "refresh", "--pypi", web.base, "--github", github or f"{web.base}/gh",
                    "--today", TODAY.isoformat(), "--timeout", "0.5", "--retries", "1", *args, env=env)


def test_the_json_report_has_the_shape_the_issue_gives(channels, web):
    result = run_refresh(channels, web, "--format", "json")
    assert result.returncode == 0, result.stderr
    report = report_of(result)
    assert set(report) == {"engines", "errors"} and report["errors"] == []
    alpha = report["engines"]["alpha"]
    assert alpha == {
        "recorded_stable": {"version": "v1.0.0", "date": day(200)},
        "recorded_pre_release": None,
        "newest_stable": {"version": "1.2.0", "date": day(20)},  # PyPI's, listed first; its earliest file
        "newest_pre_release": {"version": "1.3.0rc1", "date": day(5)},
        "behind": 5,  # 1.1.0, 1.2.0, 1.2.1, 1.3.0.dev2, 1.3.0rc1: not the build tag, the draft or the yanked
        "stale_statements": 1,  # one statement checked before 1.3.0rc1 came out, one after
        "releases_90d": 5,
        "median_days": 7.0,  # gaps of 40, 10, 4 and 1 days
    }
    assert report["engines"]["beta"]["recorded_stable"] is None and report["engines"]["beta"]["behind"] == 2


def test_versions_follow_pep_440_and_semantic_tags_not_text_order(channels, web):
    web.routes["/pypi/alpha-engine/json"] = Reply.json({"releases": {
        "1.9.0": [pypi_file(50)], "1.10.0": [pypi_file(40)], "1.10.0rc2": [pypi_file(45)], "1.10.0.post1": [pypi_file(30)]}})
    web.routes["/gh/repos/alpha-org/alpha/releases"] = Reply.json([github_release("v1.10.1-rc.1", 10),
                                                                   github_release("b9999", 1)])
    alpha = report_of(run_refresh(channels, web, "--format", "json"))["engines"]["alpha"]
    assert alpha["newest_stable"]["version"] == "1.10.0.post1"  # text order would say 1.9.0
    assert alpha["newest_pre_release"]["version"] == "v1.10.1-rc.1"  # a semver pre-release tag


@pytest.mark.parametrize("failure,message", [
    (Reply(500, "boom"), "HTTP 500"),
    (Reply(200, "{not json", {"Content-Type": "application/json"}), "malformed JSON"),
    (Reply.json({"message": "Not Found"}, status=404), "HTTP 404 (not found): Not Found"),
    (Reply.json({"unexpected": True}), "not a list of releases"),
    (Reply(200, "[]", {"Content-Type": "application/json"}, wait=3.0), "timed out after 0.5 s"),
], ids=["http-500", "malformed-json", "http-404", "wrong-shape", "timeout"])
def test_a_failing_channel_is_an_error_entry_and_the_others_are_still_reported(channels, web, failure, message):
    web.routes["/gh/repos/beta-org/beta/releases"] = failure
    result = run_refresh(channels, web, "--format", "json")
    assert result.returncode == 2
    report = report_of(result)
    assert [e["engine"] for e in report["errors"]] == ["beta"] and message in report["errors"][0]["message"]
    assert report["engines"]["alpha"]["newest_stable"]["version"] == "1.2.0"  # the other engine is reported
    assert report["engines"]["beta"]["newest_stable"] is None and report["engines"]["beta"]["behind"] is None


def test_a_failing_channel_of_an_engine_with_two_is_reported_and_the_other_channel_still_counts(channels, web):
    web.routes["/pypi/alpha-engine/json"] = Reply(503, "down")
    result = run_refresh(channels, web)
    assert result.returncode == 2 and "Traceback" not in result.stdout + result.stderr
    assert "error: alpha: PyPI package alpha-engine answered HTTP 503" in result.stdout
    assert "found     stable v1.2.0" in result.stdout  # from GitHub
    assert len(web.requests_to("/pypi/alpha-engine/json")) == 2  # one retry


def test_the_text_report_names_each_figure(channels, web):
    result = run_refresh(channels, web)
    assert result.returncode == 0, result.stderr
    assert "alpha (pypi alpha-engine, github alpha-org/alpha)" in result.stdout
    assert f"recorded  stable v1.0.0 ({day(200)}), pre-release none" in result.stdout
    assert "behind    5 releases newer than the recorded stable one" in result.stdout
    assert "cadence   5 releases in the last 90 days, a median of 7 days apart" in result.stdout
    assert result.stdout.splitlines()[-1] == "2 engines, 3 channels asked, 0 failed"


def test_the_token_goes_to_the_github_api_base_only(channels, web):
    result = run_refresh(channels, web, "--format", "json", token=TOKEN)
    assert result.returncode == 0, result.stderr
    github = [s for s in web.seen if s.path.startswith("/gh/")]
    assert github and all(s.headers.get("authorization") == f"Bearer {TOKEN}" for s in github)
    pypi = web.requests_to("/pypi/alpha-engine/json")  # the same host, outside the API base
    assert pypi and "authorization" not in pypi[0].headers
    assert TOKEN not in result.stdout + result.stderr
    assert all("inference-engines-compared-refresh" in s.headers["user-agent"] for s in web.seen)


def test_a_redirect_within_the_api_base_keeps_the_token_and_one_off_it_to_an_untrusted_host_is_refused(channels, web):
    with FakeWeb() as other:
        other.routes["/moved/beta/releases"] = Reply.json(BETA_GITHUB)
        web.routes["/gh/repos/alpha-org/alpha/releases"] = Reply.redirect("/gh/repositories/1/releases", 301)
        web.routes["/gh/repositories/1/releases"] = Reply.json(ALPHA_GITHUB)
        web.routes["/gh/repos/beta-org/beta/releases"] = Reply.redirect(f"{other.base}/moved/beta/releases")
        result = run_refresh(channels, web, "--format", "json", token=TOKEN)
    assert web.requests_to("/gh/repositories/1/releases")[0].headers["authorization"] == f"Bearer {TOKEN}"
    report = report_of(result)
    assert result.returncode == 2 and [e["engine"] for e in report["errors"]] == ["beta"]
    assert "refused" in report["errors"][0]["message"] and "only https://" in report["errors"][0]["message"]
    assert other.seen == []  # not even asked
    assert TOKEN not in result.stdout + result.stderr


def test_the_token_never_follows_a_redirect_to_another_host(channels, web):
    with FakeWeb() as other:  # another host the operator trusts: typed as the package index's base
        other.routes["/moved/beta/releases"] = Reply.json(BETA_GITHUB)
        other.routes["/pypi/alpha-engine/json"] = Reply.json(ALPHA_PYPI)
        web.routes["/gh/repos/beta-org/beta/releases"] = Reply.redirect(f"{other.base}/moved/beta/releases")
        result = run_refresh(channels, web, "--format", "json", "--pypi", other.base, token=TOKEN)
    assert result.returncode == 0, result.stderr
    assert other.requests_to("/moved/beta/releases"), "the redirect was followed"
    assert all("authorization" not in seen.headers for seen in other.seen)
    assert web.requests_to("/gh/repos/beta-org/beta/releases")[0].headers["authorization"] == f"Bearer {TOKEN}"
    assert report_of(result)["engines"]["beta"]["newest_stable"]["version"] == "v2.1.0"


def test_a_server_echoing_the_token_does_not_get_it_printed(channels, web):
    web.routes["/gh/repos/beta-org/beta/releases"] = Reply.json({"message": f"bad credentials {TOKEN}"}, status=401)
    result = run_refresh(channels, web, "--format", "json", token=TOKEN)
    assert result.returncode == 2 and TOKEN not in result.stdout + result.stderr
    assert "bad credentials ***" in report_of(result)["errors"][0]["message"]


# --- --write ---------------------------------------------------------------------------------------

def test_write_updates_latest_release_in_place_keeping_comments_and_order(channels, web):
    before = channels.file("engines/alpha.yml").read_text(encoding="utf-8")
    result = run_refresh(channels, web, "--write")
    assert result.returncode == 0, result.stderr
    after = channels.file("engines/alpha.yml").read_text(encoding="utf-8")
    assert "releases:  # where Alpha publishes its releases\n" in after
    assert "  # what the sources showed when last read\n  stable:\n    version: v1.2.0  # the first one\n" in after
    assert f"    date: {day(20)}\n    sources: [alpha-pypi-1-2-0]\n" in after
    assert f"  pre-release:\n    version: v1.3.0rc1\n    date: {day(5)}\n    sources: [alpha-pypi-1-3-0rc1]\n" in after
    assert "release-history:\n" in after and f"  - {{version: 1.3.0rc1, date: {day(5)}, pre-release: true}}\n" in after
    assert after.index("latest-release:") < after.index("release-history:") < after.index("\nsources: [alpha-docs]")
    # statements are never touched
    assert after[after.index("support:"):] == before[before.index("support:"):]
    sources = channels.file("sources.yml").read_text(encoding="utf-8")
    assert "url: https://pypi.org/project/alpha-engine/1.2.0/" in sources  # the public page, not the test server
    assert "alpha-pypi-1-0-0" not in sources  # it backed only the entry it replaced
    assert "    checked: 2026-01-10\n  # --- Beta ---\n  - id: beta-release-v2-1-0\n" in sources  # headings stay
    assert channels.problems() == []  # the written data passes make check


def test_a_second_write_changes_nothing(channels, web):
    assert run_refresh(channels, web, "--write").returncode == 0
    files = {p: p.read_bytes() for p in channels.path.rglob("*.yml")}
    second = run_refresh(channels, web, "--write")
    assert second.returncode == 0, second.stderr
    assert "write: nothing to write" in second.stdout
    assert {p: p.read_bytes() for p in channels.path.rglob("*.yml")} == files


def test_write_never_goes_back_to_an_older_version(channels, web):
    channels.replace("engines/alpha.yml", "version: v1.0.0", "version: v3.0.0")
    web.routes["/pypi/alpha-engine/json"] = Reply.json({"releases": {"1.2.0": [pypi_file(20)]}})
    web.routes["/gh/repos/alpha-org/alpha/releases"] = Reply.json([])
    before = channels.file("engines/alpha.yml").read_text(encoding="utf-8")
    result = run_refresh(channels, web, "--write")
    after = channels.file("engines/alpha.yml").read_text(encoding="utf-8")
    assert result.returncode == 0 and "version: v3.0.0" in after
    assert after.replace(after[after.index("release-history:"):after.index("\nsources: [alpha-docs]") + 1], "") == before


def test_write_skips_an_engine_whose_channel_failed(channels, web):
    web.routes["/pypi/alpha-engine/json"] = Reply(500, "down")
    before = channels.file("engines/alpha.yml").read_bytes()
    result = run_refresh(channels, web, "--write")
    assert result.returncode == 2
    assert channels.file("engines/alpha.yml").read_bytes() == before  # half a picture is not recorded
    assert "latest-release:" in channels.file("engines/beta.yml").read_text(encoding="utf-8")  # beta answered
    assert "write: skipped alpha: a channel failed" in result.stdout


def test_only_one_kind_of_channel_is_asked_on_purpose_and_write_records_what_it_publishes(channels, web):
    """A machine that cannot reach GitHub asks PyPI alone; engines with no PyPI channel are named, not failed."""
    result = run_refresh(channels, web, "--only", "pypi", "--write")
    assert result.returncode == 0, result.stderr
    assert not [s for s in web.seen if s.path.startswith("/gh/")]
    assert "not asked (no channel of the kinds asked): beta" in result.stdout
    alpha = channels.file("engines/alpha.yml").read_text(encoding="utf-8")
    assert "    version: v1.2.0  # the first one\n" in alpha and "version: v1.2.1" not in alpha  # 1.2.1 is GitHub's
    assert "latest-release" not in channels.file("engines/beta.yml").read_text(encoding="utf-8")
    assert channels.problems() == []


def test_write_cites_github_release_pages_whatever_the_api_base(channels, web):
    result = run_refresh(channels, web, "--write")
    assert result.returncode == 0
    beta = channels.file("engines/beta.yml").read_text(encoding="utf-8")
    assert f"latest-release:\n  stable:\n    version: v2.1.0\n    date: {day(3)}\n    sources: [beta-release-v2-1-0]\n" in beta
    sources = channels.file("sources.yml").read_text(encoding="utf-8")
    assert "url: https://github.com/beta-org/beta/releases/tag/v2.1.0" in sources
    assert "<b>" not in sources and "{{" not in sources  # the release's own title (hostile here) is not copied
    assert web.base not in sources


def test_write_records_no_pre_release_without_a_stable_release(channels, web):
    web.routes["/gh/repos/beta-org/beta/releases"] = Reply.json([github_release("v2.0.0rc1", 3, repo="beta-org/beta")])
    result = run_refresh(channels, web, "--write")
    beta = channels.file("engines/beta.yml").read_text(encoding="utf-8")
    assert result.returncode == 0, result.stderr
    assert "latest-release" not in beta and f"  - {{version: v2.0.0rc1, date: {day(3)}, pre-release: true}}" in beta
    assert channels.problems() == []


def test_bad_options_are_one_line_errors(channels, web):
    result = run_refresh(channels, web, "--today", "someday")
    assert result.returncode == 2 and "is not a date" in result.stderr and "Traceback" not in result.stderr
    assert "is not an http:// or https:// address" in run_refresh(channels, web, "--pypi", "ftp://x").stderr
    assert "is less than 0" in run_refresh(channels, web, "--retries", "-1").stderr


def test_as_the_operator_runs_it_a_failure_is_one_line_and_exit_2(channels, web):
    """A new process, as `make refresh` starts it: no traceback, the error named, exit 2."""
    web.routes["/gh/repos/beta-org/beta/releases"] = Reply(200, "{not json", {"Content-Type": "application/json"})
    command = [sys.executable, "-m", "macros", "--data", str(channels.path), "refresh", "--pypi", web.base,
               "--github", f"{web.base}/gh", "--timeout", "0.5"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60,
                            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin",
                                 "XDG_CACHE_HOME": str(channels.path.parent / "cache")})
    assert result.returncode == 2 and "Traceback" not in result.stdout + result.stderr
    assert "error: beta: GitHub releases of beta-org/beta answered with malformed JSON" in result.stdout


def test_without_channels_nothing_is_asked(data, web):
    result = run_refresh(data, web, "--format", "json")
    assert result.returncode == 0 and report_of(result) == {"engines": {}, "errors": []} and web.seen == []


def test_a_line_longer_than_any_width_stays_one_line_through_the_writer():
    """A note of any length round-trips as it is: a writer that folded long lines would fail the
    real-data round trip the day a contributor wrote a long enough note."""
    from macros.data.canonical import dump, round_trip_yaml

    yaml = round_trip_yaml()
    text = "sources:\n  - id: long\n    note: '" + "read at the recorded commit; " * 400 + "end.'\n"
    assert len(text.splitlines()[2]) > 10_000
    assert dump(yaml, yaml.load(text)) == text


@pytest.mark.data
def test_the_real_data_round_trips_unchanged_through_the_writer():
    """The writer loads and dumps every data file as it is: only what --write sets ever changes."""
    from macros.data.canonical import dump, round_trip_yaml

    yaml = round_trip_yaml()
    for path in sorted((ROOT / "data").rglob("*.yml")):
        text = path.read_text(encoding="utf-8")
        assert dump(yaml, yaml.load(text)) == text, path


def test_conditional_requests_use_the_cache(channels, web, tmp_path):
    web.routes["/pypi/alpha-engine/json"] = lambda headers: (
        Reply(304) if headers.get("if-none-match") == '"v1"' else Reply.json(ALPHA_PYPI, ETag='"v1"'))
    cache = tmp_path / "cache"
    first = report_of(run_refresh(channels, web, "--format", "json", cache=cache))
    second = report_of(run_refresh(channels, web, "--format", "json", cache=cache))
    assert first == second
    asked = web.requests_to("/pypi/alpha-engine/json")
    assert "if-none-match" not in asked[0].headers and asked[1].headers["if-none-match"] == '"v1"'
    assert os.listdir(cache / "inference-engines-compared" / "http")
