"""The README's Agent SDK example runs; docs/agent-sdk.md names every flag and request."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from cli.sdk.kit import anthropic_env, said
from hands.cli.sdk.control import HANDLERS
from hands.cli.sdk.flags import FLAGS
from models.loopback import LoopbackServer

ROOT = Path(__file__).resolve().parents[3]


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return text[start : end if end >= 0 else None]


def test_readme_example_runs(tmp_path: Path, server: LoopbackServer) -> None:
    section = _section((ROOT / "README.md").read_text(), "## Use hands from the Claude Agent SDK")
    [code] = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    server.queue(said("src/hands/cli/app.py defines it."))
    env = {
        **os.environ,
        **anthropic_env(server),
        "HOME": str(tmp_path),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    # 1,000 input and 42 output tokens at Sonnet's list price: $0.003 + $0.00063
    assert done.stdout.splitlines() == [
        "src/hands/cli/app.py defines it.",
        "success: 1 turns, $0.0036",
    ]


def test_agent_sdk_doc_lists_every_flag_and_control_request() -> None:
    doc = (ROOT / "docs" / "agent-sdk.md").read_text()
    missing = [n for f in FLAGS for n in f.names if f"`{n}`" not in doc]
    missing += [f"`{s}`" for s in HANDLERS if f"| `{s}` |" not in doc]
    assert missing == []
