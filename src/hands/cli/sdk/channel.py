"""The control channel: JSON lines out, and requests to the SDK that wait for an answer.

hands writes ``control_request`` lines (a permission question, a hook callback, a message
for an in-process MCP server) and the SDK answers each with a ``control_response`` of
the same ``request_id``. The reader of stdin hands those answers to :meth:`resolve`.
"""

from __future__ import annotations

import json
import secrets
import sys
from collections.abc import Callable
from typing import Any, TextIO

import anyio


class ControlError(Exception):
    """The SDK answered a control request with an error, or can no longer answer."""


def dumps(obj: dict[str, Any]) -> str:
    """One compact JSON line."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


class ControlChannel:
    """Writes lines to the SDK and pairs the control requests it sends with their answers."""

    def __init__(self, out: TextIO | None = None, *, on_line: Callable[[str], None] | None = None):
        self._out = out if out is not None else sys.stdout
        self._on_line = on_line
        self._pending: dict[str, tuple[anyio.Event, list[dict[str, Any]]]] = {}
        self._count = 0
        self.closed = False
        """Stdin ended: nobody will answer any more requests."""

    def send(self, obj: dict[str, Any]) -> None:
        """Write one message as a line, at once."""
        line = dumps(obj)
        self._out.write(line + "\n")
        self._out.flush()
        if self._on_line is not None:
            self._on_line(line)

    def respond(self, request_id: str, response: dict[str, Any] | None = None) -> None:
        """Answer one of the SDK's control requests with success."""
        self.send(
            {
                "type": "control_response",
                "response": {
                    "subtype": "success",
                    "request_id": request_id,
                    "response": response or {},
                },
            }
        )

    def respond_error(self, request_id: str, error: str) -> None:
        """Answer one of the SDK's control requests with an error the caller can read."""
        self.send(
            {
                "type": "control_response",
                "response": {"subtype": "error", "request_id": request_id, "error": error},
            }
        )

    async def request(
        self, subtype: str, fields: dict[str, Any], *, timeout_s: float | None = None
    ) -> dict[str, Any]:
        """Send a control request and wait for its answer (the ``response`` object).

        Raises :class:`ControlError` for an error answer, a closed stdin, or no answer
        within ``timeout_s`` (then the SDK is told to drop the request).
        """
        if self.closed:
            raise ControlError(f"the SDK's input is closed; it cannot answer {subtype}")
        self._count += 1
        request_id = f"req_{self._count}_{secrets.token_hex(4)}"
        done = anyio.Event()
        answer: list[dict[str, Any]] = []
        self._pending[request_id] = (done, answer)
        self.send(
            {
                "type": "control_request",
                "request_id": request_id,
                "request": {"subtype": subtype, **fields},
            }
        )
        try:
            with anyio.fail_after(timeout_s):
                await done.wait()
        except TimeoutError:
            self.send({"type": "control_cancel_request", "request_id": request_id})
            raise ControlError(f"the SDK did not answer {subtype} within {timeout_s:g} s") from None
        except BaseException:
            if not self.closed:  # cancelled here (an interrupt): the SDK may drop it too
                self.send({"type": "control_cancel_request", "request_id": request_id})
            raise
        finally:
            self._pending.pop(request_id, None)
        if not answer:
            raise ControlError(f"the SDK's input closed before it answered {subtype}")
        response = answer[0]
        if response.get("subtype") == "error":
            raise ControlError(str(response.get("error") or f"{subtype} failed in the SDK"))
        inner = response.get("response")
        return dict(inner) if isinstance(inner, dict) else {}  # type: ignore[arg-type]

    def resolve(self, message: dict[str, Any]) -> None:
        """Hand a ``control_response`` line to the request waiting for it (others: ignored)."""
        response = message.get("response")
        if not isinstance(response, dict):
            return
        body: dict[str, Any] = response  # type: ignore[assignment]
        pending = self._pending.get(str(body.get("request_id")))
        if pending is not None:
            done, answer = pending
            answer.append(body)
            done.set()

    def close(self) -> None:
        """Stdin ended: every waiting request fails, and later ones fail at once."""
        self.closed = True
        for done, _ in self._pending.values():
            done.set()
