"""The ``hands`` script: ``hands tool`` starts without loading the full command line."""

from __future__ import annotations

import logging
import signal
import sys


def main() -> None:
    """Entry point of the ``hands`` script."""
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    # a library's log warnings (pypdf on a damaged PDF) are not the user's output
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    from hands.cli import startup
    from hands.errors import HandsError

    startup.begin()
    try:
        if sys.argv[1:2] == ["tool"]:
            from hands.cli.tool_command import main as tool_main

            raise SystemExit(tool_main(sys.argv[2:]))
        from hands.cli.app import app

        app()
    except HandsError as exc:
        print(f"hands: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
