"""``/export [FILE]``: the conversation as Markdown, to a file or the clipboard.

With a file name the Markdown is written there atomically (a temporary file beside it,
renamed over it). With none it goes to the clipboard when a clipboard program can take
it, else to a new file in the working directory whose name is printed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text

from hands.core.messages import (
    ImageBlock,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

if TYPE_CHECKING:
    from hands.cli.repl import Repl

_CLIPBOARD_WAIT_S = 10


def to_markdown(messages: Sequence[Message], *, title: str) -> str:
    """The conversation as a Markdown document: each turn under a heading, tools fenced."""
    out = [f"# {title}", ""]
    for message in messages:
        parts = [p for p in (_block(b) for b in message.content) if p]
        if not parts:
            continue
        only_results = all(isinstance(b, ToolResultBlock) for b in message.content)
        heading = "Tool results" if only_results else message.role.capitalize()
        out += [f"## {heading}", "", *("\n\n".join(parts).splitlines()), ""]
    return "\n".join(out).rstrip() + "\n"


def _block(block: object) -> str:
    if isinstance(block, ToolResultBlock):
        label = "error" if block.is_error else "result"
        images = (
            0
            if isinstance(block.content, str)
            else sum(isinstance(p, ImageBlock) for p in block.content)
        )
        extra = f"\n\n*({images} image{'s' * (images != 1)} not exported)*" if images else ""
        return f"**{label}:**\n\n{_fenced(block.text)}{extra}"
    if isinstance(block, TextBlock):
        return block.text
    if isinstance(block, ToolUseBlock):
        return f"**{block.name}**\n\n{_fenced(_json(block.input), 'json')}"
    if isinstance(block, ThinkingBlock):
        return "\n".join(f"> {line}" for line in block.thinking.splitlines())
    if isinstance(block, ImageBlock):
        return "*(an image, not exported)*"
    return ""


def _json(data: Mapping[str, object]) -> str:
    return json.dumps(dict(data), indent=2, ensure_ascii=False, default=str)


def _fenced(text: str, language: str = "") -> str:
    """``text`` in a code fence longer than any run of backticks inside it."""
    runs = [len(r) for r in re.findall(r"`+", text)]
    fence = "`" * max(3, max(runs, default=0) + 1)
    return f"{fence}{language}\n{text.rstrip(chr(10))}\n{fence}"


def write_file(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically: the old file or the new one, never a mix."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with tmp.open("w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def clipboard_command(env: Mapping[str, str]) -> list[str] | None:
    """The program that puts stdin on the clipboard here, if one can."""
    candidates: list[list[str]] = []
    if sys.platform == "darwin":
        candidates.append(["pbcopy"])
    if env.get("WAYLAND_DISPLAY"):
        candidates.append(["wl-copy"])
    if env.get("DISPLAY"):
        candidates += [["xclip", "-selection", "clipboard"], ["xsel", "--clipboard", "--input"]]
    for command in candidates:
        found = shutil.which(command[0], path=env.get("PATH"))
        if found is not None:
            return [found, *command[1:]]
    return None


def copy(text: str, command: list[str]) -> str | None:
    """Put ``text`` on the clipboard with ``command``; None, or why it failed."""
    try:
        done = subprocess.run(
            command,
            input=text.encode(),
            capture_output=True,
            timeout=_CLIPBOARD_WAIT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        return said[-1] if said else f"exit status {done.returncode}"
    return None


def default_name(cwd: Path, now: datetime) -> Path:
    """A new file in ``cwd`` for an export with no name given."""
    return cwd / f"hands-conversation-{now.strftime('%Y-%m-%d-%H%M%S')}.md"


async def run(repl: Repl, arg: str) -> bool:
    """Export the conversation so far."""
    setup = repl.setup
    if not setup.history:
        repl.console.print(Text("Nothing to export: the conversation is empty.", style="dim"))
        return True
    text = to_markdown(setup.history, title=f"Conversation {setup.session.id}")
    for said, style in export(text, arg, cwd=setup.cwd):
        repl.console.print(Text(said, style=style))
    return True


def export(text: str, arg: str, *, cwd: Path) -> list[tuple[str, str]]:
    """Put ``text`` where ``arg`` says; what to tell the user, each line with its style."""
    said: list[tuple[str, str]] = []
    if not arg:
        command = clipboard_command(os.environ)
        if command is not None:
            failed = copy(text, command)
            if failed is None:
                return [("The conversation is on the clipboard.", "green")]
            said.append((f"The clipboard refused it ({failed}).", "yellow"))
        target = default_name(cwd, datetime.now())
    else:
        target = cwd / Path(arg).expanduser()
    try:
        write_file(target, text)
    except OSError as exc:
        return [*said, (f"Cannot write {target}: {exc.strerror or exc}", "red")]
    return [*said, (f"Exported the conversation to {target}", "green")]
