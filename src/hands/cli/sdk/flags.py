"""The command line an Agent SDK passes, parsed with Claude Code's meaning of each flag.

Every flag either SDK sends is known here; an unknown one is a :class:`UsageError`
naming it. :data:`FLAGS` says what hands does with each (``docs/agent-sdk.md`` lists it).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, cast

from hands.cli.args import UsageError

Status = Literal["supported", "accepted", "refused"]
"""supported: Claude Code's meaning; accepted: checked and taken, with no or a lesser
effect (the note says which); refused: an error naming the flag and why."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Flag:
    """One flag: its names, whether it takes a value, what hands does with it."""

    names: tuple[str, ...]
    dest: str
    takes_value: bool = True
    repeat: bool = False
    status: Status = "supported"
    note: str = ""


FLAGS: tuple[Flag, ...] = (
    Flag(names=("-p", "--print"), dest="print_", takes_value=False, note="implied"),
    Flag(names=("--output-format",), dest="output_format", note="must be stream-json"),
    Flag(names=("--input-format",), dest="input_format", note="must be stream-json"),
    Flag(names=("--verbose",), dest="verbose", takes_value=False, note="implied"),
    Flag(names=("--debug",), dest="debug", takes_value=False, note="debug log on stderr"),
    Flag(
        names=("--debug-to-stderr",),
        dest="debug_to_stderr",
        takes_value=False,
        note="debug log on stderr",
    ),
    Flag(names=("--debug-file",), dest="debug_file", note="debug log appended to the file"),
    Flag(names=("--system-prompt",), dest="system_prompt"),
    Flag(names=("--system-prompt-file",), dest="system_prompt_file"),
    Flag(names=("--append-system-prompt",), dest="append_system_prompt"),
    Flag(names=("--append-system-prompt-file",), dest="append_system_prompt_file"),
    Flag(names=("--tools",), dest="tools", note="'default', '' (none) or a list of names"),
    Flag(names=("--allowedTools", "--allowed-tools"), dest="allowed_tools", repeat=True),
    Flag(names=("--disallowedTools", "--disallowed-tools"), dest="disallowed_tools", repeat=True),
    Flag(names=("--max-turns",), dest="max_turns"),
    Flag(names=("--max-budget-usd",), dest="max_budget_usd", note="checked after each turn"),
    Flag(
        names=("--task-budget",),
        dest="task_budget",
        note="output_config.task_budget (tokens) on Anthropic requests, with its beta",
    ),
    Flag(names=("--model",), dest="model", note="any hands provider, see Providers"),
    Flag(
        names=("--fallback-model",),
        dest="fallback_model",
        note="comma-separated; a request the main model cannot serve (404, 5xx, overloaded) "
        "goes to each in order",
    ),
    Flag(
        names=("--effort",),
        dest="effort",
        note="low to max: output_config.effort (Anthropic), reasoning_effort (OpenAI)",
    ),
    Flag(
        names=("--thinking",),
        dest="thinking",
        note="adaptive, enabled (= adaptive) or disabled; Anthropic models",
    ),
    Flag(
        names=("--thinking-display",),
        dest="thinking_display",
        note="summarized or omitted, sent when thinking is on; Anthropic models",
    ),
    Flag(
        names=("--max-thinking-tokens",),
        dest="max_thinking_tokens",
        note="a thinking budget in tokens (0: off) unless --thinking is given; Anthropic models",
    ),
    Flag(
        names=("--betas",),
        dest="betas",
        note="sent in the anthropic-beta header of every model request, not in commands' env",
    ),
    Flag(names=("--permission-mode",), dest="permission_mode"),
    Flag(
        names=("--permission-prompt-tool",),
        dest="permission_prompt_tool",
        note="stdio: questions go to the SDK's can_use_tool; an MCP tool name is refused",
    ),
    Flag(
        names=("--permission-prompts",),
        dest="permission_prompts",
        status="accepted",
        note="no effect: questions go to can_use_tool",
    ),
    Flag(
        names=("--allow-dangerously-skip-permissions",),
        dest="allow_skip_permissions",
        takes_value=False,
        note="lets set_permission_mode choose bypassPermissions",
    ),
    Flag(
        names=("--dangerously-skip-permissions",),
        dest="skip_permissions",
        takes_value=False,
    ),
    Flag(names=("--mcp-config",), dest="mcp_config", repeat=True, note="JSON or a file"),
    Flag(names=("--strict-mcp-config",), dest="strict_mcp_config", takes_value=False),
    Flag(names=("--setting-sources",), dest="setting_sources", note="user,project,local"),
    Flag(names=("--settings",), dest="settings", note="JSON or a file"),
    Flag(names=("--add-dir",), dest="add_dir", repeat=True),
    Flag(names=("--cwd",), dest="cwd"),
    Flag(names=("-c", "--continue"), dest="continue_", takes_value=False),
    Flag(names=("-r", "--resume"), dest="resume"),
    Flag(
        names=("--resume-session-at",),
        dest="resume_session_at",
        note="the uuid of a message hands sent the program; the conversation resumes up to it",
    ),
    Flag(
        names=("--resume-drops-turn",),
        dest="resume_drops_turn",
        note="refuses the resume unless what is cut is that prompt's turn alone",
    ),
    Flag(names=("--fork-session",), dest="fork_session", takes_value=False),
    Flag(names=("--session-id",), dest="session_id"),
    Flag(
        names=("--session-mirror",),
        dest="session_mirror",
        takes_value=False,
        status="accepted",
        note="no transcript_mirror frames are sent; the transcript is on disk",
    ),
    Flag(
        names=("--no-session-persistence",),
        dest="no_persistence",
        takes_value=False,
        note="the main conversation's transcript is not written (sub-agents' still are)",
    ),
    Flag(names=("--include-partial-messages",), dest="partial", takes_value=False),
    Flag(
        names=("--include-hook-events",),
        dest="hook_events",
        takes_value=False,
        note="a hook_started and a hook_response line per hook run",
    ),
    Flag(
        names=("--replay-user-messages",),
        dest="replay",
        takes_value=False,
        note="each user message read is sent back with the uuid rewind_files takes",
    ),
    Flag(names=("--json-schema",), dest="json_schema", note="structured output"),
    Flag(
        names=("--plugin-dir",),
        dest="plugin_dir",
        repeat=True,
        note="a plugin (or a folder of plugins): its commands, agents, skills, hooks and "
        ".mcp.json servers, in a trusted workspace only",
    ),
    Flag(
        names=("--plugin-dir-no-mcp",),
        dest="plugin_dir_no_mcp",
        repeat=True,
        note="as --plugin-dir, without the plugin's MCP servers",
    ),
    Flag(
        names=("--agent",),
        dest="agent",
        status="accepted",
        note="the main thread stays hands' own agent; agent types serve the Agent tool",
    ),
    Flag(
        names=("--channels",),
        dest="channels",
        repeat=True,
        status="accepted",
        note="no effect: hands has no channels",
    ),
    Flag(
        names=("--await-initialize",),
        dest="await_initialize",
        takes_value=False,
        note="initialize is always answered before a turn it precedes",
    ),
    Flag(
        names=("--initialize-fields",),
        dest="initialize_fields",
        status="accepted",
        note="settings, disallowedTools and additionalDirectories in initialize are not read",
    ),
    Flag(
        names=("--managed-settings",),
        dest="managed_settings",
        note="policy settings (JSON or a file) above every other source but the machine's "
        "managed-settings file",
    ),
    Flag(
        names=("--managed-settings-in-initialize",),
        dest="managed_in_initialize",
        takes_value=False,
        note="policy settings from the initialize request's managedSettings (with "
        "--await-initialize; not with --managed-settings); none there: no session, exit 1",
    ),
    Flag(
        names=("--project-config-root",),
        dest="project_config_root",
        status="accepted",
        note="no effect: the project is the working directory",
    ),
    Flag(
        names=("--sdk-url",),
        dest="sdk_url",
        status="refused",
        note="a remote WebSocket transport; hands speaks the protocol on stdin and stdout only",
    ),
    Flag(names=("--simple",), dest="simple", takes_value=False),
    Flag(
        names=("--trust",),
        dest="trust",
        takes_value=False,
        note="trust the folder for this run (hands' own flag; an SDK passes it as an extra arg)",
    ),
)
_BY_DEST = {f.dest: f for f in FLAGS}


@dataclass(frozen=True, kw_only=True)
class SdkArgs:
    """The values of the flags; lists keep every occurrence, in order."""

    values: dict[str, str | bool | list[str]] = field(
        default_factory=lambda: dict[str, str | bool | list[str]]()
    )

    def text(self, dest: str) -> str | None:
        """A value flag's text, or ``None`` when it was not given."""
        value = self.values.get(dest)
        return value if isinstance(value, str) else None

    def on(self, dest: str) -> bool:
        """Whether a switch was given."""
        return self.values.get(dest) is True

    def items(self, dest: str) -> list[str]:
        """A list flag's entries, comma- or space-separated lists split (``--allowedTools``)."""
        value = self.values.get(dest)
        raw = value if isinstance(value, list) else [value] if isinstance(value, str) else []
        return [part for entry in raw for part in entry.replace(",", " ").split()]

    def entries(self, dest: str) -> list[str]:
        """A repeatable flag's values as given (``--mcp-config`` JSON stays whole)."""
        value = self.values.get(dest)
        return list(value) if isinstance(value, list) else [value] if isinstance(value, str) else []

    def number(self, dest: str, *, integer: bool = False, minimum: float = 0) -> float | None:
        """A numeric flag's value, or a :class:`UsageError` naming the flag."""
        text = self.text(dest)
        if text is None:
            return None
        try:
            value = int(text) if integer else float(text)
        except ValueError:
            kind = "a whole number" if integer else "a number"
            raise UsageError(f"{_BY_DEST[dest].names[-1]} {text!r} is not {kind}") from None
        if value < minimum or value != value:
            raise UsageError(f"{_BY_DEST[dest].names[-1]} must be at least {minimum:g}")
        return value


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def _parser() -> _Parser:
    parser = _Parser(prog="hands", add_help=False, allow_abbrev=False, exit_on_error=False)
    for flag in FLAGS:
        if not flag.takes_value:
            parser.add_argument(*flag.names, dest=flag.dest, action="store_const", const=True)
        elif flag.repeat:
            parser.add_argument(*flag.names, dest=flag.dest, action="append")
        else:
            parser.add_argument(*flag.names, dest=flag.dest)
    return parser


def parse(argv: Sequence[str]) -> SdkArgs:
    """The flags of an SDK invocation; unknown flags and refused ones are errors."""
    try:
        namespace, unknown = _parser().parse_known_args(list(argv))
    except argparse.ArgumentError as exc:
        raise UsageError(str(exc)) from None
    if unknown:
        named = ", ".join(unknown)
        raise UsageError(f"unknown option(s) for the Agent SDK protocol: {named}")
    values = {k: v for k, v in vars(namespace).items() if v is not None}
    args = SdkArgs(values=cast(dict[str, str | bool | list[str]], values))
    for dest in values:
        flag = _BY_DEST[dest]
        if flag.status == "refused":
            raise UsageError(f"{flag.names[-1]} is not supported by hands: {flag.note}")
    for dest, allowed in (("output_format", "stream-json"), ("input_format", "stream-json")):
        given = args.text(dest)
        if given is not None and given != allowed:
            raise UsageError(f"{_BY_DEST[dest].names[0]} must be {allowed} here, not {given!r}")
    prompt_tool = args.text("permission_prompt_tool")
    if prompt_tool is not None and prompt_tool != "stdio":
        raise UsageError(
            f"--permission-prompt-tool {prompt_tool!r}: hands asks the SDK over stdio only "
            "(--permission-prompt-tool stdio)"
        )
    return args
