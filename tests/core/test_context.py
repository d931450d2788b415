from __future__ import annotations

from pathlib import Path

from hands.core.context import ToolContext
from hands.core.session import Session


def test_resolve_leaves_an_unknown_users_home_as_a_relative_path(tmp_path: Path) -> None:
    ctx = ToolContext(cwd=tmp_path, session=Session())
    assert ctx.resolve("~nosuchuser-7f3a/a") == tmp_path / "~nosuchuser-7f3a/a"
    assert ctx.resolve("~/a") == Path.home() / "a"
