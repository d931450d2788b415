"""Shared fixtures: every test gets its own hands home, never the user's ~/.hands."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.console import RenderableType

import warm_home
from support import render_text

# the reliability suite runs on its own (`make reliability`), not in `make test`
collect_ignore = [] if os.environ.get("RELIABILITY_SCALE") else ["reliability"]

WIDE_SCOPES = ("module", "class", "package")

# folders whose tests run one at a time under xdist, in one worker: several chromiums at
# once made the browser tests' waits of a few seconds run out on a 2-core machine
ONE_AT_A_TIME = {"tests/tools/browser/": "browser"}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Keep the tests that share a fixture wider than one test in one xdist worker.

    Under ``-n N --dist loadgroup`` each worker builds its own module-scoped fixtures;
    a module whose tests were spread over the workers would start its browser, Ray
    cluster or MCP server once per worker. Grouping them by file starts it once.
    """
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None or item.get_closest_marker("xdist_group") is not None:
            continue
        folder = next((g for f, g in ONE_AT_A_TIME.items() if item.nodeid.startswith(f)), None)
        if folder is not None:
            item.add_marker(pytest.mark.xdist_group(folder))
            continue
        defs = info.name2fixturedefs.values()
        if any(d[-1].scope in WIDE_SCOPES for d in defs):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Fail a grouped test that pytest-xdist could not keep with its group.

    ``--dist loadgroup`` reads a test's group from an ``@group`` suffix that pytest-xdist
    puts on its id; where the installed pytest does not let it, every test is shared out
    on its own: module-wide fixtures start in each worker again, browser tests overlap.
    """
    if not getattr(item.config.option, "loadgroup", False):
        return
    if item.get_closest_marker("xdist_group") is not None and "@" not in item.nodeid:
        pytest.fail(
            f"pytest-xdist could not keep {item.nodeid} with its group: this pytest and "
            "pytest-xdist do not work together for --dist loadgroup (see pyproject.toml)",
            pytrace=False,
        )


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


@pytest.fixture(scope="session")
def kept_class_code(tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    """The dataclasses' code of a warmed hands home, made once per run (:mod:`warm_home`)."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # shared by the workers
    return warm_home.kept_class_code(root)


@pytest.fixture(autouse=True)
def hands_home(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    kept_class_code: Path | None,
) -> Iterator[Path]:
    """A fresh hands home; only the dataclasses' kept code is in it (:mod:`warm_home`)."""
    home = tmp_path_factory.mktemp("hands-home")
    if kept_class_code is not None:
        warm_home.share(kept_class_code, home)
    monkeypatch.setenv("HANDS_HOME", str(home))
    yield home


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def render() -> Callable[[RenderableType], str]:
    """Plain text of a renderable, 100 columns wide (:func:`support.render_text`)."""
    return render_text
