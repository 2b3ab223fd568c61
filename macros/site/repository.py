"""Where the site's source lives, for edit links and "report a problem" links.

From mkdocs.yml (`extra.edit_repository`) or the CI environment (GitHub Actions, GitLab CI),
never from the git remote: in GitLab CI the remote carries a job token. Any user name or
password in the address is dropped, whatever its origin.
"""
from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit


def without_credentials(url: str) -> str:
    parts = urlsplit(url.strip())
    host = parts.hostname or ""
    if parts.port:
        host += f":{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path.rstrip("/"), "", ""))


def repository(extra: dict, environ) -> dict:
    """{"url": ..., "host": "github" | "gitlab"}, or {} when the site names no repository."""
    configured = (extra.get("edit_repository") or "").strip()
    if configured:
        url = configured
        host = extra.get("repository_host") or ("gitlab" if "gitlab" in urlsplit(configured).netloc else "github")
    elif environ.get("GITHUB_SERVER_URL") and environ.get("GITHUB_REPOSITORY"):
        url, host = f"{environ['GITHUB_SERVER_URL']}/{environ['GITHUB_REPOSITORY']}", "github"
    elif environ.get("CI_PROJECT_URL"):
        url, host = environ["CI_PROJECT_URL"], "gitlab"
    else:
        return {}
    url = without_credentials(url)
    return {"url": url, "host": host} if url.startswith("https://") else {}


def edit_url(repo: dict, branch: str, kind: str, path: str) -> str:
    """The page that edits (`kind` "blob") or lists (`kind` "tree") `path`, in each host's form."""
    action = "edit" if kind == "blob" else "tree"
    separator = "/-/" if repo["host"] == "gitlab" else "/"
    return f"{repo['url']}{separator}{action}/{branch}/{path}"
