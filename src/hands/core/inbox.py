"""Notices waiting for an agent: work it started in the background, finished since.

Background work (a sub-agent, a shell command) that ends leaves a notice for the agent
that started it; the loop delivers waiting notices with its next request, and when the
model is done while such work is still running, it waits for the next notice instead of
ending the run. :func:`task_notice` is the one shape every such notice has.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import anyio

_NOTICE = re.compile(r"<task-notification>\n(.*?)\n</task-notification>", re.DOTALL)
_FIELD = re.compile(r"^<([a-z-]+)>(.*?)</\1>$", re.DOTALL | re.MULTILINE)


@dataclass(kw_only=True, slots=True)
class _Box:
    notices: list[str] = field(default_factory=lambda: list[str]())
    running: int = 0
    arrived: anyio.Event = field(default_factory=anyio.Event)


class Inbox:
    """Per-session notices, kept per agent (``None``: the main agent). A session service."""

    def __init__(self) -> None:
        self._boxes: dict[str | None, _Box] = {}

    def _box(self, agent_id: str | None) -> _Box:
        box = self._boxes.get(agent_id)
        if box is None:
            box = self._boxes[agent_id] = _Box()
        return box

    def started(self, agent_id: str | None) -> None:
        """Work the agent will hear about began."""
        self._box(agent_id).running += 1

    def finished(self, agent_id: str | None, notice: str | None) -> None:
        """That work ended: ``notice`` waits for the agent.

        ``None``: nothing to say, as when the agent stopped the work itself.
        """
        box = self._box(agent_id)
        box.running = max(0, box.running - 1)
        if notice is not None:
            box.notices.append(notice)
        box.arrived.set()

    def deliver(self, agent_id: str | None, text: str) -> None:
        """A message for the agent (SendMessage): it reads it before its next request."""
        box = self._box(agent_id)
        box.notices.append(text)
        box.arrived.set()

    def take(self, agent_id: str | None) -> list[str]:
        """The waiting notices, forgotten once taken.

        A wake-up with nothing to say (work stopped on purpose) is spent here too, so the
        next :meth:`wait` waits again.
        """
        box = self._boxes.get(agent_id)
        if box is None:
            return []
        out, box.notices = box.notices, []
        if box.arrived.is_set():  # an unset one may have waiters: it stays
            box.arrived = anyio.Event()
        return out

    def outstanding(self, agent_id: str | None) -> bool:
        """Whether work the agent will hear about is still running."""
        box = self._boxes.get(agent_id)
        return box is not None and box.running > 0

    async def wait(self, agent_id: str | None) -> None:
        """Until a notice is waiting (at once if one is)."""
        box = self._box(agent_id)
        if not box.notices:
            await box.arrived.wait()

    def peek(self, agent_id: str | None) -> tuple[str, ...]:
        """The waiting notices, left waiting."""
        box = self._boxes.get(agent_id)
        return () if box is None else tuple(box.notices)


def task_notice(
    *,
    task_id: str,
    status: str,
    summary: str,
    output_file: str,
    tool_use_id: str = "",
    result: str | None = None,
    hint: str | None = None,
) -> str:
    """A ``<task-notification>`` block: one tag per fact, so a model can pick them out."""
    lines = ["<task-notification>", f"<task-id>{task_id}</task-id>"]
    if tool_use_id:
        lines.append(f"<tool-use-id>{tool_use_id}</tool-use-id>")
    lines += [f"<status>{status}</status>", f"<summary>{summary}</summary>"]
    if result is not None:
        lines.append(f"<result>\n{result}\n</result>")
    if hint:
        lines.append(f"<hint>{hint}</hint>")
    lines += [f"<output-file>{output_file}</output-file>", "</task-notification>"]
    return "\n".join(lines)


def notice_fields(text: str) -> list[dict[str, str]]:
    """The one-line facts of each :func:`task_notice` in ``text``.

    ``task-id`` becomes ``task_id``; the multi-line result is left out.
    """
    return [
        {name.replace("-", "_"): value for name, value in _FIELD.findall(body) if name != "result"}
        for body in _NOTICE.findall(text)
    ]
