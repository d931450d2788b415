"""Which tools are deferred behind ToolSearch, and the pool the model sees when they are.

A deferrable tool (every MCP tool unless ``alwaysLoad``; built-ins that set
``should_defer``) is sent to the model only as a name with a short hint, listed in a
system reminder, until ToolSearch returns it. ``HANDS_TOOL_SEARCH`` decides when:

- ``auto`` (default): defer once the deferrable tools' schemas would take more than 10%
  of the model's context window, estimated locally (JSON characters / 4);
- ``auto:N``: the same at N percent;
- ``true`` / ``false``: always / never.

A blanket deny rule on ``ToolSearch`` turns deferral off.

:class:`DeferringSource` wraps any :class:`hands.agent.loop.ToolSource` (or pool, or list of
tools). Its pool holds the tools that are always loaded plus ToolSearch, sorted by name,
then the tools found so far in the order they were found: the sorted part never changes,
so the prompt cache over it survives a search. A deferred tool can still be called by
name (a model that guesses right): the call runs, and the tool joins the list.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from hands.core.tool import Tool, ToolSpec
from hands.models.catalog import DEFAULT_WINDOW
from hands.pipeline.pool import ToolPool

if TYPE_CHECKING:
    from hands.core.decision import PermissionPolicy
    from hands.core.messages import Message
    from hands.models.facts import ModelFacts

CHARS_PER_TOKEN = 4
DEFAULT_PERCENT = 10
DEFAULT_CONTEXT_WINDOW = DEFAULT_WINDOW
TOOL_SEARCH_NAME = "ToolSearch"
REMINDER_BUDGET_CHARS = 8_000
HINT_CHARS = 80
REMINDER_TAG = "<system-reminder>"
REMINDER_HEAD = (
    "More tools can be loaded on demand; only their names are here so far. Call "
    "ToolSearch (with keywords, or select:Name1,Name2) to load the ones you need; they "
    "can be called from your next message on. A task that needs several tools (find a "
    "file, then email it) takes one search per need, each in a few words of its own."
)


@dataclass(frozen=True, kw_only=True, slots=True)
class DeferralMode:
    """The parsed ``HANDS_TOOL_SEARCH`` value."""

    kind: Literal["auto", "on", "off"] = "auto"
    percent: float = DEFAULT_PERCENT

    @classmethod
    def parse(cls, value: str | None) -> DeferralMode:
        """``auto``, ``auto:N``, ``true``/``1``/``on``, ``false``/``0``/``off``; else auto."""
        text = (value or "").strip().lower()
        if text in ("true", "1", "on", "yes", "always"):
            return cls(kind="on")
        if text in ("false", "0", "off", "no", "never"):
            return cls(kind="off")
        if text.startswith("auto:"):
            try:
                percent = float(text[5:].strip().rstrip("%"))
            except ValueError:
                return cls()
            return cls(kind="auto", percent=min(max(percent, 0.0), 100.0))
        return cls()

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> DeferralMode:
        """The mode ``HANDS_TOOL_SEARCH`` (or Claude Code's ``ENABLE_TOOL_SEARCH``) asks for."""
        from hands.core.env import text

        return cls.parse(text("HANDS_TOOL_SEARCH", env))


def is_deferrable(tool: Tool[Any, Any]) -> bool:
    """Whether ``tool`` may be deferred: flagged so and not always loaded (core tools are)."""
    return tool.should_defer and not tool.always_load


def spec_chars(tool: Tool[Any, Any]) -> int:
    """Characters of the tool's API definition (JSON)."""
    return len(json.dumps(tool.spec().to_wire(), ensure_ascii=False, default=str))


def schema_tokens(tools: Iterable[Tool[Any, Any]]) -> int:
    """Estimated tokens of the tools' definitions (characters / 4)."""
    return sum(spec_chars(t) for t in tools) // CHARS_PER_TOKEN


def should_defer(
    tools: Iterable[Tool[Any, Any]],
    *,
    mode: DeferralMode,
    window: int = DEFAULT_CONTEXT_WINDOW,
    tool_search_denied: bool = False,
) -> bool:
    """Whether the deferrable ones among ``tools`` should be deferred now."""
    if tool_search_denied or mode.kind == "off":
        return False
    deferrable = [t for t in tools if is_deferrable(t)]
    if not deferrable:
        return False
    if mode.kind == "on":
        return True
    return schema_tokens(deferrable) > window * mode.percent / 100


# -- the reminder -----------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True, slots=True)
class DeferredEntry:
    """One line of the reminder: a deferred tool's name and a hint."""

    name: str
    hint: str = ""


def short_hint(text: str, limit: int = HINT_CHARS) -> str:
    """The first sentence (or line) of ``text``, at most ``limit`` characters."""
    line = " ".join(text.strip().split("\n", 1)[0].split())
    for stop in (". ", "; "):
        cut = line.find(stop)
        if 0 < cut:
            line = line[:cut]
    line = line.rstrip(".")
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def entry_for(tool: Tool[Any, Any]) -> DeferredEntry:
    """The reminder line for ``tool``: its search hint, else its description's start."""
    return DeferredEntry(name=tool.name, hint=tool.search_hint or tool.description)


def reminder_text(entries: Sequence[DeferredEntry], budget: int = REMINDER_BUDGET_CHARS) -> str:
    """The system reminder listing ``entries``, within ``budget`` characters.

    Each line is ``name: hint``; when that does not fit, hints are dropped (names only),
    and when even the names do not fit, the list ends with how many were left out.
    """
    head = f"{REMINDER_TAG}\n{REMINDER_HEAD}\n"
    tail = "</system-reminder>"
    ordered = sorted(entries, key=lambda e: e.name)
    with_hints = [f"{e.name}: {short_hint(e.hint)}" if e.hint.strip() else e.name for e in ordered]
    room = budget - len(head) - len(tail)
    if sum(len(line) + 1 for line in with_hints) <= room:
        return head + "\n".join(with_hints) + "\n" + tail
    lines: list[str] = []
    used = 0
    for index, entry in enumerate(ordered):
        more = f"… and {len(ordered) - index} more (find them with ToolSearch)"
        if used + len(entry.name) + 1 + len(more) + 1 > room:
            lines.append(more)
            break
        lines.append(entry.name)
        used += len(entry.name) + 1
    return head + "\n".join(lines) + "\n" + tail


# -- the source -----------------------------------------------------------------------


@runtime_checkable
class _Source(Protocol):
    def current_pool(self) -> ToolPool: ...


@runtime_checkable
class Warmable(Protocol):
    """A source that can get tools ready ahead of a call (start their MCP server)."""

    def warm(self, names: Sequence[str]) -> None:
        """Start whatever ``names`` need, in the background."""
        ...


@runtime_checkable
class _Ready(Protocol):
    async def ready(self) -> None: ...


class DeferredPool(ToolPool):
    """The pool the model sees: loaded tools sorted, then found tools in found order.

    ``find`` also knows the deferred tools (a call by name works, and adds the tool to
    the found list) and falls back to the wrapped pool (MCP servers still connecting).
    """

    def __init__(
        self,
        loaded: Sequence[Tool[Any, Any]],
        found: Sequence[Tool[Any, Any]],
        *,
        hidden: Sequence[Tool[Any, Any]],
        inner: ToolPool,
        owner: DeferringSource,
    ) -> None:
        super().__init__(loaded, serves_unlisted=inner.serves_unlisted)
        self._loaded_count = len(self._tools)
        ordered = (*self._tools, *found)
        self._tools = ordered
        for tool in found:
            self._by_name.setdefault(tool.name, tool)
        self._hidden = {t.name: t for t in hidden}
        self._inner = inner
        self._owner = owner

    @property
    def names(self) -> tuple[str, ...]:
        """The names in request order (sorted loaded tools, then found ones)."""
        return tuple(t.name for t in self._tools)

    def specs(self) -> list[ToolSpec]:
        """Request order: loaded tools sorted, then found ones in the order found.

        With a provider that expands ``tool_reference`` items (Anthropic), every deferred
        tool is sent too, marked ``defer_loading`` and sorted after the loaded ones, and
        found tools stay there: the model sees a tool once a ToolSearch result references
        it, and the tool list, with its cache, never changes as tools are found.
        """
        if not self._owner.references:
            return super().specs()
        loaded = [t.spec() for t in self._tools[: self._loaded_count]]
        rest = sorted([*self._tools[self._loaded_count :], *self._hidden.values()], key=_name)
        return loaded + [dataclasses.replace(t.spec(), defer_loading=True) for t in rest]

    def find(self, name: str) -> Tool[Any, Any] | None:
        found = super().find(name)
        if found is not None:
            return found
        hidden = self._hidden.get(name)
        if hidden is not None:
            self._owner.mark_found([hidden.name])
            return hidden
        return self._inner.find(name)

    def __contains__(self, name: object) -> bool:
        return super().__contains__(name) or name in self._hidden

    def __iter__(self) -> Iterator[Tool[Any, Any]]:
        return iter(self._tools)


class DeferringSource:
    """A :class:`hands.agent.loop.ToolSource` that defers tools behind ToolSearch.

    ``inner`` is the source (or pool, or tools) to wrap. ``mode`` defaults to
    ``HANDS_TOOL_SEARCH``; ``facts`` are the session model's (``model.facts``): its
    window sets the threshold unless ``window`` (the session's window, with its
    overrides) is given, and a provider that expands ``tool_reference`` items gets
    ToolSearch results carrying them; ``policy`` (if given) turns deferral off when it
    denies ToolSearch outright.
    """

    def __init__(
        self,
        inner: _Source | ToolPool | Sequence[Tool[Any, Any]],
        *,
        mode: DeferralMode | str | None = None,
        window: int | None = None,
        policy: PermissionPolicy | None = None,
        env: Mapping[str, str] | None = None,
        facts: ModelFacts | None = None,
        reminder_budget: int = REMINDER_BUDGET_CHARS,
    ) -> None:
        if isinstance(inner, ToolPool):
            self._static: ToolPool | None = inner
            self._inner: _Source | None = None
        elif isinstance(inner, _Source):
            self._static = None
            self._inner = inner
        else:
            self._static = ToolPool(inner)
            self._inner = None
        if isinstance(mode, DeferralMode):
            self.mode = mode
        else:
            self.mode = DeferralMode.parse(mode) if mode is not None else DeferralMode.from_env(env)
        own = facts.context_window if facts is not None else DEFAULT_CONTEXT_WINDOW
        self.window = window if window is not None else own
        self.policy = policy
        self.facts = facts
        self.references = facts is not None and facts.capabilities.tool_references
        """The provider expands ``tool_reference`` items (deferred tools sent flagged)."""
        self.reminder_budget = reminder_budget
        self._found: list[str] = []
        self._key: tuple[object, ...] | None = None
        self._pool: ToolPool | None = None
        self._active = False
        self._deferred: tuple[Tool[Any, Any], ...] = ()
        self._search_tool: Tool[Any, Any] | None = None

    # -- what the loop asks ----------------------------------------------------------

    def inner_pool(self) -> ToolPool:
        """The wrapped pool, everything in it."""
        if self._inner is not None:
            return self._inner.current_pool()
        assert self._static is not None
        return self._static

    def current_pool(self) -> ToolPool:
        """The pool for the next model request (the same object while nothing changed)."""
        inner = self.inner_pool()
        key = (id(inner), tuple(self._found))
        if self._pool is not None and key == self._key:
            return self._pool
        self._key = key
        self._pool = self._build(inner)
        return self._pool

    @property
    def active(self) -> bool:
        """Whether tools are being deferred (as of the last :meth:`current_pool`)."""
        self.current_pool()
        return self._active

    @property
    def found(self) -> tuple[str, ...]:
        """Names of the deferred tools found so far, in the order they were found."""
        return tuple(self._found)

    def deferred_tools(self) -> tuple[Tool[Any, Any], ...]:
        """Every deferrable tool of the pool (found ones included) while deferring."""
        self.current_pool()
        return self._deferred

    def pending_tools(self) -> tuple[Tool[Any, Any], ...]:
        """Deferred tools not found yet: the ones the reminder lists."""
        found = set(self._found)
        return tuple(t for t in self.deferred_tools() if t.name not in found)

    def mark_found(self, names: Iterable[str]) -> list[str]:
        """Add ``names`` (deferred tools) to the found list; returns the new ones."""
        known = {t.name for t in self.deferred_tools()}
        added = [n for n in dict.fromkeys(names) if n in known and n not in self._found]
        if added:
            self._found.extend(added)
            warm = self._inner
            if isinstance(warm, Warmable):
                warm.warm(added)
        return added

    def waiting_servers(self) -> list[str]:
        """Names of MCP servers still connecting (their tools may appear later)."""
        manager = getattr(self._inner, "manager", None)
        if manager is None:
            return []
        out: list[str] = []
        for status in manager.status():
            if status.state in ("pending", "reconnecting") and not _is_idle(manager, status.name):
                out.append(status.name)
        return out

    def reminder(self) -> str | None:
        """The reminder text listing the deferred tools not found yet, or None."""
        if not self.active:
            return None
        pending = self.pending_tools()
        if not pending:
            return None
        return reminder_text([entry_for(t) for t in pending], self.reminder_budget)

    def reminder_message(self, messages: Sequence[Message]) -> Message | None:
        """The reminder as a message for the next request (see :func:`reminder_message`)."""
        return reminder_message(self, messages)

    # -- building -------------------------------------------------------------------

    def _denied(self) -> bool:
        return self.policy is not None and self.policy.denies_tool(TOOL_SEARCH_NAME)

    def _build(self, inner: ToolPool) -> ToolPool:
        tools = list(inner)
        self._active = should_defer(
            tools, mode=self.mode, window=self.window, tool_search_denied=self._denied()
        )
        if not self._active:
            self._deferred = ()
            return inner
        deferred = [t for t in tools if is_deferrable(t)]
        self._deferred = tuple(deferred)
        by_name = {t.name: t for t in deferred}
        loaded = [t for t in tools if not is_deferrable(t) and t.name != TOOL_SEARCH_NAME]
        loaded.append(self.search_tool())
        found = [by_name[n] for n in self._found if n in by_name]
        hidden = [t for t in deferred if t.name not in set(self._found)]
        return DeferredPool(loaded, found, hidden=hidden, inner=inner, owner=self)

    def search_tool(self) -> Tool[Any, Any]:
        """The ToolSearch tool bound to this source."""
        if self._search_tool is None:
            from hands.discovery.tool_search import ToolSearchTool

            self._search_tool = ToolSearchTool(self)
        return self._search_tool

    async def ready(self) -> None:
        """Wait for what the wrapped source needs before the first request, if anything."""
        inner = self._inner
        if isinstance(inner, _Ready):
            await inner.ready()

    def warm(self, names: Sequence[str]) -> None:
        """Pass-through so a DeferringSource can itself be wrapped."""
        if isinstance(self._inner, Warmable):
            self._inner.warm(names)


def _name(tool: Tool[Any, Any]) -> str:
    return tool.name


def _is_idle(manager: Any, name: str) -> bool:
    """A lazily started MCP server that was never asked to start is not 'connecting'."""
    conn = getattr(manager, "connections", {}).get(name)
    return bool(conn is not None and getattr(conn, "idle", False))


def reminder_message(source: object, messages: Sequence[Message] = ()) -> Message | None:
    """A user message with the deferred-tools reminder, when it has something new to say.

    Returns None when ``source`` does not defer, nothing is deferred, or the same
    reminder is already the last one in ``messages``.
    """
    from hands.core.messages import TextBlock, user_text

    if not isinstance(source, DeferringSource):
        return None
    text = source.reminder()
    if text is None:
        return None
    for message in reversed(messages):
        if message.role != "user":
            continue
        for block in message.content:
            if isinstance(block, TextBlock) and block.text.startswith(REMINDER_TAG):
                if REMINDER_HEAD in block.text:
                    return None if block.text == text else user_text(text)
    return user_text(text)
