"""``--managed-settings`` through the real Python SDK: the program's policy is above the
command line and every settings file, beneath the machine's own managed settings file.

``--managed-settings-in-initialize`` (a host delivers the policy in ``initialize``, which
the Python SDK does not send) is driven over the raw protocol."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from claude_agent_sdk import ResultMessage, SystemMessage

from cli.sdk.kit import HANDS, options, project, refused_line, run, scripted, text, tool_use

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


def _hands(
    tmp_path: Path, lines: list[dict[str, object]], *flags: str
) -> subprocess.CompletedProcess[str]:
    root, home = project(tmp_path)
    model = scripted(
        tmp_path, [tool_use("Bash", command=f"touch {tmp_path / 'ran'}")], [text("ok")]
    )
    return subprocess.run(
        [HANDS, "--output-format", "stream-json", "--input-format", "stream-json", "--verbose",
         "--model", model, "--allowedTools", "Bash", *flags],
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True, text=True, cwd=root, timeout=120,
        env={**os.environ, "HOME": str(home)},
    )  # fmt: skip


def _initialize(**fields: object) -> dict[str, object]:
    request = {"subtype": "initialize", "hooks": None, **fields}
    return {"type": "control_request", "request_id": "req_1", "request": request}


PROMPT: dict[str, object] = {"type": "user", "message": {"role": "user", "content": "go"}}
IN_INITIALIZE = ("--await-initialize", "--managed-settings-in-initialize")


def test_managed_settings_delivered_in_initialize_are_the_policy(tmp_path: Path) -> None:
    policy = {"permissions": {"deny": ["Bash"]}}
    done = _hands(tmp_path, [_initialize(managedSettings=policy), PROMPT], *IN_INITIALIZE)
    assert done.returncode == 0, done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    [answer] = [o for o in out if o["type"] == "control_response"]
    assert answer["response"]["response"]["managed_settings_applied"] is True
    [init] = [o for o in out if o.get("subtype") == "init"]
    assert "Bash" not in init["tools"]
    assert not (tmp_path / "ran").exists()


def test_without_managed_settings_in_initialize_no_session_starts(tmp_path: Path) -> None:
    done = _hands(tmp_path, [_initialize(), PROMPT], *IN_INITIALIZE)
    assert (done.returncode, done.stdout) == (1, "")
    [line] = done.stderr.splitlines()
    assert line.startswith("hands: --managed-settings-in-initialize:") and "managedSettings" in line
    assert not (tmp_path / "ran").exists()


@pytest.mark.parametrize(
    ("flags", "said_"),
    [
        (["--managed-settings-in-initialize"], "needs --await-initialize"),
        (
            [*IN_INITIALIZE, "--managed-settings", "{}"],
            "cannot be combined with --managed-settings",
        ),
    ],
)
def test_managed_settings_in_initialize_misused_is_one_line_and_exit_2(
    tmp_path: Path, flags: list[str], said_: str
) -> None:
    assert said_ in refused_line(tmp_path, flags)
