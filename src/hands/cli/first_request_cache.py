"""The tool list of a ``hands -p`` session's first model request, kept for the next one.

:mod:`hands.cli.first_request` sends the first request from a kept entry while the tools
are still being built. An entry is found by a key over everything the request's tool
definitions, and the messages sent beside the prompt (the deferred tools' reminder), can
depend on:

- hands' own modules (each file's size and modification time) and Python's version;
- the merged settings, every source as read, and the session's one trust decision;
- the session's own choices: folder, model, permission mode, simple mode, ``--tools``,
  the command line's MCP servers;
- the environment variables hands, its tools and its MCP client read (``HANDS_*``,
  ``CLAUDE_*``, ``ANTHROPIC_*``, ``ENABLE_TOOL_SEARCH``, ``PATH`` and the like);
- the files agents, skills, commands, output styles, plugins, MCP configurations and the
  MCP servers' kept tool lists come from, in the folder, its parents and the user's homes
  (each file's content).

The key only decides whether an entry is worth sending: the session compares what it
sent with its real first request before it reads any of the answer. Entries live under
``<hands home>/first-request/``, one file per key, each written whole (a temporary file
renamed into place); one that is missing, unreadable or malformed is a miss.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from hands.cli.kept_file import KeptFile
from hands.core.tool import ToolSpec

if TYPE_CHECKING:
    from hands.config.settings import Settings

CACHE_VERSION = 1

CONTENT_LIMIT = 256 * 1024
"""An input file up to this size counts by its content, a larger one by size and time."""

ENV_PREFIXES = (
    "HANDS_",
    "CLAUDE_",
    "ANTHROPIC_",
    "ENABLE_",
    "DISABLE_",
    "MCP_",
    "BASH_",
    "USE_",
    "MAX_",
    "SLASH_",
    "BRAVE_",
    "TAVILY_",
    "SEARXNG_",
    "XDG_",
)
"""Environment variables whose names start so are part of the key."""

ENV_NAMES = frozenset(
    {
        "PATH",
        "HOME",
        "SHELL",
        "DISPLAY",
        "WAYLAND_DISPLAY",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "NO_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
        "no_proxy",
    }
)
"""Other environment variables that are part of the key."""

FOLDER_PARTS = (
    ".mcp.json",
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".hands/settings.json",
    ".hands/settings.local.json",
    ".claude/agents",
    ".hands/agents",
    ".claude/skills",
    ".hands/skills",
    ".claude/commands",
    ".hands/commands",
    ".claude/output-styles",
    ".hands/output-styles",
)
"""What counts in the session's folder and in each of its parents."""

HOME_PARTS = (
    "settings.json",
    "agents",
    "skills",
    "commands",
    "output-styles",
    "plugins",
    "mcp-tools",
)
"""What counts in hands' home and in a Claude configuration folder."""


@dataclass(frozen=True, kw_only=True, slots=True)
class KeptRequest:
    """What a first request sent beside the prompt and the system prompt."""

    tools: tuple[ToolSpec, ...]
    notes: tuple[str, ...] = ()
    """The text of each message sent after the prompt (the deferred tools' reminder)."""


def input_paths(
    *, cwd: Path, home: Path, hands_home: Path, config_dir: Path | None, plugins: Iterable[Path]
) -> list[Path]:
    """The files and folders whose content is part of a session's key."""
    paths = [folder / part for folder in (cwd, *cwd.parents) for part in FOLDER_PARTS]
    bases = [home / ".claude", home / ".hands", hands_home]
    if config_dir is not None:
        bases.append(config_dir)
    paths += [base / part for base in bases for part in HOME_PARTS]
    paths += [home / ".claude.json", home / ".hands.json", *plugins]
    return list(dict.fromkeys(paths))


def session_key(
    *,
    cwd: Path,
    settings: Settings,
    choices: Mapping[str, object],
    env: Mapping[str, str],
    leave_out: frozenset[str] = frozenset(),
) -> str:
    """:func:`request_key` of a session in ``cwd`` with ``settings`` (its inputs found here).

    ``leave_out``: names of input files and folders the caller's answers do not depend on.
    """
    import hands
    from hands.core.limits import hands_home

    config_dir = env.get("CLAUDE_CONFIG_DIR")
    inputs = input_paths(
        cwd=cwd,
        home=settings.home,
        hands_home=hands_home(env),
        config_dir=Path(config_dir).expanduser() if config_dir else None,
        plugins=[plugin.root for plugin in settings.plugins],
    )
    return request_key(
        choices=choices,
        settings=settings,
        inputs=[path for path in inputs if path.name not in leave_out],
        package=Path(hands.__file__).parent,
        env=env,
    )


def request_key(
    *,
    choices: Mapping[str, object],
    settings: object,
    inputs: Iterable[Path],
    package: Path,
    env: Mapping[str, str],
) -> str:
    """The key of a session's first request (see the module's docstring).

    ``choices``: the session's own (folder, model, mode, ...); ``settings``: the merged
    settings, whose ``repr`` shows every source as read and the trust decision;
    ``inputs``: :func:`input_paths`; ``package``: the folder of hands' modules.
    """
    digest = hashlib.sha256()

    def add(label: str, value: object) -> None:
        digest.update(f"{label}={value!r}\n".encode("utf-8", "backslashreplace"))

    add("version", (CACHE_VERSION, sys.version))
    add("choices", sorted(choices.items(), key=lambda item: item[0]))
    add("settings", settings)
    add(
        "env",
        sorted((k, v) for k, v in env.items() if k in ENV_NAMES or k.startswith(ENV_PREFIXES)),
    )
    add("modules", module_states(str(package)))
    for path in inputs:
        add(str(path), list(_input_states(path)))
    return digest.hexdigest()


def module_states(package: str) -> list[str]:
    """Each module under ``package`` with its size and modification time, sorted."""
    states: list[str] = []
    folders = [package]
    while folders:
        with contextlib.suppress(OSError), os.scandir(folders.pop()) as found:
            for entry in found:
                if entry.name.endswith(".py"):
                    with contextlib.suppress(OSError):
                        st = entry.stat()
                        states.append(f"{entry.path}:{st.st_size}:{st.st_mtime_ns}")
                elif entry.name != "__pycache__" and entry.is_dir(follow_symlinks=False):
                    folders.append(entry.path)
    states.sort()
    return states


def _input_states(path: Path) -> Iterator[tuple[str, str]]:
    """(path, what it holds) of the file, or of every file under the folder."""
    if path.is_file():
        yield str(path), _file_state(path)
        return
    if not path.is_dir():
        return
    for folder, dirs, files in os.walk(path):
        dirs[:] = sorted(dirs)
        for name in sorted(files):
            if not name.endswith(".tmp"):
                yield str(Path(folder, name)), _file_state(Path(folder, name))


def _file_state(path: Path) -> str:
    try:
        st = path.stat()
        if st.st_size > CONTENT_LIMIT:
            return f"{st.st_size}:{st.st_mtime_ns}"
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as exc:
        return f"unreadable:{exc.errno}"


def any_kept(directory: Path) -> bool:
    """Whether ``directory`` holds a kept request at all (a new hands home has none)."""
    try:
        with os.scandir(directory) as found:
            return any(entry.name.endswith(".json") for entry in found)
    except OSError:
        return False


class RequestCache(KeptFile):
    """The kept first request of one key, a file in ``directory``."""

    version = CACHE_VERSION

    def load(self) -> KeptRequest | None:
        """The kept request, or None (none kept, unreadable, malformed, another key)."""
        entry = self.read_entry()
        return None if entry is None else _parse(entry)

    def save(self, kept: KeptRequest) -> None:
        """Keep ``kept`` (written whole, or not at all)."""
        self.write_entry(
            {
                "tools": [spec.to_wire() for spec in kept.tools],
                "notes": list(kept.notes),
            }
        )


def _parse(entry: Mapping[str, Any]) -> KeptRequest | None:
    tools, notes = entry.get("tools"), entry.get("notes")
    if not isinstance(tools, list) or not isinstance(notes, list):
        return None
    specs: list[ToolSpec] = []
    for raw in cast(list[object], tools):
        spec = _spec(raw)
        if spec is None:
            return None
        specs.append(spec)
    texts = cast(list[object], notes)
    if not all(isinstance(t, str) for t in texts):
        return None
    return KeptRequest(tools=tuple(specs), notes=tuple(cast(list[str], texts)))


def _spec(raw: object) -> ToolSpec | None:
    if not isinstance(raw, Mapping):
        return None
    item = cast(Mapping[str, Any], raw)
    name, description = item.get("name"), item.get("description")
    schema, deferred = item.get("input_schema"), item.get("defer_loading", False)
    if not isinstance(name, str) or not isinstance(description, str):
        return None
    if not isinstance(schema, Mapping) or not isinstance(deferred, bool):
        return None
    if set(item) - {"name", "description", "input_schema", "defer_loading"}:
        return None
    return ToolSpec(
        name=name,
        description=description,
        input_schema=cast(Mapping[str, Any], schema),
        defer_loading=deferred,
    )
