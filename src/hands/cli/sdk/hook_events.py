"""``--include-hook-events``: a ``hook_started`` and a ``hook_response`` line per hook run."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from typing import Any

from hands.hooks.config import HookHandler
from hands.hooks.output import HookRun


def hook_reporter(
    send: Callable[[dict[str, Any]], None], *, session_id: str
) -> Callable[[str, HookHandler, HookRun | None], None]:
    """The ``on_run`` observer that writes the two lines of each hook run."""
    open_ids: dict[tuple[int, str], list[str]] = {}

    def report(event: str, handler: HookHandler, run: HookRun | None) -> None:
        key = (id(handler), event)
        base = {
            "type": "system",
            "hook_name": f"{event}:{handler.label}",
            "hook_event": event,
            "session_id": session_id,
            "uuid": str(uuid.uuid4()),
        }
        if run is None:
            hook_id = str(uuid.uuid4())
            open_ids.setdefault(key, []).append(hook_id)
            send({**base, "subtype": "hook_started", "hook_id": hook_id})
            return
        ids = open_ids.get(key) or [str(uuid.uuid4())]
        hook_id = ids.pop(0)
        output = json.dumps(dict(run.data)) if run.data is not None else run.stdout
        failed = bool(run.failure) or run.exit_code != 0
        send(
            {
                **base,
                "subtype": "hook_response",
                "hook_id": hook_id,
                "output": output,
                "stdout": run.stdout,
                "stderr": run.stderr or run.failure,
                "exit_code": run.exit_code,
                "outcome": "error" if failed else "success",
            }
        )

    return report
