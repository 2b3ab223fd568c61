"""A local web for the network tools' tests: an HTTP server on 127.0.0.1, in a thread, serving
what each test tells it and recording every request. Nothing here reaches the network."""
from __future__ import annotations

import io
import json
import os
import threading
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import NamedTuple
from unittest import mock


class Ran(NamedTuple):
    returncode: int
    stdout: str
    stderr: str


def run_tool(*args: str, env: dict | None = None) -> Ran:
    """`python -m macros ARGS` in this process (a tenth of the time of a new one), with `env` set
    and no GITHUB_TOKEN unless `env` gives one."""
    from macros.__main__ import main

    out, err = io.StringIO(), io.StringIO()
    environment = {k: v for k, v in os.environ.items() if k != "GITHUB_TOKEN"} | (env or {})
    with mock.patch.dict(os.environ, environment, clear=True), redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exit:  # argparse refusing an option
            code = exit.code
    return Ran(code, out.getvalue(), err.getvalue())


@dataclass
class Reply:
    """One answer: a status, headers and a body; `wait` seconds of silence first (a slow server)."""

    status: int = 200
    body: bytes | str = b""
    headers: dict = field(default_factory=dict)
    wait: float = 0.0

    @classmethod
    def json(cls, data, status: int = 200, wait: float = 0.0, **headers) -> Reply:
        return cls(status, json.dumps(data), {"Content-Type": "application/json", **headers}, wait)

    @classmethod
    def html(cls, text: str, status: int = 200, wait: float = 0.0, **headers) -> Reply:
        return cls(status, text, {"Content-Type": "text/html; charset=utf-8", **headers}, wait)

    @classmethod
    def redirect(cls, location: str, status: int = 302) -> Reply:
        return cls(status, b"", {"Location": location})


@dataclass
class Seen:
    path: str
    headers: dict


class FakeWeb:
    """Routes (path -> Reply, a list of Replies served in turn, or a function of the request) and a log."""

    def __init__(self):
        self.routes: dict = {}
        self.seen: list[Seen] = []
        self.released = threading.Event()  # set at shutdown: a slow reply stops waiting
        self.active = 0
        self.most_active = 0
        self._lock = threading.Lock()
        web = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - the http.server API
                web._serve(self)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    def requests_to(self, path: str) -> list[Seen]:
        """The requests for `path`, whatever their query."""
        return [s for s in self.seen if s.path.split("?")[0] == path]

    def _reply_for(self, path: str, headers: dict) -> Reply:
        route = self.routes.get(path, self.routes.get(path.split("?")[0]))
        if isinstance(route, list):
            return route.pop(0) if len(route) > 1 else route[0]
        if callable(route):
            return route(headers)
        return route or Reply(404, "not here")

    def _serve(self, handler) -> None:
        headers = {k.lower(): v for k, v in handler.headers.items()}
        with self._lock:
            self.seen.append(Seen(handler.path, headers))
            self.active += 1
            self.most_active = max(self.most_active, self.active)
        answering = False
        try:
            reply = self._reply_for(handler.path, headers)
            if reply.wait:
                self.released.wait(reply.wait)
            # answered from here on: the client cannot have the answer (and send its next request)
            # before this, while counting after the write would overlap that next request
            with self._lock:
                self.active -= 1
            answering = True
            body = reply.body.encode("utf-8") if isinstance(reply.body, str) else reply.body
            handler.send_response(reply.status)
            for name, value in reply.headers.items():
                handler.send_header(name, value)
            handler.send_header("Content-Length", str(len(body)))
            handler.end_headers()
            handler.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            if not answering:
                with self._lock:
                    self.active -= 1

    def __enter__(self) -> FakeWeb:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.released.set()
        self.server.shutdown()
        self.server.server_close()
