"""Work done ahead in a second process, so that a build uses two cores: MkDocs renders pages one at
a time, and some work needs nothing MkDocs does first. macros/site/hooks.py forks a child twice: at
on_pre_build, once the catalog is checked, to render the engine and feature pages and the comparisons
(half of a build's own work) while this process reads docs/, writes the outputs and renders the hand-written
pages; at on_env, once every page's HTML is made, to read the pages' search sections
(macros/site/search.py) while this process writes the pages. Each macro, and the indexer, then
takes the child's result instead of doing the work.

What the child sends is exactly what this process would have made: the same code over the same
catalog, inherited at the fork. Anything the child could not do this process does itself, the same
way as without a child: a job that raised, logged a warning (a strict build counts the warnings of
this process only) or never arrived (the child was killed, or crashed) is simply not taken. So the
child can make a build faster, never different or less strict (tests/test_site.py builds a site in
one process and in two, and compares every byte; tests/test_ahead.py shows each way back).

One process only where there is no fork (Windows), one processor to run on, a fork or temporary
file refused by the system, or a site that says `extra: {build_processes: 1}`.
"""
from __future__ import annotations

import logging
import os
import pickle
import signal
import tempfile
import warnings
from collections.abc import Callable, Hashable

MISSING = object()  # what take() returns for a job the child did not do


def macro_key(name: str, page_url: str, args: tuple) -> tuple:
    """The key of a block macro's HTML done ahead: the hook that gives the job and the macro that
    takes it (macros/__init__.py) must name it alike, or every page silently renders in one process."""
    return ("macro", name, page_url, tuple(args))


def processors() -> int:
    """The processors this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class _Warned(logging.Handler):
    """Notes that a job logged a warning or worse: its result is then not sent."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.seen = False

    def emit(self, record):
        self.seen = True


def _run_jobs(jobs: list, data: int, notes: int) -> None:
    """In the child: each job in order, its result written to the data file and announced at once."""
    noticed = _Warned()
    # in place of the handlers that print: a job that warns is done again by the parent, which prints
    # the warning once (MkDocs' own logger does not pass its records on to the root)
    for name in ("", "mkdocs"):
        logging.getLogger(name).handlers = [noticed]
    offset = 0
    for position, job in enumerate(jobs):
        noticed.seen = False
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                result = pickle.dumps(job(), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # the parent renders it, and reports the error as it would without a child
            continue
        if noticed.seen or caught:
            continue
        written = 0
        while written < len(result):
            written += os.pwrite(data, result[written:], offset + written)
        os.write(notes, f"{position} {offset} {len(result)}\n".encode())
        offset += len(result)


class Ahead:
    """Jobs run in a child process, their results taken by key in this one.

    The child writes each result to a file (unlinked: nothing is left behind) and announces it on a
    pipe with a short line, so it never waits for this process to read: a pipe holds thousands of
    such lines. This process reads the file only for what it takes."""

    def __init__(self, jobs: dict[Hashable, Callable[[], object]]):
        # job key -> its place in the child's order, for the keys this process has not taken yet
        self.positions = {key: i for i, key in enumerate(jobs)}
        self.arrived: dict[int, tuple[int, int]] = {}  # job position -> (offset, length) in the data file
        self.pid = None
        self._notes, self._data, self._partial = -1, None, b""
        if not jobs:
            return
        try:
            data = tempfile.TemporaryFile()
            readable, writable = os.pipe()
        except OSError:  # no room for the results, or no pipe: this process does the work
            self.positions.clear()
            return
        try:
            with warnings.catch_warnings():
                # Python 3.12+ warns when a process with threads forks (`mkdocs serve` has a server and a
                # watcher thread): a lock another thread holds stays held in the child. The child runs
                # only the jobs (rendering over the catalog), which take no lock those threads use, and
                # leaves with os._exit; logging, whose locks it does use, resets them at a fork.
                warnings.filterwarnings("ignore", ".*fork", DeprecationWarning)
                pid = os.fork()
        except OSError:  # the system refuses a process now
            data.close()
            os.close(readable)
            os.close(writable)
            self.positions.clear()
            return
        if pid == 0:  # the child: do the jobs, then leave at once, running nothing of the parent's
            status = 0
            try:
                os.close(readable)
                _run_jobs(list(jobs.values()), data.fileno(), writable)
            except BaseException:  # a closed pipe (the parent stopped reading): nothing more to send
                status = 1
            finally:
                os._exit(status)
        os.close(writable)
        self.pid, self._notes, self._data = pid, readable, data

    def _read_notes(self) -> bool:
        """Read what the child has announced (waiting for a line); False when it has no more to say."""
        chunk = os.read(self._notes, 1 << 16)
        if not chunk:
            os.close(self._notes)
            self._notes = -1
            return False
        lines = (self._partial + chunk).split(b"\n")
        self._partial = lines.pop()  # a line cut short: the rest comes with the next chunk
        for line in lines:
            position, offset, length = map(int, line.split())
            self.arrived[position] = (offset, length)
        return True

    def take(self, key: Hashable):
        """The child's result for `key` (waiting for it while the child is at work), or MISSING."""
        position = self.positions.pop(key, None)
        if position is None:
            return MISSING
        while position not in self.arrived and self._notes >= 0 and self._read_notes():
            pass
        if position not in self.arrived:
            return MISSING
        offset, length = self.arrived.pop(position)
        return pickle.loads(os.pread(self._data.fileno(), length, offset))

    def close(self) -> None:
        """Stop the child if it is still at work, reap it, and drop the file."""
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:
                os.waitpid(self.pid, 0)
            except ChildProcessError:
                pass
            self.pid = None
        if self._notes >= 0:
            os.close(self._notes)
            self._notes = -1
        if self._data is not None:
            self._data.close()
            self._data = None
        self.positions.clear()
        self.arrived.clear()


def start(jobs: dict[Hashable, Callable[[], object]], processes: int = 2) -> Ahead:
    """Jobs to be done ahead: in a child when the machine and the site allow two processes, else none
    (each caller then does its own work)."""
    if processes < 2 or not hasattr(os, "fork") or processors() < 2:
        return Ahead({})
    return Ahead(jobs)
