"""The CLI tests' fixtures: a tmux terminal, a loopback model server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from models.loopback import LoopbackServer
from terminal import Terminal


@pytest.fixture
def terminal(tmp_path: Path, hands_home: Path) -> Iterator[Terminal]:
    # a socket of its own, not one in tmux's per-user directory: names there repeat from
    # one pytest run to the next, and two runs on one machine would share a tmux server
    term = Terminal(tmp_path / "tmux.sock")
    yield term
    term.tmux("kill-server")


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    """A loopback HTTP server replaying queued model replies."""
    srv = LoopbackServer()
    srv.start()
    yield srv
    srv.stop()
