"""``--managed-settings`` through the real Python SDK: the program's policy is above the
command line and every settings file, beneath the machine's own managed settings file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from claude_agent_sdk import ResultMessage, SystemMessage

from cli.sdk.kit import options, run, scripted, text, tool_use

pytestmark = pytest.mark.anyio


async def test_managed_deny_beats_the_programs_allow(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    model = scripted(tmp_path, [tool_use("Bash", command=f"touch {marker}")], [text("done")])
    policy = {"permissions": {"deny": ["Bash"]}}
    opts = options(
        tmp_path,
        model,
        allowed_tools=["Bash"],
        settings=json.dumps({"permissions": {"allow": ["Bash"]}}),
        extra_args={"managed-settings": json.dumps(policy)},
    )
    messages = await run("go", opts)
    assert not marker.exists()
    assert isinstance(messages[-1], ResultMessage)
    init = messages[0]
    assert isinstance(init, SystemMessage) and "Bash" not in init.data["tools"]


async def test_managed_mode_wins_over_the_command_lines_and_the_machines_wins_over_it(
    tmp_path: Path,
) -> None:
    model = scripted(tmp_path, [text("a")], [text("b")])
    policy = json.dumps({"permissions": {"defaultMode": "plan"}})
    opts = options(
        tmp_path, model, permission_mode="acceptEdits", extra_args={"managed-settings": policy}
    )
    init = (await run("go", opts))[0]
    assert isinstance(init, SystemMessage) and init.data["permissionMode"] == "plan"
    machine = tmp_path / "machine-managed.json"
    machine.write_text(json.dumps({"permissions": {"defaultMode": "dontAsk"}}))
    opts = options(
        tmp_path,
        model,
        permission_mode="acceptEdits",
        extra_args={"managed-settings": policy},
        env={"HANDS_MANAGED_SETTINGS": str(machine)},
    )
    init = (await run("go", opts))[0]
    assert isinstance(init, SystemMessage) and init.data["permissionMode"] == "dontAsk"
