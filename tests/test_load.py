"""The strict loader turns every YAML surprise into a problem with file, line and column."""
import gc

import pytest

from macros.data.catalog import build_catalog
from macros.data.load import load, parse
from macros.data.problems import DataError


def only_problem(text: str, date_keys=frozenset({"checked"})):
    _, problems = parse(text, "f.yml", date_keys)
    assert len(problems) == 1, problems
    return problems[0]


def test_duplicate_key_is_an_error_and_keeps_the_first():
    doc, problems = parse("a: 1\nb: 2\na: 3\n", "f.yml")
    assert [(p.line, p.col) for p in problems] == [(3, 1)]
    assert "duplicate key 'a' (first at line 1)" in problems[0].message
    assert doc.data["a"] == "1"


def test_yaml11_boolean_is_an_error():
    problem = only_problem("status: no\n")
    assert (problem.line, problem.col) == (1, 9)
    assert "yes/no boolean" in problem.message and '"no"' in problem.tip


def test_yaml11_boolean_key_is_an_error():
    assert "yes/no boolean" in only_problem("on: 1\n").message


def test_quoted_no_and_true_false_are_fine():
    doc, problems = parse('a: "no"\nb: true\nc: false\n', "f.yml")
    assert problems == [] and doc.data == {"a": "no", "b": True, "c": False}


def test_bare_date_in_a_text_field_is_an_error():
    problem = only_problem("value: 2026-10-20\n")
    assert "read as a date" in problem.message and (problem.line, problem.col) == (1, 8)


def test_bare_date_in_a_date_field_stays_text():
    doc, problems = parse("checked: 2026-10-20\n", "f.yml", {"checked"})
    assert problems == [] and doc.data == {"checked": "2026-10-20"}


def test_numbers_keep_their_text():
    doc, _ = parse("a: 1.10\nb: 010\n", "f.yml")
    assert doc.data == {"a": "1.10", "b": "010"}


def test_tab_is_an_error_with_its_column():
    _, problems = parse("a: 1\n\tb: 2\nc: x\td\n", "f.yml")
    assert [(p.line, p.col, p.message) for p in problems] == [(2, 1, "tab character"), (3, 5, "tab character")]


def test_broken_yaml_names_the_line():
    problem = only_problem("a: [1, 2\nb: 3\n")
    assert problem.message.startswith("invalid YAML") and problem.line >= 2


def test_empty_file_is_an_error():
    assert "empty" in only_problem("# only a comment\n").message


def test_document_that_is_not_a_mapping_is_an_error():
    assert "not a mapping" in only_problem("- a\n- b\n").message


def test_anchors_and_aliases_are_errors():
    assert "aliases" in only_problem("a: &x hello\nb: *x\n").message


def test_bytes_that_are_not_utf8(tmp_path):
    path = tmp_path / "latin.yml"
    path.write_bytes(b"name: caf\xe9\n")
    _, problems = load(path)
    assert len(problems) == 1
    assert (problems[0].line, problems[0].col) == (1, 10) and "not UTF-8" in problems[0].message


def test_every_value_knows_its_line():
    doc, _ = parse("top:\n  inner:\n    - first\n    - second\n", "f.yml")
    assert doc.where(("top", "inner", 1)) == (4, 7)
    assert doc.where(("top", "inner"), key=True) == (2, 3)


def test_the_collector_is_as_it_was_after_loading_good_or_bad_data(data):
    """Loading pauses Python's cyclic garbage collector (macros/data/catalog.py): a load that succeeds or
    fails leaves it on, or off, as it found it, so `mkdocs serve` never runs on without it."""
    assert gc.isenabled()
    build_catalog(data.path)
    assert gc.isenabled()
    data.write("features.yml", "categories: [\n")
    with pytest.raises(DataError):
        build_catalog(data.path)
    assert gc.isenabled()
    gc.disable()
    try:
        with pytest.raises(DataError):
            build_catalog(data.path)
        assert not gc.isenabled()
    finally:
        gc.enable()


def _generation(obj) -> int | None:
    return next((g for g in range(3) if any(o is obj for o in gc.get_objects(generation=g))), None)


def test_what_a_load_made_is_filed_with_the_oldest_generation(data):
    """Made while the collector was off, the catalog's records would all be young: the first young
    collection after the load would walk every one to find it alive. They go to the oldest generation."""
    catalog = build_catalog(data.path)
    assert _generation(catalog) == 2 and _generation(next(iter(catalog.engines.values()))) == 2


def test_objects_frozen_before_a_load_stay_frozen(data):
    """A build freezes what lives as long as it (macros/site/hooks.py); a load must not unfreeze it."""
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        catalog = build_catalog(data.path)
        # still with the young ones: in generation 0, or 1 once a young collection has run (a bigger catalog)
        assert gc.get_freeze_count() == frozen and _generation(catalog) in (0, 1)
    finally:
        gc.unfreeze()
