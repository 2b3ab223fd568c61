"""Each consistency rule, and the schema, firing on a small fixture broken one way."""
import datetime as dt
from pathlib import Path

import pytest

from conftest import TODAY, only
from macros.data.rules import RULES, WARNINGS


def test_the_fixture_is_valid(data):
    assert data.problems() == []


def test_every_rule_has_a_one_line_description():
    for rule in RULES:
        assert rule.__doc__ and "\n" not in rule.__doc__.strip(), rule.__name__


# --- schema ------------------------------------------------------------------------

def test_missing_required_field(data):
    data.replace("engines/alpha.yml", "license: MIT\n", "")
    problem = only(data.problems(), "missing required field 'license'")
    assert problem.path == "engines/alpha.yml" and problem.line == 1


def test_unknown_field_suggests_the_right_one(data):
    data.replace("engines/alpha.yml", "    value: built in", "    valeu: built in")
    problem = only(data.problems(), "unknown field 'valeu'")
    assert problem.line == data.line_of("engines/alpha.yml", "valeu:") and "did you mean 'value'" in problem.tip


def test_unknown_status_suggests_the_right_one(data):
    data.replace("engines/beta.yml", "status: not-supported", "status: not-suported")
    problem = only(data.problems(), "unknown status 'not-suported'")
    assert (problem.path, problem.line) == ("engines/beta.yml", data.line_of("engines/beta.yml", "not-suported"))
    assert "not-supported" in problem.tip


def test_status_no_is_a_yaml_boolean(data):
    data.replace("engines/beta.yml", "status: not-supported", "status: no")
    problem = only(data.problems(), "yes/no boolean")
    assert (problem.path, problem.line, problem.col) == ("engines/beta.yml", data.line_of("engines/beta.yml", "status: no"), 13)


def test_http_url_is_rejected(data):
    data.replace("sources.yml", "https://alpha.example.org/docs/", "http://alpha.example.org/docs/")
    problem = only(data.problems(), "is not an https:// URL")
    assert (problem.path, problem.line) == ("sources.yml", data.line_of("sources.yml", "http://alpha"))


def test_checked_date_in_the_wrong_form(data):
    data.replace("engines/alpha.yml", "checked: 2026-01-10", 'checked: "10/01/2026"')
    assert only(data.problems(), "not a date in YYYY-MM-DD form").line == data.line_of("engines/alpha.yml", "10/01/2026")


def test_a_commit_that_is_not_hex_says_what_a_commit_is(data):
    data.replace("sources.yml", "    kind: docs\n", "    kind: docs\n    commit: v1.2.0\n")
    problem = only(data.problems(), "'v1.2.0' is not a valid 'commit'")
    assert (problem.path, problem.line) == ("sources.yml", data.line_of("sources.yml", "commit: v1.2.0"))
    assert "kebab" not in problem.message + problem.tip
    assert "7 to 40 hex digits" in problem.tip and "`version`" in problem.tip


@pytest.mark.rule("statement_cites_a_source")
def test_statement_without_sources(data):
    data.replace("engines/alpha.yml", "    sources: [alpha-docs]\n    checked: 2026-01-10\n  prefix",
                 "    sources: []\n    checked: 2026-01-10\n  prefix")
    assert only(data.problems(), "'sources' is empty").line == data.line_of("engines/alpha.yml", "sources: []")


def test_a_broken_file_does_not_hide_problems_in_others(data):
    data.write("engines/beta.yml", "id: beta\n  name: [\n")
    data.replace("sources.yml", "kind: docs", "kind: blog")
    paths = {p.path for p in data.problems()}
    assert paths == {"engines/beta.yml", "sources.yml"}


# --- rules ---------------------------------------------------------------------------

@pytest.mark.rule("engine_id_matches_file")
def test_engine_id_matches_file(data):
    data.replace("engines/alpha.yml", "id: alpha", "id: alfa")
    problem = only(data.problems(), "differs from the file name 'alpha.yml'")
    assert (problem.path, problem.line) == ("engines/alpha.yml", data.line_of("engines/alpha.yml", "id: alfa"))


@pytest.mark.rule("unknown_feature")
def test_unknown_feature(data):
    data.replace("engines/alpha.yml", "  prefix-caching:", "  prefix-cashing:")
    problem = only(data.problems(), "unknown feature 'prefix-cashing'")
    assert problem.line == data.line_of("engines/alpha.yml", "prefix-cashing:") and "did you mean 'prefix-caching'" in problem.tip


def test_a_feature_key_typo_is_one_problem_at_the_typo(data):
    """Not also 'no statement for' the feature it meant, nor 'out of order': those are its echoes."""
    data.replace("engines/alpha.yml", "  http-server:", "  http-srver:")  # first of two: moved last, it would be out of order
    problems = data.problems()
    assert [(p.path, p.line, p.message) for p in problems] == [
        ("engines/alpha.yml", data.line_of("engines/alpha.yml", "http-srver:"), "unknown feature 'http-srver'")]
    assert problems[0].tip == ("did you mean 'http-server'? This file has no statement for 'http-server' (HTTP server): "
                               "rename the key to `http-server:`")


def test_a_reference_still_to_a_former_id_says_it_was_renamed(data):
    """A rename half done: each reference left behind is one problem, saying what to write."""
    data.replace("features.yml", "      - id: prefix-caching\n", "      - id: prefix-reuse\n        former-ids: [prefix-caching]\n")
    data.replace("engines/beta.yml", "  prefix-caching:", "  prefix-reuse:")
    problems = data.problems()
    assert [(p.path, p.line) for p in problems] == [("engines/alpha.yml", data.line_of("engines/alpha.yml", "prefix-caching:")),
                                                   ("guide.yml", data.line_of("guide.yml", "feature: prefix-caching"))]
    assert problems[0].tip.startswith("'prefix-caching' was renamed 'prefix-reuse'.") and "`prefix-reuse:`" in problems[0].tip
    assert problems[1].tip == "'prefix-caching' was renamed 'prefix-reuse': write `feature: prefix-reuse`"


def test_an_unknown_feature_that_is_no_typo_says_to_add_it(data):
    data.replace("engines/alpha.yml", "  prefix-caching:", "  prefix-caching:\n    status: unknown\n    detail: x\n"
                 "    sources: [alpha-docs]\n    searched: [x]\n    checked: 2026-01-10\n  speculative-decoding:")
    problem = only(data.problems(), "unknown feature 'speculative-decoding'")
    assert problem.tip == "add it to data/features.yml first"


@pytest.mark.rule("missing_statement")
def test_missing_statement(data):
    text = data.file("engines/beta.yml").read_text()
    data.write("engines/beta.yml", text[: text.index("  prefix-caching:")])
    problem = only(data.problems(), "no statement for feature 'prefix-caching'")
    assert (problem.path, problem.line) == ("engines/beta.yml", data.line_of("engines/beta.yml", "support:"))


@pytest.mark.rule("unknown_source")
def test_unknown_source(data):
    data.replace("engines/alpha.yml", "    sources: [alpha-docs]\n    checked: 2026-01-10\n  prefix",
                 "    sources: [alpha-doc]\n    checked: 2026-01-10\n  prefix")
    problem = only(data.problems(), "unknown source 'alpha-doc'")
    assert problem.line == data.line_of("engines/alpha.yml", "[alpha-doc]") and "did you mean 'alpha-docs'" in problem.tip


@pytest.mark.rule("source_never_cited")
def test_source_never_cited(data):
    data.replace("sources.yml", "sources:\n", "sources:\n  - id: lonely\n    title: Lonely\n    url: https://x.example.org/\n"
                 "    publisher: X\n    kind: docs\n    checked: 2026-01-01\n")
    problem = only(data.problems(), "source 'lonely' is never cited")
    assert (problem.path, problem.line) == ("sources.yml", data.line_of("sources.yml", "id: lonely"))


@pytest.mark.rule("duplicate_ids")
def test_duplicate_source_id(data):
    data.replace("sources.yml", "id: beta-readme", "id: alpha-docs")
    first, second = (data.line_of("sources.yml", "id: alpha-docs", nth) for nth in (1, 2))
    problem = only(data.problems(), f"duplicate source id 'alpha-docs' (first at line {first})")
    assert problem.line == second


def test_duplicate_feature_id(data):
    data.replace("features.yml", "id: prefix-caching", "id: http-server")
    problem = only(data.problems(), "duplicate feature id 'http-server'")
    assert problem.line == data.line_of("features.yml", "id: http-server", nth=2)


def cite_a_new_source(data, source_id: str, fields: str) -> None:
    """Add a source (its YAML fields, indented) first in sources.yml and make alpha's prefix-caching
    statement cite it instead of alpha-docs."""
    data.replace("sources.yml", "sources:\n", f"sources:\n  - id: {source_id}\n{fields}")
    data.replace("engines/alpha.yml", "    sources: [alpha-docs]\n    checked: 2026-01-10\n  prefix",
                 f"    sources: [{source_id}]\n    checked: 2026-01-10\n  prefix")


@pytest.mark.rule("duplicate_source_url")
def test_duplicate_source_url(data):
    data.replace("sources.yml", "https://beta.example.org/readme/", "https://alpha.example.org/docs/")
    problem = only(data.problems(), f"same URL as 'alpha-docs' (line {data.line_of('sources.yml', 'https://alpha.example.org/docs/')})")
    assert problem.line == data.line_of("sources.yml", "https://alpha.example.org/docs/", nth=2)  # the second one's


def test_a_duplicate_url_tip_keeps_the_source_that_more_cells_cite(data):
    """The copy is listed first; the tip keeps the source cited three times and moves the one citation of the copy."""
    cite_a_new_source(data, "alpha-copy", "    title: Alpha docs again\n    url: https://alpha.example.org/docs/\n"
                      "    publisher: Alpha project\n    kind: docs\n    checked: 2026-01-10\n")
    problem = only(data.problems(), "source 'alpha-docs' has the same URL as 'alpha-copy'")
    assert problem.line == data.line_of("sources.yml", "url: https://alpha.example.org/docs/", nth=2)
    assert problem.tip.startswith("keep 'alpha-docs' (cited 3 times); change the citation of 'alpha-copy' to "
                                  "'alpha-docs', then remove 'alpha-copy'")
    assert "remove 'alpha-docs'" not in problem.tip


def test_a_duplicate_nothing_cites_is_the_one_to_remove(data):
    data.replace("sources.yml", "sources:\n", "sources:\n  - id: alpha-copy\n    title: Alpha docs again\n"
                 "    url: https://alpha.example.org/docs/\n    publisher: Alpha project\n    kind: docs\n    checked: 2026-01-10\n")
    assert "remove 'alpha-copy', which nothing cites" in only(data.problems(), "has the same URL as 'alpha-copy'").tip


@pytest.mark.rule("checked_date_valid")
def test_checked_date_in_the_future(data):
    data.replace("engines/alpha.yml", "checked: 2026-01-10", "checked: 2027-01-10")
    problem = only(data.problems(today=dt.date(2026, 11, 29)), "in the future")
    assert (problem.path, problem.line) == ("engines/alpha.yml", data.line_of("engines/alpha.yml", "2027-01-10"))


def test_checked_date_that_does_not_exist(data):
    data.replace("sources.yml", "checked: 2026-01-11", "checked: 2026-02-30")
    assert only(data.problems(), "is not a real date").line == data.line_of("sources.yml", "2026-02-30")


@pytest.mark.rule("links_use_https")
def test_http_link_inside_text(data):
    data.replace("engines/alpha.yml", "detail: Ships a server.", "detail: Ships a [server](http://alpha.example.org/).")
    assert only(data.problems(), "link 'http://alpha.example.org/' is not https://").line == data.line_of("engines/alpha.yml", "http://")


@pytest.mark.rule("no_raw_html")
def test_raw_html_in_text(data):
    data.replace("engines/alpha.yml", "detail: Ships a server.", "detail: Ships a <b>server</b>.")
    assert only(data.problems(), "HTML tag <b>").line == data.line_of("engines/alpha.yml", "<b>")


def test_html_inside_code_is_fine(data):
    data.replace("engines/alpha.yml", "detail: Ships a server.", "detail: Ships `<server>`.")
    assert data.problems() == []


@pytest.mark.rule("unknown_not_dressed_as_known")
def test_unknown_with_a_value(data):
    data.replace("engines/beta.yml", "    status: unknown\n", "    status: unknown\n    value: probably yes\n")
    assert only(data.problems(), "status is unknown, yet value says").line == data.line_of("engines/beta.yml", "probably yes")


@pytest.mark.rule("guide_features_exist")
def test_guide_names_unknown_feature(data):
    data.replace("guide.yml", "  - feature: http-server\n    supply", "  - feature: http-servr\n    supply")
    problem = only(data.problems(), "unknown feature 'http-servr'")
    assert (problem.path, problem.line) == ("guide.yml", data.line_of("guide.yml", "feature: http-servr"))


def test_empty_file(data):
    data.write("features.yml", "")
    problem = only(data.problems(), "the file is empty")
    assert (problem.path, problem.line) == ("features.yml", 1)


@pytest.mark.rule("former_ids_are_free")
def test_former_id_used_twice(data):
    data.replace("features.yml", "      - id: prefix-caching\n", "      - id: prefix-caching\n        former-ids: [http-server]\n")
    problem = only(data.problems(), "former id 'http-server' is already used by feature 'http-server'")
    assert (problem.path, problem.line) == ("features.yml", data.line_of("features.yml", "former-ids: [http-server]"))


def test_former_id_redirects(data):
    data.replace("features.yml", "      - id: prefix-caching\n", "      - id: prefix-caching\n        former-ids: [kv-reuse]\n")
    data.replace("engines/beta.yml", "id: beta\n", "id: beta\nformer-ids: [old-beta]\n")
    assert data.problems() == []
    from macros.data.catalog import build_catalog
    moves = build_catalog(data.path, today=TODAY).redirects()
    assert moves == {"features/kv-reuse.md": "features/prefix-caching.md", "engines/old-beta.md": "engines/beta.md",
                     "compare/alpha-vs-old-beta.md": "compare/alpha-vs-beta.md"}


@pytest.mark.rule("canonical_order")
def test_keys_out_of_canonical_order(data):
    data.replace("engines/alpha.yml", "    status: supported\n    value: built in\n", "    value: built in\n    status: supported\n")
    problem = only(data.problems(), "'value' is out of order here: expected 'status' first")
    assert (problem.path, problem.line) == ("engines/alpha.yml", data.line_of("engines/alpha.yml", "value: built in"))
    assert "make fmt" in problem.tip


@pytest.mark.rule("unknown_says_where_searched")
def test_unknown_without_where_it_was_searched(data):
    data.replace("engines/beta.yml", "    searched: [https://beta.example.org/readme/]\n", "")
    problem = only(data.problems(), "`searched` does not say where you looked")
    assert (problem.path, problem.line) == ("engines/beta.yml", data.line_of("engines/beta.yml", "status: unknown"))


def test_searched_on_a_known_statement(data):
    data.replace("engines/alpha.yml", "    sources: [alpha-docs]\n    checked: 2026-01-10\n  prefix",
                 "    sources: [alpha-docs]\n    searched: [x]\n    checked: 2026-01-10\n  prefix")
    assert only(data.problems(), "`searched` belongs to an unknown statement").line == data.line_of("engines/alpha.yml", "searched: [x]")


@pytest.mark.rule("not_supported_says_its_basis")
def test_not_supported_without_its_basis(data):
    data.replace("engines/beta.yml", "    basis: stated-absent\n", "")
    problem = only(data.problems(), "`basis` does not say why")
    assert (problem.path, problem.line) == ("engines/beta.yml", data.line_of("engines/beta.yml", "status: not-supported"))
    assert "exhaustive-list" in problem.tip


def test_basis_on_a_supported_statement(data):
    data.replace("engines/alpha.yml", "    detail: Ships a server.\n", "    detail: Ships a server.\n    basis: stated-absent\n")
    assert only(data.problems(), "`basis` belongs to a not-supported statement").line == data.line_of("engines/alpha.yml", "basis:")


@pytest.mark.rule("claims_are_not_evidence")
def test_a_claim_alone_is_not_evidence(data):
    cite_a_new_source(data, "rumour", "    title: A rumour\n    page: reference/seed.md\n    publisher: Someone\n"
                      "    kind: claim\n    checked: 2026-01-01\n")
    problem = only(data.problems(), "every source is a claim")
    assert (problem.path, problem.line) == ("engines/alpha.yml", data.line_of("engines/alpha.yml", "[rumour]"))
    assert "status: unknown" in problem.tip


@pytest.mark.rule("primary_source_is_a_page")
def test_a_site_front_page_as_the_only_primary_source(data):
    data.replace("sources.yml", "https://alpha.example.org/docs/", "https://alpha.example.org/")
    problem = only(data.problems(), "is a site's front page")
    assert problem.path == "engines/alpha.yml" and "exact page" in problem.tip


def test_a_checked_date_is_in_the_future_only_past_today_anywhere_on_earth():
    from macros.data.rules import latest_today_on_earth

    utc = dt.UTC
    assert latest_today_on_earth(dt.datetime(2026, 11, 29, 9, 59, tzinfo=utc)) == dt.date(2026, 11, 29)
    assert latest_today_on_earth(dt.datetime(2026, 11, 29, 10, 0, tzinfo=utc)) == dt.date(2026, 11, 30)


@pytest.mark.rule("need_niches_name_engines")
def test_a_need_for_an_engine_that_does_not_exist(data):
    data.replace("guide.yml", "        statuses: [supported]\n  - id: caching",
                 "        statuses: [supported]\n    for: [alpah]\n  - id: caching")
    problem = only(data.problems(), "'for' names 'alpah', which is not an engine")
    assert problem.path == "guide.yml" and "did you mean 'alpha'" in problem.tip


@pytest.mark.rule("featured_comparisons_exist")
def test_a_featured_comparison_with_an_engine_that_does_not_exist(data):
    data.replace("engines/alpha.yml", "sources: [alpha-docs]\nsupport:", "featured-comparisons: [betta]\nsources: [alpha-docs]\nsupport:")
    problem = only(data.problems(), "featured comparison with 'betta'")
    assert problem.path == "engines/alpha.yml" and "beta" in problem.tip


@pytest.mark.rule("guide_features_exist")
def test_an_interface_the_guide_names_must_be_a_feature_and_follows_a_rename(data):
    guide = data.file("guide.yml")
    data.write("guide.yml", guide.read_text(encoding="utf-8") + "interfaces:\n  server: http-servr\n  library: http-server\n")
    problem = only(data.problems(), "unknown feature 'http-servr'")
    assert (problem.path, problem.line) == ("guide.yml", data.line_of("guide.yml", "server: http-servr"))
    assert "http-server" in problem.tip
    data.replace("guide.yml", "server: http-servr", "server: http-server")
    data.replace("features.yml", "      - id: prefix-caching\n", "      - id: prefix-reuse\n        former-ids: [prefix-caching]\n")
    data.replace("engines/alpha.yml", "  prefix-caching:", "  prefix-reuse:")
    data.replace("engines/beta.yml", "  prefix-caching:", "  prefix-reuse:")
    data.replace("guide.yml", "feature: prefix-caching", "feature: prefix-reuse")
    data.replace("guide.yml", "server: http-server", "server: prefix-caching")
    problem = only(data.problems(), "unknown feature 'prefix-caching'")
    assert problem.tip == "'prefix-caching' was renamed 'prefix-reuse': write `server: prefix-reuse`"


def test_a_need_for_a_renamed_engine_says_what_to_write(data):
    data.replace("guide.yml", "        statuses: [supported]\n  - id: caching",
                 "        statuses: [supported]\n    for: [beta]\n  - id: caching")
    data.replace("engines/beta.yml", "id: beta\n", "id: beta-two\nformer-ids: [beta]\n")
    data.file("engines/beta.yml").rename(data.file("engines/beta-two.yml"))
    problem = only(data.problems(), "'for' names 'beta', which is not an engine")
    assert problem.tip == "'beta' was renamed 'beta-two': write `beta-two`"


def test_a_featured_comparison_with_a_renamed_engine_says_what_to_write(data):
    data.replace("engines/alpha.yml", "sources: [alpha-docs]\nsupport:", "featured-comparisons: [beta]\nsources: [alpha-docs]\nsupport:")
    data.replace("engines/beta.yml", "id: beta\n", "id: beta-two\nformer-ids: [beta]\n")
    data.file("engines/beta.yml").rename(data.file("engines/beta-two.yml"))
    problems = data.problems()
    assert [(p.path, p.line) for p in problems] == [("engines/alpha.yml", data.line_of("engines/alpha.yml", "featured-"))]
    assert problems[0].tip == "'beta' was renamed 'beta-two': write `beta-two`"


RETIRED = "retired:\n  - id: {id}\n    name: Old feature\n    became: [{became}]\n    why: It was split.\n"


@pytest.mark.rule("retired_ids_stay_retired")
def test_a_retired_id_used_again(data):
    data.write("features.yml", data.file("features.yml").read_text() + RETIRED.format(id="http-server", became="prefix-caching"))
    assert only(data.problems(), "retired feature id 'http-server' is in use again").path == "features.yml"


def test_a_retired_feature_that_became_an_unknown_one(data):
    data.write("features.yml", data.file("features.yml").read_text() + RETIRED.format(id="old-server", became="http-servr"))
    assert "did you mean 'http-server'" in only(data.problems(), "'http-servr' is not a feature").tip


HARDWARE = ("  - id: hardware\n    name: Hardware\n    description: Where it runs.\n    features:\n"
            "      - id: nvidia-gpu\n        name: NVIDIA GPUs\n        description: CUDA.\n")


def _with_hardware(data, alpha_status="supported"):
    data.write("features.yml", data.file("features.yml").read_text() + HARDWARE)
    for engine, status in (("alpha", alpha_status), ("beta", "unknown")):
        extra = {"unknown": "    searched: [https://x.example.org/]\n", "not-supported": "    basis: stated-absent\n"}
        text = data.file(f"engines/{engine}.yml").read_text()
        data.write(f"engines/{engine}.yml", text + f"  nvidia-gpu:\n    status: {status}\n    detail: CUDA.\n"
                   f"    sources: [{engine}-{'docs' if engine == 'alpha' else 'readme'}]\n"
                   + extra.get(status, "") + "    checked: 2026-01-10\n")


@pytest.mark.rule("scope_names_hardware")
def test_a_scope_that_names_no_hardware_feature(data):
    _with_hardware(data)
    assert data.problems() == []
    data.replace("engines/alpha.yml", "    detail: Ships a server.\n", "    detail: Ships a server.\n    scope: [nvidia-gpus]\n")
    problem = only(data.problems(), "scope names 'nvidia-gpus', which is not a hardware feature")
    assert problem.path == "engines/alpha.yml" and "did you mean 'nvidia-gpu'" in problem.tip
    assert problem.line == data.line_of("engines/alpha.yml", "scope:")


def test_a_scope_on_hardware_the_engine_does_not_support(data):
    _with_hardware(data, alpha_status="not-supported")
    data.replace("engines/alpha.yml", "    detail: Ships a server.\n", "    detail: Ships a server.\n    scope: [nvidia-gpu]\n")
    assert "remove it from scope" in only(data.problems(), "Alpha does not support it").tip


CHANNELS = "official-urls: [https://alpha.example.org/]\n"


@pytest.mark.rule("release_channels_are_official")
def test_a_release_channel_outside_the_official_urls(data):
    data.replace("engines/alpha.yml", CHANNELS, "releases:\n  pypi: [alpha]\n  github: alpha-org/alpha\n"
                 "official-urls: [https://alpha.example.org/, https://pypi.org/project/alpha/]\n")
    problem = only(data.problems(), "release channel https://github.com/alpha-org/alpha/ is not under")
    assert problem.line == data.line_of("engines/alpha.yml", "github:")
    assert not [p for p in data.problems() if "pypi.org/project/alpha/" in p.message]


LATEST = "latest-release:\n  stable:\n    version: {stable}\n    date: 2026-01-01\n    sources: [alpha-docs]\n{pre}"


@pytest.mark.rule("pre_release_is_newer")
def test_a_pre_release_that_is_not_newer_than_the_stable_one(data):
    pre = "  pre-release:\n    version: {}\n    date: 2026-01-02\n    sources: [alpha-docs]\n"
    data.replace("engines/alpha.yml", "sources: [alpha-docs]\nsupport:",
                 LATEST.format(stable="v1.2.0", pre=pre.format("v1.3.0rc1")) + "sources: [alpha-docs]\nsupport:")
    assert data.problems() == []
    data.replace("engines/alpha.yml", "v1.3.0rc1", "v1.1.0rc1")
    assert "remove `pre-release`" in only(data.problems(), "pre-release v1.1.0rc1 is not a pre-release newer").tip
    data.replace("engines/alpha.yml", "version: v1.2.0", "version: v1.4.0rc2")
    assert only(data.problems(), "stable release v1.4.0rc2 is a pre-release").path == "engines/alpha.yml"



def warnings_of(data) -> list:
    """The warnings `make check` would print for the fixture, of every kind."""
    from macros.data.catalog import build_catalog
    from macros.data.rules import run_warnings

    catalog = build_catalog(data.path, today=TODAY, shown_from=data.path)
    return [w for found in run_warnings(catalog, TODAY, 100000).values() for w in found]


@pytest.mark.rule("recorded_release_is_behind")
def test_a_recorded_release_older_than_one_the_data_names(data):
    alpha = "engines/alpha.yml"
    data.replace(alpha, "sources: [alpha-docs]\nsupport:",
                 LATEST.format(stable="v1.2.0", pre="") + "sources: [alpha-docs]\nsupport:")
    data.replace("sources.yml", "    kind: docs\n", "    kind: docs\n    version: v1.3.0\n")
    assert data.problems() == []
    (warning,) = warnings_of(data)
    assert (warning.path, warning.line) == (alpha, data.line_of(alpha, "version: v1.2.0"))
    assert warning.message == ("Alpha's recorded stable release v1.2.0 is older than v1.3.0, the version of source "
                               f"'alpha-docs' (sources.yml:{data.line_of('sources.yml', 'version: v1.3.0')})")
    # a value that is not a version is left out, and a pre-release is not compared with the stable release...
    data.replace("sources.yml", "version: v1.3.0", "version: main")
    data.replace(alpha, "    detail: Ships a server.\n", "    detail: Ships a server.\n    since: v1.3.0rc1\n")
    # ...but one newer than the recorded pre-release (here: none) warns
    (warning,) = warnings_of(data)
    assert warning.line == data.line_of(alpha, "latest-release:")
    assert "records no pre-release, but v1.3.0rc1, newer than its stable release v1.2.0, is the `since` of " \
           f"http-server (engines/alpha.yml:{data.line_of(alpha, 'since: v1.3.0rc1')})" in warning.message
    data.replace(alpha, "sources: [alpha-docs]\nsources:", "sources: [alpha-docs]\n  pre-release:\n    version: "
                 "v1.3.0rc1\n    date: 2026-01-02\n    sources: [alpha-docs]\nrelease-history:\n"
                 "  - {version: 1.3.0rc2, date: 2026-01-05, pre-release: true}\n  - {version: 1.2.0, date: 2026-01-01}\n"
                 "sources:")
    assert data.problems() == []
    (warning,) = warnings_of(data)
    assert warning.line == data.line_of(alpha, "version: v1.3.0rc1")
    assert warning.message.startswith("Alpha's recorded pre-release v1.3.0rc1 is older than 1.3.0rc2, in release-history")


def test_a_version_on_pypi_is_the_engines_only_for_its_own_package(data):
    """A package page of a sibling project (MLX beside MLX-LM) names that project's version, not the engine's."""
    alpha = "engines/alpha.yml"
    data.replace(alpha, CHANNELS, "releases:\n  pypi: [alpha]\nofficial-urls: [https://alpha.example.org/, "
                 "https://pypi.org/project/alpha/, https://pypi.org/project/alpha-kernels/]\n")
    data.replace(alpha, "sources: [alpha-docs]\nsupport:",
                 LATEST.format(stable="v1.2.0", pre="") + "sources: [alpha-docs]\nsupport:")
    data.replace("sources.yml", "    url: https://alpha.example.org/docs/\n    publisher: Alpha project\n    kind: docs\n",
                 "    url: https://pypi.org/project/alpha-kernels/2.0.0/\n    publisher: PyPI\n    kind: package-index\n"
                 "    version: 2.0.0\n")
    assert data.problems() == [] and warnings_of(data) == []
    data.replace("sources.yml", "project/alpha-kernels/2.0.0/", "project/alpha/2.0.0/")
    assert "older than 2.0.0, the version of source 'alpha-docs'" in warnings_of(data)[0].message


def rule_marks(folder: Path = Path(__file__).parent) -> set[str]:
    """The rules named by `@pytest.mark.rule(...)` on the test functions of every test module in `folder`
    (read from the modules, not from this run's selection, so `-k` or one file alone gives the same answer)."""
    import importlib
    import inspect

    shown = set()
    for path in sorted(folder.glob("test_*.py")):
        module = importlib.import_module(path.stem)
        for _, function in inspect.getmembers(module, inspect.isfunction):
            shown |= {mark.args[0] for mark in getattr(function, "pytestmark", []) if mark.name == "rule"}
    return shown


def test_every_rule_has_a_bad_case_test():
    """Each rule and warning is marked `@pytest.mark.rule("<name>")` on a test that shows it firing;
    the marks, not the test names, say which rule a test shows."""
    shown = rule_marks()
    checks = {check.__name__ for check in [*RULES, *WARNINGS]}
    assert sorted(checks - shown) == [], "rules without a test that shows them firing"
    assert sorted(shown - checks) == [], "tests marked for rules that do not exist"


def test_rule_marks_are_read_from_the_marks_not_the_test_names(tmp_path, monkeypatch):
    (tmp_path / "test_marked_elsewhere.py").write_text(
        'import pytest\n\n\n@pytest.mark.rule("unknown_source")\ndef test_a_typo_in_a_citation():\n    assert True\n\n\n'
        'def test_unknown_feature():\n    assert True\n', encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert rule_marks(tmp_path) == {"unknown_source"}
