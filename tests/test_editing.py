"""Editing through pull requests: editor schemas, edit links, CONTRIBUTING templates."""
from __future__ import annotations

import json
import re

import pytest

from conftest import ROOT
from macros.data.catalog import TOP_FILES
from macros.site.render import rendered_pairs
from sitebuild import build, small_project

SCHEMA_OF = {name: schema.removesuffix(".schema.json") for name, schema in TOP_FILES.items()}


def data_files():
    return sorted((ROOT / "data").glob("*.yml")) + sorted((ROOT / "data/engines").glob("*.yml"))


def expected_schema(path) -> str:
    return "engine" if path.parent.name == "engines" else SCHEMA_OF[path.name]


@pytest.mark.parametrize("path", data_files(), ids=lambda p: p.name)
def test_every_data_file_names_its_schema(path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    match = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
    assert match, f"{path}: the first line must be `# yaml-language-server: $schema=...`"
    target = (path.parent / match[1]).resolve()
    assert target == ROOT / "data/schema" / f"{expected_schema(path)}.schema.json"


def test_vscode_maps_every_schema():
    settings = json.loads((ROOT / ".vscode/settings.json").read_text(encoding="utf-8"))
    mapped = {pattern: schema for schema, pattern in settings["yaml.schemas"].items()}
    for path in data_files():
        pattern = "data/engines/*.yml" if path.parent.name == "engines" else f"data/{path.name}"
        assert mapped[pattern] == f"./data/schema/{expected_schema(path)}.schema.json"


def test_every_schema_field_has_a_description():
    def walk(node, where):
        if isinstance(node, dict):
            for name, sub in node.get("properties", {}).items():
                assert isinstance(sub, dict) and ("description" in sub or "$ref" in sub), f"{where}.{name}"
            for key, sub in node.items():
                if key not in ("if", "then", "else"):  # conditions, not fields
                    walk(sub, f"{where}.{key}")
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                walk(sub, f"{where}[{i}]")

    for schema in (ROOT / "data/schema").glob("*.json"):
        data = json.loads(schema.read_text(encoding="utf-8"))
        assert data.get("description"), schema.name
        walk(data, schema.name)


def test_edit_links_point_at_the_file_behind_the_page(tmp_path):
    from macros.data.catalog import build_catalog

    project = small_project(tmp_path / "project")
    site = tmp_path / "site"
    result = build(project, site, env={"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "team/site"})
    assert result.returncode == 0, result.stderr

    def edit_link(url):
        html = (site / url / "index.html").read_text(encoding="utf-8")
        return re.search(r'<a href="([^"]+)" title="Edit this page"', html)[1]

    base = "https://github.com/team/site"
    catalog = build_catalog(project / "data")
    for engine in catalog.engines:
        assert edit_link(f"engines/{engine}") == f"{base}/edit/main/data/engines/{engine}.yml"
    assert edit_link(f"features/{next(iter(catalog.features))}") == f"{base}/edit/main/data/features.yml"
    assert edit_link("guide") == f"{base}/edit/main/data/guide.yml"
    assert edit_link("sources") == f"{base}/edit/main/data/sources.yml"
    a, b = rendered_pairs(catalog)[0]  # a pre-rendered pair, however many engines there are
    assert edit_link(f"compare/{a.id}-vs-{b.id}") == f"{base}/tree/main/data/engines"
    assert edit_link("matrix") == f"{base}/edit/main/docs/matrix.md"
    assert edit_link("") == f"{base}/edit/main/docs/index.md"


def test_the_repository_comes_from_mkdocs_yml_or_ci_never_with_credentials():
    from macros.site.repository import edit_url, repository

    assert repository({"edit_repository": "https://user:pw@git.example.org/t/s/"}, {}) == {
        "url": "https://git.example.org/t/s", "host": "github"}
    assert repository({"edit_repository": ""}, {"CI_PROJECT_URL": "https://gitlab.example.org/t/s"})["host"] == "gitlab"
    assert repository({}, {"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "t/s"})["url"] == "https://github.com/t/s"
    assert repository({}, {}) == {} and repository({"edit_repository": "http://x.example/"}, {}) == {}
    gitlab = {"url": "https://gitlab.example.org/t/s", "host": "gitlab"}
    assert edit_url(gitlab, "main", "blob", "data/x.yml") == "https://gitlab.example.org/t/s/-/edit/main/data/x.yml"


def test_fmt_restores_canonical_order_and_keeps_comments(data):
    from conftest import run_macros

    engine = data.file("engines/alpha.yml")
    engine.write_text(engine.read_text(encoding="utf-8")
                      .replace("id: alpha\nname: Alpha\n", "name: Alpha  # display name\nid: alpha\n")
                      .replace("    status: supported\n    value: built in\n", "    value: built in\n    # why supported\n    status: supported\n"),
                      encoding="utf-8")
    assert any("out of order" in p.message for p in data.problems())
    result = run_macros("fmt", cwd=data.path.parent, data=data.path)
    assert result.returncode == 0, result.stderr
    assert "1 of 6 files reformatted" in result.stdout
    text = engine.read_text(encoding="utf-8")
    assert text.startswith("id: alpha\nname: Alpha  # display name\n")
    assert "# why supported" in text and text.index("status: supported") < text.index("value: built in")
    assert data.problems() == []


def test_fmt_leaves_a_misspelt_key_where_it_is_and_says_so(data):
    """The typo stays beside its neighbours, where the contributor will look for it; fmt names it and fails."""
    from conftest import run_macros

    engine = data.file("engines/alpha.yml")
    engine.write_text(engine.read_text(encoding="utf-8").replace("  http-server:", "  http-srver:")
                      .replace("    status: supported\n    value: built in\n", "    value: built in\n    status: supported\n"),
                      encoding="utf-8")
    line = data.line_of("engines/alpha.yml", "http-srver:")
    result = run_macros("fmt", cwd=data.path.parent, data=data.path)
    assert result.returncode == 1 and "1 of 6 files reformatted" in result.stdout
    assert f"data/engines/alpha.yml:{line}:3: left 'http-srver' where it is: not a feature of data/features.yml" in result.stderr
    assert "did you mean 'http-server'? Fix the key, then run `make fmt` again" in result.stderr
    text = engine.read_text(encoding="utf-8")
    assert text.index("http-srver:") < text.index("prefix-caching:")  # not moved last
    assert text.index("status: supported") < text.index("value: built in")  # the rest was put in order
    assert data.line_of("engines/alpha.yml", "http-srver:") == line


def test_fmt_writes_nothing_while_features_yml_does_not_load(data):
    from conftest import run_macros

    data.write("features.yml", "categories: [\n")
    before = data.file("engines/alpha.yml").read_text(encoding="utf-8").replace("id: alpha\nname: Alpha\n", "name: Alpha\nid: alpha\n")
    data.write("engines/alpha.yml", before)
    result = run_macros("fmt", cwd=data.path.parent, data=data.path)
    assert result.returncode == 1 and "data/features.yml does not load" in result.stderr and "left '" not in result.stderr
    assert data.file("engines/alpha.yml").read_text(encoding="utf-8") == before


def templates() -> dict[str, str]:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    return dict(re.findall(r"<!-- template: (\w+) -->\n```yaml\n(.*?)```", text, re.S))


def test_contributing_templates_pass_the_check_when_filled_in_as_shown(tmp_path):
    from conftest import TODAY, DataDir

    found = templates()
    assert sorted(found) == ["engine", "features", "guide", "sources"]
    data = DataDir(tmp_path / "data")
    (data.path / "engines").mkdir(parents=True)
    data.write("sources.yml", found["sources"])
    data.write("features.yml", found["features"])
    data.write("guide.yml", found["guide"])
    data.write("engines/example-engine.yml", found["engine"])
    assert [str(p) for p in data.problems(today=TODAY)] == []


def test_the_issue_form_offers_exactly_the_statuses():
    import yaml

    form = yaml.safe_load((ROOT / ".github/ISSUE_TEMPLATE/wrong-cell.yml").read_text(encoding="utf-8"))
    options = next(item for item in form["body"] if item["id"] == "status")["attributes"]["options"]
    schema = json.loads((ROOT / "data/schema/status.schema.json").read_text(encoding="utf-8"))
    # a reader proposes a researched status; `not-researched` is only the scaffold's placeholder
    assert options == [s["const"] for s in schema["oneOf"] if s["const"] != "not-researched"] + ["not sure"]


def test_the_workflow_runs_make_test_and_keeps_the_preview():
    import yaml

    workflow = yaml.safe_load((ROOT / ".github/workflows/pull-request.yml").read_text(encoding="utf-8"))
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert "pull_request" in triggers
    steps = workflow["jobs"]["test"]["steps"]
    runs = [step.get("run", "") for step in steps]
    assert any(run.startswith("make test") for run in runs)
    assert any("make -s diff" in run and "GITHUB_STEP_SUMMARY" in run for run in runs)
    assert any(step.get("uses", "").startswith("actions/upload-artifact") for step in steps)
