"""The same Agent SDK program against Claude Code and against hands, in the oracle's sandbox.

The behavioural oracle (``CC_ORACLE_DIR``: a folder with ``cc_run.py``, its installed
Claude Code and a passed canary) runs an agent against a scripted fake Anthropic API in
a sandbox. Here its agent is :mod:`sdk_program` (an Agent SDK program), whose CLI is
either the oracle's Claude Code or this checkout's hands: same program, same fake API.
"""

from __future__ import annotations

import functools
import os
import sys
import tempfile
import uuid
from pathlib import Path
from types import ModuleType
from typing import Any

PROGRAM = Path(__file__).with_name("sdk_program.py")


class OracleUnavailable(Exception):
    """The oracle is not set up here (no ``CC_ORACLE_DIR``, not installed, no canary)."""


@functools.cache
def oracle() -> ModuleType:
    """The oracle's ``cc_run`` module, checked ready (installed, canary passed)."""
    folder = os.environ.get("CC_ORACLE_DIR")
    if not folder or not (Path(folder) / "cc_run.py").is_file():
        raise OracleUnavailable("set CC_ORACLE_DIR to the behavioural oracle's folder")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    import cc_run  # type: ignore[import-not-found]

    try:
        cc_run.preflight(True)
    except SystemExit as exc:
        raise OracleUnavailable(str(exc)) from None
    return cc_run


def hands_bin() -> str:
    """This checkout's ``hands`` (the interpreter's own environment)."""
    return str(Path(sys.executable).parent / "hands")


def run_program(
    target: str,
    turns: list[dict[str, Any]],
    *,
    record: bool = False,
    timeout: float = 240,
    program: Path = PROGRAM,
    env: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Run the SDK program with ``target`` (``"claude"`` or ``"hands"``) as its CLI.

    ``program``: the SDK program (default :mod:`sdk_program`); ``env``: more variables
    for it.

    Returns the oracle's result: ``events`` (the program's lines: ``sdk_message``,
    ``sdk_timing``, ``result``), ``request_log`` of the fake API, ``timing``.
    """
    cc_run = oracle()
    cli = f"{cc_run.SB_PKG}/bin/claude.exe" if target == "claude" else hands_bin()
    with tempfile.TemporaryDirectory(prefix="hands-sdk-oracle-") as folder:
        launcher = Path(folder) / "sdk-program"
        source = program.read_text().split("\n", 1)[1]
        launcher.write_text(f"#!{sys.executable}\n{source}")
        launcher.chmod(0o755)
        for turn in turns:
            for block in turn.get("blocks", []):
                if block.get("type") == "tool_use" and not block.get("id"):
                    block["id"] = f"toolu_{uuid.uuid4().hex[:24]}"
        marker = f"oracle-{uuid.uuid4().hex[:10]}"
        extra = ["--target", cli]
        if record:
            extra += ["--record", "/tmp/sdk-protocol.jsonl"]
        job = {
            "agent": "claude",
            "claude_bin": str(launcher),
            "script": {"marker": marker, "turns": turns, "final_text": "done"},
            "prompt": f"go [{marker}]",
            "settings": {},
            "permission_mode": "default",
            "setup": {"files": dict(cc_run.BASE_FILES), "git": True},
            "reset_between_turns": False,
            "extra_args": extra,
            "env": {"HANDS_HOME": f"{cc_run.HOME}/.hands", **(env or {})},
        }
        binds = cc_run.sandbox_binds("claude", None, extra=(folder,))
        result: dict[str, Any] = cc_run.run_job(job, binds, timeout=timeout)
    if "error" in result:
        raise RuntimeError(f"the oracle's run failed: {result}")
    return result


def read_turns(count: int) -> list[dict[str, Any]]:
    """``count`` turns that each Read the project's README (allowed without asking)."""
    return [
        {"blocks": [{"type": "tool_use", "name": "Read",
                     "input": {"file_path": "/home/user/project/README.md"}}]}
        for _ in range(count)
    ]  # fmt: skip
