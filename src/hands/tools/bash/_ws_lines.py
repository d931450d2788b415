r"""Print a WebSocket's messages as lines: what Monitor's ``ws`` runs in the background.

``python -m hands.tools.bash._ws_lines URL [PROTOCOL...]``: each text frame is one line
(its own line breaks written as ``\n``), a binary frame a placeholder line; the socket's
close ends the program with a last line saying so (exit 0), an error with a line saying
what failed (exit 1). Run as a background command, it gets the command's output file,
sandbox, deadline and TaskStop, and Monitor turns its lines into events.
"""

from __future__ import annotations

import sys


def frame_line(message: str | bytes) -> str:
    """One frame as one line."""
    if isinstance(message, bytes):
        return f"[binary frame: {len(message)} bytes]"
    return message.replace("\r\n", "\n").replace("\n", "\\n")


def main(argv: list[str]) -> int:
    """Follow the WebSocket ``argv[0]`` (with subprotocols ``argv[1:]``) until it closes."""
    from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
    from websockets.sync.client import connect

    url, protocols = argv[0], argv[1:]
    try:
        with connect(url, subprotocols=protocols or None, open_timeout=30) as socket:  # pyright: ignore[reportArgumentType]
            print(f"[WebSocket open: {url}]", flush=True)
            try:
                for message in socket:
                    print(frame_line(message), flush=True)
            except ConnectionClosed:
                pass
            code, reason = socket.close_code, socket.close_reason or ""
            said = f" {code} {reason}".rstrip() if code is not None else " without a close frame"
            print(f"[WebSocket closed:{said}]", flush=True)
            return 0
    except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as exc:
        print(f"[WebSocket error: {exc}]", flush=True)
        return 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
