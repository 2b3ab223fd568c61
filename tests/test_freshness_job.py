"""The weekly freshness job: its summary shows data and fetched text as text, and the workflow
keeps to its rules (schedule and manual runs only, read-only, no token left behind, no
expression inside a script)."""
from __future__ import annotations

import json
import re

import yaml

from conftest import ROOT
from fakeweb import run_tool

HOSTILE = "<img src=x onerror=alert(1)> ![pixel](https://evil.example/p.png) [click](javascript:alert(1))\n# Heading | pipe \u202e"


def reports(tmp_path, refresh: dict, quotes: dict):
    (tmp_path / "refresh.json").write_text(json.dumps(refresh), encoding="utf-8")
    (tmp_path / "quotes.json").write_text(json.dumps(quotes), encoding="utf-8")
    return run_tool("freshness-summary", str(tmp_path / "refresh.json"), str(tmp_path / "quotes.json"))


def test_the_summary_shows_fetched_text_and_data_as_text(tmp_path):
    refresh = {"engines": {"alpha|<b>": {"recorded_stable": {"version": "v1.0.0", "date": "2026-01-01"},
                                         "recorded_pre_release": None, "newest_stable": {"version": HOSTILE, "date": None},
                                         "newest_pre_release": None, "behind": 3, "stale_statements": 2,
                                         "releases_90d": 4, "median_days": 7.5}},
               "errors": [{"engine": "beta", "message": HOSTILE}]}
    quotes = {"sources": {"q-1": {"url": "https://docs.example/a", "result": "changed", "http_status": 200,
                                  "message": "the quote is not on the page", "quote": "Fast.", "closest": HOSTILE}},
              "summary": {"found": 0, "changed": 1, "gone": 0, "unreachable": 0}}
    result = reports(tmp_path, refresh, quotes)
    assert result.returncode == 0, result.stderr
    text = result.stdout
    for markup in (r"<img", r"!\[", r"\]\(", r"<b>", r"\|<", r"\n# Heading"):
        assert not re.search(r"(?<!\\)" + markup, text), markup  # every one escaped
    assert "\u202e" not in text
    assert "\\<img src\\=x onerror\\=alert\\(1\\)\\>" in text and "\\\\u202e" in text  # shown, escaped
    table = [line for line in text.splitlines() if line.startswith("| alpha")]
    assert len(table) == 1 and table[0].count(" | ") == 8  # the pipe in the name did not add a column
    assert "1 changed" in text and "Fast\\." in text


def test_a_missing_report_is_said_and_the_other_still_shown(tmp_path):
    (tmp_path / "quotes.json").write_text(json.dumps({"sources": {}, "summary": {"found": 3}}), encoding="utf-8")
    result = run_tool("freshness-summary", str(tmp_path / "absent.json"), str(tmp_path / "quotes.json"))
    assert result.returncode == 0 and "absent\\.json could not be read" in result.stdout
    assert "3 found, 0 changed, 0 gone, 0 unreachable." in result.stdout


def workflow() -> dict:
    return yaml.safe_load((ROOT / ".github" / "workflows" / "freshness.yml").read_text(encoding="utf-8"))


def workflow_problems(flow: dict) -> list[str]:
    """What breaks the rules of a job that fetches the web on a schedule."""
    problems = []
    triggers = flow.get(True, flow.get("on")) or {}
    if set(triggers) != {"schedule", "workflow_dispatch"}:
        problems.append(f"triggers {sorted(triggers)}: schedule and workflow_dispatch only")
    if flow.get("permissions") != {"contents": "read"}:
        problems.append("permissions: contents: read, nothing more")
    for name, job in flow.get("jobs", {}).items():
        if "permissions" in job:
            problems.append(f"job {name} sets its own permissions")
        for step in job.get("steps", []):
            if step.get("uses", "").startswith("actions/checkout@") and (step.get("with") or {}).get(
                    "persist-credentials") is not False:
                problems.append("checkout without persist-credentials: false")
            if "${{" in step.get("run", ""):
                problems.append(f"an expression inside the script of '{step.get('name', step.get('run'))}'")
    return problems


def test_the_workflow_keeps_to_the_rules():
    assert workflow_problems(workflow()) == []


def test_the_rules_catch_a_workflow_that_breaks_them():
    bad = {True: {"pull_request": None, "schedule": []}, "permissions": {"contents": "write"},
           "jobs": {"j": {"permissions": {}, "steps": [{"uses": "actions/checkout@v4"},
                                                        {"name": "x", "run": "echo ${{ github.head_ref }}"}]}}}
    found = workflow_problems(bad)
    assert len(found) == 5 and any("pull_request" in p for p in found) and any("expression" in p for p in found)


def test_the_workflow_uploads_both_reports_and_writes_the_summary():
    steps = [step for job in workflow()["jobs"].values() for step in job["steps"]]
    runs = "\n".join(step.get("run", "") for step in steps)
    assert "refresh --format json > freshness/refresh.json" in runs
    assert "verify-quotes --format json > freshness/verify-quotes.json" in runs
    assert "freshness-summary freshness/refresh.json freshness/verify-quotes.json >> \"$GITHUB_STEP_SUMMARY\"" in runs
    upload = next(step for step in steps if step.get("uses", "").startswith("actions/upload-artifact@"))
    assert upload["with"]["path"] == "freshness/" and upload["if"] == "always()"


def test_the_gitlab_freshness_job_runs_from_a_schedule_only():
    ci = yaml.safe_load((ROOT / ".gitlab-ci.yml").read_text(encoding="utf-8"))
    assert ci["freshness"]["rules"] == [{"if": '$CI_PIPELINE_SOURCE == "schedule"'}]
    for name in ("test", "pages"):  # a schedule runs the freshness job alone
        assert ci[name]["rules"][0] == {"if": '$CI_PIPELINE_SOURCE == "schedule"', "when": "never"}
