"""`make audit`: Lighthouse scores for the main pages of the built site.

Serves site/ on 127.0.0.1, runs Lighthouse (npm, tests/audit) in Debian's Chromium, prints
performance, accessibility and best-practices per page, and fails below the targets.
"""
from __future__ import annotations

import functools
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
SITE = HERE.parent.parent / "site"
LIGHTHOUSE = HERE / "node_modules" / ".bin" / "lighthouse"
PAGES = {"home": "", "comparison": "compare/deepinfer-vs-vllm/", "matrix": "matrix/", "guide": "guide/"}
TARGETS = {"performance": 95, "accessibility": 100, "best-practices": 95}
CHROME_FLAGS = ("--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking "
                "--disable-component-update --disable-sync")


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def main() -> int:
    if not (SITE / "index.html").exists():
        print("build the site first: make build", file=sys.stderr)
        return 1
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(SITE)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROMIUM", "/usr/bin/chromium")}
    failed = []
    print(f"{'page':<12}" + "".join(f"{c:>16}" for c in TARGETS))
    for name, url in PAGES.items():
        with tempfile.TemporaryDirectory() as tmp:
            report = Path(tmp) / "report.json"
            result = subprocess.run([str(LIGHTHOUSE), base + url, "--quiet", "--output=json", f"--output-path={report}",
                                     f"--only-categories={','.join(TARGETS)}", f"--chrome-flags={CHROME_FLAGS}",
                                     "--preset=desktop"], env=env, capture_output=True, text=True)
            if result.returncode != 0 or not report.exists():
                print(f"lighthouse failed on {name}: {result.stderr[-1500:]}", file=sys.stderr)
                return 1
            categories = json.loads(report.read_text())["categories"]
        scores = {c: round(categories[c]["score"] * 100) for c in TARGETS}
        print(f"{name:<12}" + "".join(f"{scores[c]:>16}" for c in TARGETS))
        failed += [f"{name} {c} {scores[c]} < {TARGETS[c]}" for c in TARGETS if scores[c] < TARGETS[c]]
    server.shutdown()
    print("targets: " + ", ".join(f"{c} >= {t}" for c, t in TARGETS.items()))
    for line in failed:
        print("MISSED: " + line, file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
