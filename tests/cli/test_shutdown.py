"""The command ends without the interpreter's last sweep over its objects
(``hands.cli.shutdown``), and its exit handlers still run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# an exit handler registered before the command's: it runs after them all
_PROBE = """
import atexit, gc, sys
atexit.register(lambda: print("frozen at the end:", gc.get_freeze_count() > 0))
sys.argv = ["hands", *sys.argv[1:]]
from hands.cli.entry import main
main()
"""


def test_the_command_ends_with_its_heap_frozen_after_its_exit_handlers(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("one line\n")
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, "tool", "Read", f'{{"file_path": "{tmp_path / "f.txt"}"}}'],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "one line" in done.stdout
    assert done.stdout.rstrip().endswith("frozen at the end: True"), done.stdout


def test_without_the_command_the_heap_is_not_frozen(tmp_path: Path) -> None:
    # the probe itself: a process that does not run the command ends unfrozen
    code = _PROBE.replace("from hands.cli.entry import main\nmain()", "")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "frozen at the end: False", done.stdout + done.stderr
