"""``hook_callback``: the SDK program's Python or TypeScript hooks, run at hands' events.

``initialize`` names, per event, matchers with callback ids. Each becomes a hook of
hands' engine that sends ``hook_callback`` with the same input a command hook reads on
stdin; the answer is a command hook's JSON output and is applied the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from hands.cli.sdk.channel import ControlChannel
from hands.hooks.callbacks import HookCallbacks


def sdk_hooks(
    config: Mapping[str, Any], channel: ControlChannel
) -> tuple[HookCallbacks, list[str]]:
    """The callbacks for ``initialize``'s ``hooks``, and a note per entry not used."""
    callbacks = HookCallbacks()
    notes: list[str] = []
    for event, matchers in config.items():
        if not isinstance(matchers, list):
            notes.append(f"hooks.{event} is not a list of matchers")
            continue
        for raw in cast(list[object], matchers):
            if not isinstance(raw, dict):
                notes.append(f"a matcher of hooks.{event} is not an object")
                continue
            entry = cast(dict[str, Any], raw)
            matcher = entry.get("matcher")
            timeout = entry.get("timeout")
            ids = entry.get("hookCallbackIds")
            for callback_id in cast(list[object], ids) if isinstance(ids, list) else []:
                try:
                    callbacks.add(
                        event,
                        _forward(channel, str(callback_id)),
                        matcher=matcher if isinstance(matcher, str) else None,
                        timeout=float(timeout)
                        if isinstance(timeout, int | float) and timeout > 0
                        else None,
                    )
                except ValueError as exc:
                    notes.append(f"hook {callback_id} for {event}: {exc}")
    return callbacks, notes


def _forward(channel: ControlChannel, callback_id: str) -> Any:
    async def call(data: dict[str, Any], tool_use_id: str | None, context: object) -> object:
        fields: dict[str, Any] = {"callback_id": callback_id, "input": data}
        if tool_use_id is not None:
            fields["tool_use_id"] = tool_use_id
        return await channel.request("hook_callback", fields)

    return call
