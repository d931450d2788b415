"""bypassPermissions is refused for root outside a sandbox (Claude Code does the same)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hands.cli.root_check import bypass_refusal, sandboxed


def test_root_outside_a_sandbox_is_refused_bypass_and_only_bypass(tmp_path: Path) -> None:
    none = (tmp_path / "no-marker",)
    assert bypass_refusal("bypassPermissions", uid=0, env={}, markers=none) is not None
    for mode in ("default", "acceptEdits", "plan", "dontAsk"):
        assert bypass_refusal(mode, uid=0, env={}, markers=none) is None
    assert bypass_refusal("bypassPermissions", uid=1000, env={}, markers=none) is None


@pytest.mark.parametrize(
    "env",
    [{"IS_SANDBOX": "1"}, {"IS_SANDBOX": "yes"}, {"HANDS_SANDBOX": "true"},
     {"CLAUDE_CODE_BUBBLEWRAP": "1"}],
)  # fmt: skip
def test_a_sandbox_says_so_in_the_environment(tmp_path: Path, env: dict[str, str]) -> None:
    none = (tmp_path / "no-marker",)
    assert sandboxed(env, none)
    assert bypass_refusal("bypassPermissions", uid=0, env=env, markers=none) is None


def test_a_container_marker_counts_and_a_false_value_does_not(tmp_path: Path) -> None:
    marker = tmp_path / ".dockerenv"
    assert not sandboxed({"IS_SANDBOX": "0"}, (marker,))
    marker.touch()
    assert sandboxed({}, (marker,))
