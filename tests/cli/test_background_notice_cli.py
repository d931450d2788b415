"""Print mode: a background command that ends is told to the model and shown in stream-json."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def test_print_mode_waits_for_the_job_and_streams_its_notice(tmp_path: Path) -> None:
    script = tmp_path / "s.json"
    job = {"command": "sleep 0.3; echo out; exit 3", "run_in_background": True}
    script.write_text(
        json.dumps(
            {
                "turns": [
                    {
                        "blocks": [
                            {"type": "tool_use", "id": "toolu_bg", "name": "Bash", "input": job}
                        ]
                    },
                    {"blocks": [{"type": "text", "text": "Started it."}]},
                    {"blocks": [{"type": "text", "text": "It failed with 3."}]},
                ]
            }
        )
    )
    proc = subprocess.run(
        [
            sys.executable, "-m", "hands", "-p", "run the job",
            "--model", f"scripted:{script}", "--cwd", str(tmp_path),
            "--permission-mode", "bypassPermissions", "--output-format", "stream-json",
        ],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    [notice] = [o for o in lines if o.get("subtype") == "task_notification"]
    assert notice["type"] == "system" and notice["tool_use_id"] == "toolu_bg"
    assert notice["status"] == "failed" and "(exit code 3)" in notice["summary"]
    assert Path(notice["output_file"]).read_text() == "out\n[hands: exit code 3]\n"
    assert notice["task_id"] in notice["output_file"]
    # the run went on after the model's first answer, for the notice
    kinds = [(o["type"], o.get("subtype")) for o in lines]
    assert kinds.index(("system", "task_notification")) < kinds.index(("result", "success"))
    assert lines[-1]["result"] == "It failed with 3." and lines[-1]["num_turns"] == 3
