"""`python -m macros check`: every problem as path:line:col, a count, exit 1; never a traceback."""
import re

import pytest

from conftest import ROOT, run_macros

# name: (file, text to replace, replacement, the text on the line the problem must name; None: line 1)
BAD_INPUTS = {
    "duplicate key": ("engines/alpha.yml", "license: MIT\n", "license: MIT\nlicense: BSD\n", "license: BSD"),
    "status: no": ("engines/beta.yml", "status: not-supported", "status: no", "status: no"),
    "unknown feature id": ("engines/alpha.yml", "  prefix-caching:", "  prefix-cache:", "prefix-cache:"),
    "unknown source id": ("engines/beta.yml", "sources: [beta-readme]\n    checked: 2026-01-11\n  prefix",
                          "sources: [beta-read]\n    checked: 2026-01-11\n  prefix", "[beta-read]"),
    "missing required field": ("engines/alpha.yml", "    detail: Ships a server.\n", "", "http-server:"),
    "missing statement": ("engines/alpha.yml", "  http-server:\n    status: supported\n    value: built in\n"
                          "    detail: Ships a server.\n    sources: [alpha-docs]\n    checked: 2026-01-10\n", "", "support:"),
    "file name differs from id": ("engines/alpha.yml", "id: alpha", "id: alpha-engine", "id: alpha-engine"),
    "tab-indented line": ("engines/alpha.yml", "  http-server:", "\thttp-server:", "\thttp-server:"),
    "broken YAML": ("engines/alpha.yml", "name: Alpha", "name: [Alpha", "summary:"),
    "empty file": ("engines/alpha.yml", None, "", None),
    "checked date in the future": ("engines/alpha.yml", "checked: 2026-01-10", "checked: 2999-01-10", "2999-01-10"),
}


def run_check(data_dir, cwd):
    return run_macros("check", cwd=cwd, data=data_dir)


@pytest.mark.parametrize("case", BAD_INPUTS, ids=str)
def test_bad_input_exits_1_naming_file_and_line(data, case):
    name, old, new, marker = BAD_INPUTS[case]
    if old is None:
        data.write(name, new)
    else:
        data.replace(name, old, new)
    line = data.line_of(name, marker) if marker else 1
    result = run_check(data.path, cwd=data.path.parent)
    assert result.returncode == 1, result
    assert "Traceback" not in result.stdout + result.stderr
    assert re.search(rf"^data/{re.escape(name)}:{line}:\d+: ", result.stderr, re.M), result.stderr
    assert re.search(r"^\d+ problems? in \d+ files?$", result.stderr.splitlines()[-1])


def test_every_problem_is_reported_then_one_count(data):
    data.replace("engines/alpha.yml", "status: supported", "status: yes")
    data.replace("engines/beta.yml", "license: Apache-2.0", "licence: Apache-2.0")
    data.replace("sources.yml", "kind: docs", "kind: blogpost")
    result = run_check(data.path, cwd=data.path.parent)
    lines = [line for line in result.stderr.splitlines() if re.match(r"^data/\S+:\d+:\d+: ", line)]
    assert len(lines) >= 4 and result.stderr.splitlines()[-1] == f"{len(lines)} problems in 3 files"


def test_committed_data_passes_with_a_summary(catalog):
    """The data may carry warnings (a half-researched engine's cells, an old check): they are warnings."""
    from macros.__main__ import describe

    result = run_check(ROOT / "data", cwd=ROOT)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    summary, *warnings = result.stdout.splitlines()
    assert summary == f"ok: {describe(catalog)}"
    # warnings may merge (they say what to look at), but only as warnings: one block per kind, then a count
    assert all(line.startswith(("warning: ", "  ")) for line in warnings[:-1]), result.stdout
    assert not warnings or re.fullmatch(r"\d+ warnings?: the data may merge, but look at them", warnings[-1])


@pytest.mark.rule("stale_statement")
def test_stale_statements_are_warnings_after_the_summary(data):
    result = run_macros("check", "--max-age", "30", data=data.path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("ok: ") and re.search(r"^warning: 4 × A statement checked longer ago", result.stdout, re.M)
    assert lines[-1] == "4 warnings: the data may merge, but look at them"
    assert run_macros("check", "--max-age", "100000", data=data.path).stdout.count("warning") == 0


@pytest.mark.rule("not_researched")
def test_new_engine_writes_every_feature_not_researched_and_check_points_at_what_to_fill(data):
    result = run_macros("new-engine", "--id", "gamma", "--name", "Gamma 🚀", data=data.path)
    assert result.returncode == 0, result.stderr
    text = data.file("engines/gamma.yml").read_text(encoding="utf-8")
    assert text.count("status: not-researched") == 2 and text.index("http-server:") < text.index("prefix-caching:")
    check = run_macros("check", data=data.path)
    fields = re.findall(r"engines/gamma\.yml:(\d+):\d+: ", check.stderr)
    # summary, homepage, repository, license, the kind's detail and sources, releases, official-urls, sources
    assert check.returncode == 1 and len(fields) == 9
    data.write("engines/gamma.yml", text.replace('summary: ""', "summary: A third engine.")
               .replace('homepage: ""', "homepage: https://gamma.example.org/")
               .replace('repository: ""', "repository: https://gamma.example.org/code/")
               .replace('license: ""', "license: MIT")
               .replace("official-urls: []", "official-urls: [https://gamma.example.org/]")
               .replace("sources: []        #", "sources: [alpha-docs]        #")
               .replace('  detail: ""        #', "  detail: Ships its own kernels.  #")
               .replace("  sources: []\nreleases: {}", "  sources: [alpha-docs]\nreleases: {}")
               .replace("releases: {}", "# releases: none of its own"))
    check = run_macros("check", data=data.path)
    assert check.returncode == 0, check.stderr
    assert "warning: 2 × A `not-researched` cell" in check.stdout


@pytest.mark.parametrize("engine_id,name,reason", [
    ("Gamma", "Gamma", "not a kebab-case id"), ("index", "Index", "hand-written page"),
    ("a-vs-b", "A", "'-vs-'"), ("alpha", "Alpha", "already exists"), ("gamma", "Gamma {{ x }}", "`{{`"),
    ("gamma", "", "the name is empty"),
])
def test_new_engine_refuses_an_id_or_name_the_data_would_refuse(data, engine_id, name, reason):
    result = run_macros("new-engine", "--id", engine_id, "--name", name, data=data.path)
    assert result.returncode == 1 and reason in result.stderr
    assert sorted(p.name for p in (data.path / "engines").iterdir()) == ["alpha.yml", "beta.yml"]
