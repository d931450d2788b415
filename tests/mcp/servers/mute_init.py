"""A stdio MCP server that reads ``initialize`` and never answers it.

Run: python mute_init.py DIR. It writes its pid and its children's (a ``sleep`` that
shares its stderr, and one that writes its stderr elsewhere) to DIR/pids, and notes to
DIR/notes what it sees: ``initialize``, ``EOF`` when its stdin closes (which it
ignores, as a stuck server would) and ``TERM`` when it gets SIGTERM.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

out = Path(sys.argv[1])


def note(word: str) -> None:
    with (out / "notes").open("a") as f:
        f.write(word + "\n")


def on_term(signum: int, frame: object) -> None:
    note("TERM")
    sys.exit(0)


signal.signal(signal.SIGTERM, on_term)
child = subprocess.Popen(["sleep", "300"])
quiet = subprocess.Popen(["sleep", "301"], stderr=subprocess.DEVNULL)
(out / "pids.tmp").write_text(f"{child.pid}\n{quiet.pid}\n{os.getpid()}\n")
(out / "pids.tmp").rename(out / "pids")
for line in sys.stdin:
    if '"initialize"' in line:
        note("initialize")
note("EOF")
while True:
    time.sleep(3600)
