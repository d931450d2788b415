"""An MCP server killed during start-up: a line on stderr, then SIGKILL on itself."""

import os
import signal
import sys

print("about to go", file=sys.stderr, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
