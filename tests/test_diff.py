"""`python -m macros diff REV` on a fixture repository with real commits."""
import shutil

import pytest

from conftest import FIXTURES, git, run_macros


@pytest.fixture
def repo(tmp_path):
    shutil.copytree(FIXTURES / "minimal", tmp_path / "data")
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-qm", "base")
    return tmp_path


def edit(repo, name, old, new):
    path = repo / "data" / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def commit_and_diff(repo, revision="HEAD~1"):
    git(repo, "commit", "-qam", "change")
    result = run_macros("diff", revision, cwd=repo, data=repo / "data")
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_one_status_change_is_one_readable_line(repo):
    edit(repo, "engines/alpha.yml", "status: experimental", "status: supported")
    out = commit_and_diff(repo)
    assert "- Alpha / Prefix caching: β Experimental -> ✔ Supported (beta -> full support)" in out.splitlines()
    statements = out.split("### Statements")[1]
    assert statements.count("\n- ") == 1
    assert "Alpha / Prefix caching: raised β Experimental -> ✔ Supported (beta -> full support)" in out.split("### Look closer")[1]


def test_value_and_source_changes(repo):
    edit(repo, "engines/alpha.yml", "value: built in", "value: optional extra")
    edit(repo, "engines/alpha.yml", "    sources: [alpha-docs]\n    checked: 2026-01-10\n  prefix",
         "    sources: [beta-readme]\n    checked: 2026-01-12\n  prefix")
    out = commit_and_diff(repo)
    assert ('- Alpha / HTTP server: value: "built in" -> "optional extra"; sources: +beta-readme -alpha-docs; '
            "checked 2026-01-12") in out


def test_additions_and_removals(repo):
    edit(repo, "features.yml", "        description: Reuse of a shared prompt prefix.\n",
         "        description: Reuse of a shared prompt prefix.\n      - id: grpc\n        name: gRPC\n        description: A gRPC server.\n")
    for engine in ("alpha", "beta"):
        path = repo / "data" / "engines" / f"{engine}.yml"
        source = "alpha-docs" if engine == "alpha" else "beta-readme"
        path.write_text(path.read_text() + f"  grpc:\n    status: unknown\n    detail: Not said.\n    sources: [{source}]\n"
                        "    checked: 2026-01-12\n", encoding="utf-8")
    edit(repo, "sources.yml", "sources:\n", "sources:\n  - id: gamma-docs\n    title: Gamma docs\n    url: https://gamma.example.org/\n"
         "    publisher: Gamma\n    kind: docs\n    checked: 2026-01-12\n")
    (repo / "data" / "engines" / "beta.yml").rename(repo / "data" / "engines" / "gamma.yml")
    edit(repo, "engines/gamma.yml", "id: beta\nname: Beta", "id: gamma\nname: Gamma")
    edit(repo, "engines/gamma.yml", "sources: [beta-readme]\nsupport", "sources: [gamma-docs]\nsupport")
    git(repo, "add", "-A")
    out = commit_and_diff(repo)
    for line in ("- Added: Gamma (`gamma`), 3 statements: HTTP server: not-supported, Prefix caching: unknown, "
                 "gRPC: unknown", "- Removed: Beta (`beta`)", "- Added: gRPC (`grpc`) in serving",
                 "- Added: `gamma-docs`, Gamma docs"):
        assert line in out.splitlines(), out


def test_rechecked_source_and_nothing_else(repo):
    edit(repo, "sources.yml", "checked: 2026-01-11", "checked: 2026-02-01")
    out = commit_and_diff(repo)
    assert "- Re-checked: `beta-readme`: 2026-01-11 -> 2026-02-01" in out.splitlines()


def test_an_unknown_revision_is_a_clear_error(repo):
    result = run_macros("diff", "no-such-rev", cwd=repo, data=repo / "data")
    assert result.returncode == 1 and "cannot read the data at no-such-rev" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_status_raised_without_a_new_primary_source_is_flagged(repo):
    edit(repo, "engines/beta.yml", "    status: unknown\n    detail: Not mentioned in the README.\n    sources: [beta-readme]\n"
         "    searched: [https://beta.example.org/readme/]\n", "    status: supported\n    detail: Now it is.\n"
         "    sources: [beta-readme]\n")
    out = commit_and_diff(repo)
    assert "### Look closer" in out and "Beta / Prefix caching: raised ? Unknown -> ✔ Supported (not documented -> full support) without a new" in out


def test_a_status_raised_with_a_re_checked_primary_source_is_not_flagged(repo):
    edit(repo, "engines/beta.yml", "    status: unknown\n    detail: Not mentioned in the README.\n    sources: [beta-readme]\n"
         "    searched: [https://beta.example.org/readme/]\n", "    status: supported\n    detail: Now it is.\n"
         "    sources: [beta-readme]\n")
    edit(repo, "sources.yml", "checked: 2026-01-11", "checked: 2026-02-01")
    edit(repo, "sources.yml", "    kind: readme\n", "    kind: readme\n    quote: Prefix caching is on.\n")
    out = commit_and_diff(repo)
    assert "Look closer" not in out and "Beta / Prefix caching: ? Unknown -> ✔ Supported (not documented -> full support)" in out


def test_an_old_revision_in_an_older_schema_is_read_tolerantly(repo):
    edit(repo, "engines/alpha.yml", "official-urls: [https://alpha.example.org/]\n", "")  # as before the field existed
    git(repo, "commit", "-qam", "old schema")
    edit(repo, "engines/alpha.yml", "license: MIT\n", "license: MIT\nofficial-urls: [https://alpha.example.org/]\n")
    edit(repo, "engines/alpha.yml", "status: experimental", "status: supported")
    out = commit_and_diff(repo)
    assert "Removed: Alpha" not in out and "Added: Alpha" not in out
    assert "- Alpha / Prefix caching: β Experimental -> ✔ Supported (beta -> full support)" in out


def test_official_urls_name_how_many_cells_change_evidence(repo):
    edit(repo, "engines/beta.yml", "official-urls: [https://beta.example.org/]",
         "official-urls: [https://beta.example.org/, https://alpha.example.org/]")
    out = commit_and_diff(repo)
    closer = out.split("### Look closer")[1]
    assert "Beta: official-urls changed (prefixes: +`https://alpha.example.org/`); 0 cells change evidence level" in closer
    edit(repo, "engines/alpha.yml", "official-urls: [https://alpha.example.org/]", "official-urls: [https://x.example.org/]")
    out = commit_and_diff(repo)
    assert "Alpha: official-urls changed" in out and "2 cells change evidence level: http-server: primary -> secondary" in out


def test_renames_retitles_and_facts_are_named(repo):
    (repo / "data/engines/alpha.yml").rename(repo / "data/engines/alfa.yml")
    edit(repo, "engines/alfa.yml", "id: alpha\nname: Alpha", "id: alfa\nformer-ids: [alpha]\nname: Alfa")
    edit(repo, "engines/alfa.yml", "license: MIT", "license: Apache-2.0")
    edit(repo, "sources.yml", "title: Alpha documentation", "title: Alpha manual")
    edit(repo, "engines/beta.yml", "    basis: stated-absent", "    basis: exhaustive-list")
    edit(repo, "engines/beta.yml", "searched: [https://beta.example.org/readme/]",
         "searched: [https://beta.example.org/readme/, 'docs search: prefix']")
    git(repo, "add", "-A")
    out = commit_and_diff(repo)
    lines = out.splitlines()
    assert any(line.startswith("- Renamed: `alpha` -> `alfa` (Alfa); the old pages /engines/alpha/") for line in lines)
    assert "Removed: Alpha" not in out and "Added: Alfa" not in out
    assert "- Retitled: `alfa`: \"Alpha\" -> \"Alfa\"" in lines
    assert any(line.startswith("- Alfa: license: \"MIT\" -> \"Apache-2.0\"") for line in lines)
    assert "- Retitled: `alpha-docs`: \"Alpha documentation\" -> \"Alpha manual\"" in lines
    assert any("Beta / HTTP server: basis: \"stated-absent\" -> \"exhaustive-list\"" in line for line in lines)
    assert any("Beta / Prefix caching: searched: +docs search: prefix" in line for line in lines)


def test_guide_changes_are_named(repo):
    edit(repo, "guide.yml", "label: ", "label: A renamed label, ")
    out = commit_and_diff(repo)
    assert "### Guide" in out and "): label" in out.split("### Guide")[1]


def test_names_reach_the_summary_as_text_never_as_markdown_or_html(repo):
    edit(repo, "engines/alpha.yml", "name: Alpha", 'name: "[click](https://evil.example/) ![x](https://evil.example/x.png) '
         '<img src=x> **bold** `code`"')
    out = commit_and_diff(repo)
    line = next(line for line in out.splitlines() if line.startswith("- Retitled"))
    assert "\\[click\\]\\(`https://evil.example/)`" in line and "\\!\\[x\\]" in line
    assert "&lt;img src=x>" in line and "\\*\\*bold\\*\\*" in line and "\\`code\\`" in line
