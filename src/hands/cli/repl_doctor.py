"""``/doctor``: is this installation in shape? One line per check, worst first marked.

Installation (hands, Python), each settings file (read again now: one broken since the
session started shows), the MCP servers, the folder's trust, the sandbox (bubblewrap),
ripgrep and the browser's Chromium.
"""

from __future__ import annotations

import platform
import subprocess
import sys
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from rich.text import Text

if TYPE_CHECKING:
    from hands.cli.repl import Repl
    from hands.cli.session_setup import AgentSetup

Level = Literal["ok", "warn", "fail"]
_MARK: dict[Level, tuple[str, str]] = {
    "ok": ("✓", "green"),
    "warn": ("!", "yellow"),
    "fail": ("✗", "red"),
}
_PROBE_S = 10


@dataclass(frozen=True, kw_only=True, slots=True)
class Check:
    """One finding."""

    name: str
    level: Level
    detail: str


def installation() -> list[Check]:
    """The version of hands and the Python running it."""
    try:
        mine = version("hands")
    except PackageNotFoundError:
        mine = "not installed as a package"
    python = f"{platform.python_implementation()} {platform.python_version()} ({sys.executable})"
    return [
        Check(name="hands", level="ok", detail=mine),
        Check(name="python", level="ok", detail=python),
    ]


def settings_files(paths: list[tuple[str, Path]], warnings: tuple[str, ...]) -> list[Check]:
    """Each settings file read again and parsed; the session's warnings about them."""
    from hands.config.settings import parse_settings_text
    from hands.config.settings_error import SettingsFileError

    out: list[Check] = []
    for scope, path in paths:
        try:
            text = path.read_text(encoding="utf-8-sig")
            said: list[str] = []
            parse_settings_text(text, label=str(path), warnings=said)
        except FileNotFoundError:
            out.append(Check(name=scope, level="warn", detail=f"{path} is gone since start-up"))
            continue
        except SettingsFileError as exc:  # it names the file
            out.append(Check(name=scope, level="fail", detail=str(exc)))
            continue
        except (OSError, UnicodeDecodeError) as exc:
            out.append(Check(name=scope, level="fail", detail=f"{path}: {exc}"))
            continue
        level: Level = "warn" if said else "ok"
        out.append(Check(name=scope, level=level, detail="; ".join([str(path), *said])))
    out += [Check(name="settings", level="warn", detail=w) for w in warnings]
    return out


def ripgrep() -> Check:
    """The ``rg`` the search tools run, and its version."""
    from hands.errors import ToolError
    from hands.tools.search import rg_path

    try:
        found = rg_path()
    except ToolError:
        return Check(name="ripgrep", level="fail", detail="not found: Grep and Glob cannot run")
    first = _first_line([str(found), "--version"])
    detail = f"{first or 'does not run'} ({found})"
    return Check(name="ripgrep", level="ok" if first else "fail", detail=detail)


def sandbox() -> Check:
    """Whether bubblewrap can make the sandbox's namespaces here."""
    from hands.tools.bash.sandbox.sandbox import SandboxUnavailable, check_available

    try:
        bwrap = check_available()
    except SandboxUnavailable as exc:
        return Check(
            name="sandbox", level="warn", detail=str(exc).replace("is enabled but ", "cannot run: ")
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return Check(name="sandbox", level="warn", detail=f"bubblewrap could not be tried: {exc}")
    return Check(name="sandbox", level="ok", detail=f"bubblewrap works ({bwrap})")


def chromium() -> Check:
    """The browser tools' Chromium and Playwright."""
    from hands.tools.browser import missing

    lacking = missing()
    if lacking is not None:
        return Check(name="chromium", level="warn", detail=lacking)
    return Check(name="chromium", level="ok", detail="Chromium and Playwright are installed")


def trust(setup: AgentSetup) -> Check:
    """Whether the folder is trusted, and what that leaves off."""
    from hands.config.trust import workspace_of

    workspace = workspace_of(setup.cwd)
    if setup.settings.trusted:
        return Check(name="trust", level="ok", detail=f"{workspace} is trusted")
    off = setup.settings.untrusted_files
    detail = f"{workspace} is not trusted"
    if off:
        detail += "; left off: " + ", ".join(off)
    return Check(name="trust", level="warn", detail=detail)


def mcp_servers(setup: AgentSetup) -> list[Check]:
    """Each MCP server and its state."""
    out: list[Check] = []
    for status in setup.mcp.status():
        level: Level = "ok" if status.state == "connected" else "warn"
        if status.state == "failed":
            level = "fail"
        detail = f"{status.state}" + (f": {status.error}" if status.error else "")
        out.append(Check(name=f"mcp {status.name}", level=level, detail=detail))
    return out or [Check(name="mcp", level="ok", detail="no servers configured")]


def checks(setup: AgentSetup) -> list[Check]:
    """Every check, in the order shown."""
    files = [(s.scope, s.path) for s in setup.settings.sources if s.path is not None]
    return [
        *installation(),
        *settings_files(files, setup.settings.warnings),
        *mcp_servers(setup),
        trust(setup),
        sandbox(),
        ripgrep(),
        chromium(),
    ]


def render(found: list[Check]) -> Text:
    """One line per check: its mark, its name, what was found."""
    width = max(len(c.name) for c in found) + 2
    out = Text()
    for c in found:
        mark, style = _MARK[c.level]
        out.append(f"{mark} ", style=style)
        out.append(f"{c.name:<{width}}", style="bold")
        out.append(c.detail + "\n")
    out.rstrip()
    return out


async def run(repl: Repl, arg: str) -> bool:
    """Run the checks (off the event loop: some start programs) and print them."""
    import anyio

    found = await anyio.to_thread.run_sync(checks, repl.setup)
    repl.console.print(render(found))
    bad = sum(c.level == "fail" for c in found)
    if bad:
        repl.console.print(Text(f"{bad} problem{'s' * (bad != 1)} found.", style="red"))
    return True


def _first_line(command: list[str]) -> str:
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=_PROBE_S, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    lines = done.stdout.strip().splitlines()
    return lines[0] if done.returncode == 0 and lines else ""
