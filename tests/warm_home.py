"""The dataclasses' compiled code of one warmed hands home, for every test's hands home.

Each test gets a fresh hands home (``conftest.hands_home``), so every ``hands`` command a
test starts would compile the methods of the seventy-odd dataclasses it makes again, as
a user's first start does: about a fifth of a ``hands -p`` process's CPU. The command keeps
that code in ``<home>/cache/`` keyed by the exact source text (``hands.cli.dataclass_code``),
so a file made once by real commands holds the same code every later command would
compile. It is made once per test run (the first worker makes it, the others wait on a
lock) and hard-linked into each test's home: the command replaces the file by renaming a
new one over it, never writing into it, so no test sees what another test's command kept.

Only that file is shared: never settings, trust, sessions or the kept first request.
Tests of that cache itself use homes of their own (``tests/cli/test_dataclass_code.py``).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from hands.cli.dataclass_code import cache_file

# every module of hands the commands import, so that classes made at import are kept
# (not the framework adapters or Ray: no command imports them, and their frameworks'
# classes would only make the file longer to read)
_IMPORT_ALL = """
import importlib, pkgutil, sys
from pathlib import Path
import hands
from hands.cli.dataclass_code import install, save
install(Path(sys.argv[1]))
skip = ("hands.adapters", "hands.batch.ray", "hands.cli.demo.sample")
for module in pkgutil.walk_packages(hands.__path__, "hands."):
    if not module.name.startswith(skip) and not module.name.endswith("__main__"):
        importlib.import_module(module.name)
save()
"""


def _warm(home: Path, work: Path) -> None:
    """Fill ``home``'s kept code by importing hands and running a session and a tool."""
    work.mkdir(parents=True, exist_ok=True)
    script = work / "script.json"
    script.write_text(json.dumps({"turns": [{"blocks": [{"type": "text", "text": "hi"}]}]}))
    (work / "file.txt").write_text("hello\n")
    env = {**os.environ, "HANDS_HOME": str(home), "HOME": str(work)}
    hands = [sys.executable, "-m", "hands"]
    for command in (
        [sys.executable, "-c", _IMPORT_ALL, str(home)],
        [*hands, "-p", "hi", "--model", f"scripted:{script}"],
        [*hands, "tool", "Read", json.dumps({"file_path": str(work / "file.txt")})],
    ):
        subprocess.run(command, env=env, cwd=work, capture_output=True, timeout=120, check=True)


def kept_class_code(root: Path) -> Path | None:
    """The warmed file under ``root`` (made by the first caller of the run); None if it
    could not be made, and then every home starts empty, as before."""
    home = root / "warm-hands-home"
    with (root / "warm-hands-home.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        kept = cache_file(home)
        if not kept.exists() and not (root / "warm-hands-home.failed").exists():
            try:
                _warm(home, root / "warm-hands-work")
            except (OSError, subprocess.SubprocessError):
                (root / "warm-hands-home.failed").touch()
        return kept if kept.exists() else None


def share(kept: Path, home: Path) -> None:
    """Put the warmed file into a test's hands home (a hard link; a copy across devices)."""
    target = cache_file(home)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(kept, target)
    except OSError:
        shutil.copyfile(kept, target)
