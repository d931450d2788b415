"""The browser as session state: its snapshot names the open tabs (not restorable), and
compaction restates them; the session's end closes it."""

from __future__ import annotations

from hands.core.context import ToolContext
from hands.core.state import SessionState
from tools.browser.conftest import Browsing


def test_the_snapshot_and_the_carried_lines_name_the_open_tab(browsing: Browsing) -> None:
    browsing.open("/login")
    url = browsing.pages.url("/login")
    state = browsing.browser
    assert isinstance(state, SessionState)
    assert state.snapshot() == {"restorable": False, "tabs": [url]}
    ctx = ToolContext(cwd=browsing.project, session=browsing.session)
    lines = state.carry(ctx, reattach=0).lines
    assert lines[1:] == (f"* {url}",)
    browsing.close()  # the session's end
    assert not state.running and state.snapshot()["tabs"] == []
