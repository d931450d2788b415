"""The REPL's slash commands and input conventions, each with its one-line help."""

from __future__ import annotations

from hands.core.context import PermissionMode

COMMANDS: dict[str, str] = {
    "/help": "this help",
    "/add-dir": "/add-dir PATH: another directory the session may work in",
    "/agents": "the sub-agents; /agents new NAME [--user] from a template, /agents edit NAME",
    "/clear": "start a new session with an empty conversation (the earlier one stays, for -r)",
    "/compact": "summarise the conversation to free context; /compact TEXT: what to keep",
    "/config": "the settings in force and the file each one comes from",
    "/context": "what fills the context window, per category, in tokens",
    "/cost": "the tokens used so far and what they cost",
    "/doctor": "check the installation: settings files, MCP servers, trust, sandbox, tools",
    "/export": "the conversation as Markdown: /export FILE, or to the clipboard",
    "/hooks": "the hooks by event, the file each comes from and whether it runs",
    "/init": "write a starter CLAUDE.md (AGENTS.md if the project uses one) from the project",
    "/mcp": "MCP servers and their state (/mcp login NAME, /mcp logout NAME)",
    "/memory": "the instruction files (CLAUDE.md, AGENTS.md...); opens one in your editor",
    "/model": "the model in use; /model NAME switches to another",
    "/plan": "enter plan mode (read-only); /plan TEXT sends TEXT in it",
    "/resume": "pick an earlier session of this project and continue it",
    "/rewind": "go back to before a prompt: its file changes, the conversation, or both",
    "/permissions": "the rules; add|remove allow|ask|deny RULE [--to FILE], add-dir PATH",
    "/status": "model, permission mode, settings files and MCP servers",
    "/tasks": "background shells and agents: /tasks ID shows output, /tasks stop ID",
    "/bashes": "the same as /tasks",
    "/todos": "the todo list and the project's task list",
    "/tools": "the tools the model can use",
    "/vim": "vi keys in the input line (again: the usual keys)",
    "/output-style": "the output styles; /output-style NAME answers in one from the next session",
    "/exit": "leave (Ctrl-D works too)",
}

ALIASES = {"/quit": "/exit"}

INPUT_HELP = """\
!COMMAND      run a shell command; its output goes with your next prompt
@PATH         attach a file to the prompt (Tab completes paths)
Tab           complete a command or a path; Shift-Tab cycles the permission mode
Esc or Ctrl-C interrupts a turn (at a permission question: refuses and interrupts)
\\ then Enter  a new line (Esc then Enter too); Esc Esc on an empty line rewinds
typing        during a turn: shown under it; Enter queues it for the model's next step"""


def help_text() -> str:
    """Every command with its help, then the input conventions."""
    width = max(len(name) for name in COMMANDS) + 2
    lines = [f"{name:<{width}}{text}" for name, text in COMMANDS.items()]
    return "\n".join([*lines, INPUT_HELP])


MODE_CYCLE: tuple[PermissionMode, ...] = ("default", "acceptEdits", "plan")
"""Shift-Tab's order; ``bypassPermissions`` joins it only when the session started in it."""

MODE_MEANING: dict[str, str] = {
    "default": "edits and commands are asked about",
    "acceptEdits": "file edits in the working directories go ahead without asking",
    "plan": "read-only: the model plans and changes nothing",
    "bypassPermissions": "nothing is asked",
    "dontAsk": "anything that would be asked is refused",
}


def next_mode(mode: PermissionMode, *, bypass: bool) -> PermissionMode:
    """The mode after ``mode`` in Shift-Tab's cycle."""
    cycle = (*MODE_CYCLE, "bypassPermissions") if bypass else MODE_CYCLE
    if mode not in cycle:
        return cycle[0]
    return cycle[(cycle.index(mode) + 1) % len(cycle)]


def describe_mode(mode: str) -> str:
    """``mode NAME: what it means``."""
    return f"mode {mode}: {MODE_MEANING.get(mode, mode)}"
