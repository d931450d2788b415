"""Every ``HANDS_*`` environment variable hands reads: its type, default and meaning.

One list (:data:`VARIABLES`) and typed readers over it: :func:`switch`, :func:`count`,
:func:`number`, :func:`text` and :func:`given` read a listed variable (or the Claude Code
name it stands for), and a value that cannot be used is an :class:`EnvError` naming the
variable and what it takes. :func:`problems` checks them all at once (the CLI does at
start), and :func:`table` is the list as the Markdown table in ``docs/environment.md``.
Every ``HANDS_*`` read in hands goes through these (a test scans the source for others).
Nothing is read at import.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal, TypeAlias, TypeVar

from hands.errors import ConfigError

Kind: TypeAlias = Literal["switch", "count", "whole", "number", "amount", "text"]

_WANTED: Mapping[Kind, str] = {
    "switch": "1 or 0 (true/false, yes/no, on/off)",
    "count": "a whole number above 0",
    "whole": "a whole number, 0 or more",
    "number": "a number above 0",
    "amount": "a number, 0 or more",
    "text": "text",
}
_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


class EnvError(ConfigError):
    """An environment variable holds a value hands cannot use."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Variable:
    """One variable hands reads."""

    name: str
    kind: Kind
    default: str
    """The value used when it is unset, as it would be written; empty: none (off, or
    decided another way, as ``doc`` says)."""
    doc: str
    also: tuple[str, ...] = ()
    """Claude Code's names for the same setting, read when this one is unset."""
    pattern: str = ""
    """For text: a regular expression the whole value must match (any case); empty: any."""
    takes: str = ""
    """For text with a pattern: what it takes, in words."""

    @property
    def wanted(self) -> str:
        """What a value must be, in words."""
        return self.takes or _WANTED[self.kind]


def _v(
    name: str, kind: Kind, default: str, doc: str, *also: str, pattern: str = "", takes: str = ""
) -> Variable:
    return Variable(
        name=name, kind=kind, default=default, doc=doc, also=also, pattern=pattern, takes=takes
    )


VARIABLES: tuple[Variable, ...] = (
    _v(
        "HANDS_AUTOCOMPACT_PCT",
        "number",
        "",
        "Compact at this percent of the window; unset: settings' autoCompactPercent, else 92.",
        "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE",
    ),
    _v("HANDS_BRAVE_URL", "text", "", "The Brave Search endpoint WebSearch calls (a test server)."),
    _v(
        "HANDS_BROWSER",
        "switch",
        "",
        "Offer the browser tools (1) or not (0); unset: when Playwright and Chromium are found.",
    ),
    _v(
        "HANDS_BROWSER_ACTION_TIMEOUT_MS",
        "count",
        "5000",
        "How long a click, a fill or a wait may take, in milliseconds.",
    ),
    _v(
        "HANDS_BROWSER_DIALOGS",
        "text",
        "dismiss",
        "How alert, confirm and prompt dialogs are answered: accept or dismiss.",
        pattern=r"accept|dismiss",
        takes="accept or dismiss",
    ),
    _v(
        "HANDS_BROWSER_EXECUTABLE",
        "text",
        "",
        "The Chromium or Chrome binary; unset: the first found on PATH.",
    ),
    _v("HANDS_BROWSER_HEADED", "switch", "0", "Show the browser window (needs a display)."),
    _v(
        "HANDS_BROWSER_HEADLESS",
        "switch",
        "1",
        "Run the browser without a window; 0 shows it (needs a display).",
    ),
    _v(
        "HANDS_BROWSER_NAVIGATION_TIMEOUT_MS",
        "count",
        "20000",
        "How long a navigation may take, in milliseconds.",
    ),
    _v(
        "HANDS_BROWSER_SNAPSHOT_CHARS",
        "count",
        "40000",
        "A page snapshot is cut at this many characters.",
    ),
    _v(
        "HANDS_BROWSER_SNAPSHOT_ELEMENTS",
        "count",
        "10000",
        "A page snapshot is cut at this many elements.",
    ),
    _v(
        "HANDS_CASCADE_BASH_ERRORS",
        "switch",
        "1",
        "A failing Bash call cancels its running siblings; 0 turns it off.",
    ),
    _v(
        "HANDS_CONTEXT_WINDOW",
        "count",
        "",
        "The context window in tokens, for compaction and tool deferral; unset: the model's.",
        "CLAUDE_CODE_AUTO_COMPACT_WINDOW",
    ),
    _v(
        "HANDS_DISABLE_AUTO_COMPACT",
        "switch",
        "0",
        "Never compact the conversation on its own.",
        "DISABLE_AUTO_COMPACT",
    ),
    _v(
        "HANDS_ENABLE_TASKS",
        "switch",
        "1",
        "Offer the Task tools; 0 offers TodoWrite instead.",
        "CLAUDE_CODE_ENABLE_TASKS",
    ),
    _v(
        "HANDS_ENV_FILE",
        "text",
        "",
        "A file of exports the shell tools source before each command (set for hooks).",
        "CLAUDE_ENV_FILE",
    ),
    _v("HANDS_GLOB_RESPECT_GITIGNORE", "switch", "0", "Glob leaves out what .gitignore ignores."),
    _v(
        "HANDS_GLOB_TIMEOUT_SECONDS",
        "number",
        "20",
        "How long one Glob may run, in seconds.",
        "CLAUDE_CODE_GLOB_TIMEOUT_SECONDS",
    ),
    _v("HANDS_GREP_TIMEOUT_SECONDS", "number", "20", "How long one Grep may run, in seconds."),
    _v(
        "HANDS_HOME",
        "text",
        "~/.hands",
        "Where hands keeps sessions, transcripts, the task list and its settings.",
    ),
    _v(
        "HANDS_MANAGED_SETTINGS",
        "text",
        "",
        "The managed (policy) settings file; unset: the system's place; set empty: none.",
    ),
    _v(
        "HANDS_MAX_CONCURRENT_SUBAGENTS",
        "count",
        "20",
        "Sub-agents running at once in one session.",
    ),
    _v("HANDS_MAX_SUBAGENT_DEPTH", "count", "3", "How deep sub-agents may nest."),
    _v(
        "HANDS_MAX_TOOL_CONCURRENCY",
        "count",
        "10",
        "Concurrency-safe calls of one batch run at most this many at a time.",
    ),
    _v(
        "HANDS_MAX_WEB_SEARCHES_PER_SESSION",
        "whole",
        "200",
        "WebSearch calls allowed in one session; 0: none.",
        "CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION",
    ),
    _v(
        "HANDS_MCP_SERVE_EARLY",
        "switch",
        "1",
        "hands mcp serve answers a host's initialize and tools/list before the MCP SDK loads, "
        "from the answers a start with the same inputs kept (0: the SDK answers everything).",
    ),
    _v(
        "HANDS_MODEL",
        "text",
        "",
        "The model, when --model and the settings name none (an alias, an id or PROVIDER:NAME).",
    ),
    _v(
        "HANDS_SANDBOX",
        "switch",
        "0",
        "Say that hands runs inside a sandbox, so running as root may use bypassPermissions.",
        "IS_SANDBOX",
    ),
    _v(
        "HANDS_SHELL_SNAPSHOT",
        "switch",
        "1",
        "Shell commands start from a snapshot of the user's shell setup; 0: a plain shell.",
    ),
    _v("HANDS_SIMPLE", "switch", "0", "Offer only Bash, Read and Edit."),
    _v(
        "HANDS_SKILL_CHAR_BUDGET",
        "count",
        "",
        "Characters of the skill listing; unset: 1% of the window (8000 if unknown).",
        "SLASH_COMMAND_TOOL_CHAR_BUDGET",
    ),
    _v(
        "HANDS_SMALL_MODEL",
        "text",
        "",
        "The model WebFetch uses to answer from a page; unset: the provider's small model.",
    ),
    _v(
        "HANDS_TASK_LIST_ID",
        "text",
        "",
        "The task list a session uses; unset: its project's.",
        "CLAUDE_CODE_TASK_LIST_ID",
    ),
    _v("HANDS_TAVILY_URL", "text", "", "The Tavily endpoint WebSearch calls (a test server)."),
    _v(
        "HANDS_TOOL_SEARCH",
        "text",
        "auto",
        "Defer tool schemas behind ToolSearch: auto, auto:N (percent), true or false.",
        "ENABLE_TOOL_SEARCH",
        pattern=r"auto(:\s*[0-9]+(\.[0-9]*)?%?)?|true|false|1|0|on|off|yes|no|always|never",
        takes="auto, auto:N (a percent), true or false",
    ),
    _v(
        "HANDS_TOOL_TIMEOUT_MS",
        "count",
        "600000",
        "The time limit of a tool call that sets none of its own, in milliseconds.",
    ),
    _v(
        "HANDS_WAKEUP_MIN_SECONDS",
        "amount",
        "60",
        "The shortest delay ScheduleWakeup accepts, in seconds.",
    ),
    _v(
        "HANDS_WEBFETCH_CACHE_TTL_MS",
        "whole",
        "900000",
        "How long WebFetch keeps a fetched page, in milliseconds; 0: not at all.",
        "CLAUDE_CODE_WEBFETCH_CACHE_TTL_MS",
    ),
    _v(
        "HANDS_WEBSEARCH_BACKEND",
        "text",
        "",
        "WebSearch's backend: anthropic, brave, tavily, searxng or ddgs; unset: from the keys set.",
    ),
)

_BY_NAME = {v.name: v for v in VARIABLES}


def variable(name: str) -> Variable:
    """The listed variable ``name``; a name not listed is a programming error."""
    found = _BY_NAME.get(name)
    if found is None:
        raise KeyError(f"{name} is not listed in hands.core.env.VARIABLES")
    return found


def _raw(var: Variable, env: Mapping[str, str] | None) -> tuple[str, str]:
    """The name read and its value (stripped); the default when none of the names is set."""
    env = os.environ if env is None else env
    for name in (var.name, *var.also):
        value = env.get(name, "").strip()
        if value:
            return name, value
    return var.name, var.default


def _bad(var: Variable, name: str, value: str) -> EnvError:
    return EnvError(f"{name}={value!r} is not {var.wanted}. Unset it or set {var.wanted}.")


def switch(name: str, env: Mapping[str, str] | None = None) -> bool | None:
    """A yes/no variable; None when neither it nor its default says."""
    var = variable(name)
    read, value = _raw(var, env)
    if not value:
        return None
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise _bad(var, read, value)


N = TypeVar("N", int, float)


def _parsed(
    name: str, env: Mapping[str, str] | None, parse: Callable[[str], N], ok: Callable[[N], bool]
) -> N | None:
    """The variable parsed by ``parse`` and accepted by ``ok``; None when unset, no default."""
    var = variable(name)
    read, value = _raw(var, env)
    if not value:
        return None
    try:
        parsed = parse(value)
    except ValueError:
        raise _bad(var, read, value) from None
    if not ok(parsed):
        raise _bad(var, read, value)
    return parsed


def count(name: str, env: Mapping[str, str] | None = None) -> int | None:
    """A whole number above 0; None when unset with no default."""
    return _parsed(name, env, int, lambda n: n > 0)


def whole(name: str, env: Mapping[str, str] | None = None) -> int | None:
    """A whole number, 0 or more; None when unset with no default."""
    return _parsed(name, env, int, lambda n: n >= 0)


def number(name: str, env: Mapping[str, str] | None = None) -> float | None:
    """A number above 0 (and finite); None when unset with no default."""
    return _parsed(name, env, float, lambda n: 0 < n < float("inf"))


def amount(name: str, env: Mapping[str, str] | None = None) -> float | None:
    """A number, 0 or more (and finite); None when unset with no default."""
    return _parsed(name, env, float, lambda n: 0 <= n < float("inf"))


def text(name: str, env: Mapping[str, str] | None = None) -> str | None:
    """The value as set (stripped), else the default; None when both are empty."""
    var = variable(name)
    read, value = _raw(var, env)
    if value and var.pattern and re.fullmatch(var.pattern, value, re.IGNORECASE) is None:
        raise _bad(var, read, value)
    return value or None


def given(name: str, env: Mapping[str, str] | None = None) -> str | None:
    """The value as set (stripped), even empty; None when none of its names is set.

    For a variable whose being set at all says something: ``HANDS_MANAGED_SETTINGS=``
    (empty) means no managed settings, and an unset ``HANDS_HOME`` is found from the
    ``HOME`` of the mapping read, not this process's.
    """
    var = variable(name)
    env = os.environ if env is None else env
    for read in (var.name, *var.also):
        value = env.get(read)
        if value is not None:
            value = value.strip()
            if value and var.pattern and re.fullmatch(var.pattern, value, re.IGNORECASE) is None:
                raise _bad(var, read, value)
            return value
    return None


def source(name: str, env: Mapping[str, str] | None = None) -> str:
    """The name whose value is read: the first of the variable's names set, else its own."""
    return _raw(variable(name), env)[0]


_READERS = {
    "switch": switch,
    "count": count,
    "whole": whole,
    "number": number,
    "amount": amount,
    "text": text,
}


def problems(env: Mapping[str, str] | None = None) -> list[EnvError]:
    """One error per listed variable set to a value hands cannot use."""
    out: list[EnvError] = []
    for var in VARIABLES:
        try:
            _READERS[var.kind](var.name, env)
        except EnvError as exc:
            out.append(exc)
    return out


def table() -> str:
    """The variables as a Markdown table: name, type, default, meaning."""
    rows = ["| variable | takes | default | what it does |", "|---|---|---|---|"]
    for var in VARIABLES:
        also = f" (or {', '.join(f'`{a}`' for a in var.also)})" if var.also else ""
        default = f"`{var.default}`" if var.default else "—"
        rows.append(f"| `{var.name}`{also} | {var.wanted} | {default} | {var.doc} |")
    return "\n".join(rows) + "\n"


__all__ = [
    "VARIABLES",
    "EnvError",
    "Variable",
    "amount",
    "count",
    "given",
    "number",
    "problems",
    "source",
    "switch",
    "table",
    "text",
    "variable",
    "whole",
]
