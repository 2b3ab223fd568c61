"""Work done ahead in a second process (macros/site/ahead.py): a result is taken only when the child
did the job as this process would have, and anything else falls back to this process."""
from __future__ import annotations

import ast
import logging
import os
import re
import time
import warnings

import pytest

from macros.site import ahead
from macros.site.ahead import MISSING, Ahead

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here: builds run in one process")


def _reaped(pid: int) -> bool:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def test_results_come_from_the_child_in_any_order_of_taking():
    parent = os.getpid()
    work = Ahead({("page", n): (lambda n=n: (os.getpid(), "<p>" * n)) for n in range(5)})
    try:
        taken = [work.take(("page", n)) for n in (3, 0, 4, 1, 2)]
    finally:
        work.close()
    assert [html for _, html in taken] == ["<p>" * n for n in (3, 0, 4, 1, 2)]
    pids = {pid for pid, _ in taken}
    assert len(pids) == 1 and parent not in pids  # one child did them all


def test_a_key_taken_twice_or_never_given_is_missing_at_once():
    work = Ahead({"a": lambda: "A"})
    try:
        assert work.take("a") == "A"
        assert work.take("a") is MISSING and work.take("b") is MISSING
    finally:
        work.close()


def test_a_job_that_raises_warns_or_logs_a_warning_is_left_to_the_parent():
    def raises():
        raise ValueError("bad data")

    def warns():
        warnings.warn("deprecated", DeprecationWarning, stacklevel=1)
        return "warned"

    def logs():
        logging.getLogger("mkdocs.plugins").warning("a strict build counts this")
        return "logged"

    def logs_info():
        logging.getLogger("mkdocs.plugins").info("not a warning")
        return "info"

    work = Ahead({"raises": raises, "warns": warns, "logs": logs, "info": logs_info, "fine": lambda: "fine"})
    try:
        assert [work.take(k) for k in ("raises", "warns", "logs")] == [MISSING] * 3
        assert work.take("info") == "info" and work.take("fine") == "fine"
    finally:
        work.close()


def test_a_child_that_dies_leaves_the_rest_missing_without_a_hang():
    def dies():
        os._exit(3)

    work = Ahead({"first": lambda: 1, "dies": dies, "after": lambda: 2})
    try:
        assert work.take("first") == 1
        assert work.take("dies") is MISSING and work.take("after") is MISSING
    finally:
        work.close()


def test_close_stops_a_child_at_work_and_reaps_it():
    work = Ahead({"slow": lambda: time.sleep(60)})
    pid = work.pid
    started = time.monotonic()
    work.close()
    assert _reaped(pid) and time.monotonic() - started < 30
    assert work.take("slow") is MISSING


def test_one_process_when_the_site_or_the_machine_says_so(monkeypatch):
    assert ahead.start({"a": lambda: 1}, processes=1).pid is None
    monkeypatch.setattr(ahead, "processors", lambda: 1)
    assert ahead.start({"a": lambda: 1}, processes=2).pid is None
    monkeypatch.undo()
    if ahead.processors() >= 2:
        work = ahead.start({"a": lambda: 1}, processes=2)
        try:
            assert work.pid is not None and work.take("a") == 1
        finally:
            work.close()


def test_a_refused_fork_or_temporary_file_leaves_the_work_to_this_process(monkeypatch):
    def refused(*args, **kwargs):
        raise OSError(11, "Resource temporarily unavailable")

    for target in ("fork", "pipe"):
        with monkeypatch.context() as patch:
            patch.setattr(ahead.os, target, refused)
            work = Ahead({"a": lambda: 1})
            assert work.pid is None and work.take("a") is MISSING
            work.close()
    with monkeypatch.context() as patch:
        patch.setattr(ahead.tempfile, "TemporaryFile", refused)
        work = Ahead({"a": lambda: 1})
        assert work.pid is None and work.take("a") is MISSING


def test_a_warning_in_the_child_is_not_printed_there(capfd):
    def logs():
        logging.getLogger("mkdocs.plugins").warning("printed once, by the parent")
        return "logged"

    logging.getLogger("mkdocs").addHandler(logging.StreamHandler())
    work = Ahead({"logs": logs})
    try:
        assert work.take("logs") is MISSING
    finally:
        work.close()
        logging.getLogger("mkdocs").handlers.pop()
    assert "printed once" not in capfd.readouterr().err


def test_every_job_a_generated_page_gives_is_the_call_its_page_makes(data):
    """The hook keys a job by its renderer's name and arguments; the page's macro call, as Jinja
    makes it, must come out under the same key, or its HTML would be rendered twice (and the build
    would still pass: the parent renders what it does not take)."""
    from conftest import as_build
    from macros.data.catalog import build_catalog
    from macros.site.ahead import macro_key
    from macros.site.hooks import generated_pages

    pages = generated_pages(as_build(build_catalog(data.path, shown_from=data.path)))
    jobs = [(markdown, job) for _title, markdown, job in pages.values() if job is not None]
    assert {job[0].__name__ for _, job in jobs} == {"engine_page", "feature_page", "compare"}
    for markdown, job in jobs:
        name, args = re.search(r"\{\{ (\w+)\((.*)\) \}\}", markdown).groups()
        called = ast.literal_eval(f"({args},)")  # the literal arguments Jinja passes to the macro
        assert macro_key(name, "u/", called) == macro_key(job[0].__name__, "u/", job[1:]), markdown
