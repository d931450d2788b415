"""The ``hands`` script: ``hands tool`` starts without loading the full command line."""

from __future__ import annotations

import signal
import sys


def main() -> None:
    """Entry point of the ``hands`` script."""
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if sys.argv[1:2] == ["tool"]:
        from hands import startup
        from hands.errors import HandsError
        from hands.tool_command import main as tool_main

        startup.begin()
        try:
            status = tool_main(sys.argv[2:])
        except HandsError as exc:
            print(f"hands: {exc}", file=sys.stderr)
            status = 2
        raise SystemExit(status)
    from hands.cli import main as cli_main

    cli_main()
