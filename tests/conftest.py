"""Shared fixtures: every test gets its own hands home, never the user's ~/.hands."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.console import RenderableType

from support import render_text

# the reliability suite runs on its own (`make reliability`), not in `make test`
collect_ignore = [] if os.environ.get("RELIABILITY_SCALE") else ["reliability"]


@pytest.fixture(scope="session", autouse=True)
def run_mark() -> Iterator[str]:
    """A ``NAME=value`` entry in the environment of every process this test run starts.

    A scan of /proc for leftover processes must not count those of another test run
    on the same machine.
    """
    value = secrets.token_hex(8)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HANDS_TEST_RUN", value)
        # the machine's ~/.bashrc (aliases such as rm='rm -i') must not change what the
        # tests' commands do; the snapshot tests turn it back on with their own HOME
        patch.setenv("HANDS_SHELL_SNAPSHOT", "0")
        yield f"HANDS_TEST_RUN={value}"


@pytest.fixture(autouse=True)
def hands_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    home = tmp_path_factory.mktemp("hands-home")
    monkeypatch.setenv("HANDS_HOME", str(home))
    yield home


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def render() -> Callable[[RenderableType], str]:
    """Plain text of a renderable, 100 columns wide (:func:`support.render_text`)."""
    return render_text
