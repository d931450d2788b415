"""``hands`` started by an Agent SDK: flags checked, session built, protocol served."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from hands.cli.args import UsageError, check_settings_value, resolve_cwd
from hands.cli.sdk.flags import SdkArgs, parse
from hands.cli.sdk.model_choice import configured
from hands.errors import HandsError

if TYPE_CHECKING:
    from hands.cli.sdk.model_choice import ModelChoices
    from hands.cli.sdk.session import SdkSession
    from hands.cli.sdk.structured import StructuredOutputTool
    from hands.cli.session_setup import AgentSetup
    from hands.config.plugins import Plugin
    from hands.mcp.sdk_transport import SdkLink
    from hands.models.base import Model


def main(argv: Sequence[str]) -> int:
    """Run the SDK protocol on stdin/stdout; usage errors are one line and exit 2."""
    from hands.cli.sdk.resume_at import ResumeRefused

    try:
        args = parse(argv)
        return _serve(args)
    except ResumeRefused as exc:  # as Claude Code: an error result the SDK raises with
        import json

        from hands.cli.sdk.messages import error_result

        print(f"hands: {exc}", file=sys.stderr)
        line = error_result(str(exc), session_id=exc.session_id)
        sys.stdout.write(json.dumps(line) + "\n")
        sys.stdout.flush()
        return 1
    except ManagedSettingsMissing as exc:  # as Claude Code: one line, exit 1, no session
        print(f"hands: {exc}", file=sys.stderr)
        return 1
    except UsageError as exc:
        print(f"hands: {exc}", file=sys.stderr)
        return 2
    except HandsError as exc:
        print(f"hands: {exc}", file=sys.stderr)
        return 2


def _logging(args: SdkArgs) -> None:
    debug_file = args.text("debug_file")
    if not (args.on("debug") or args.on("debug_to_stderr") or debug_file):
        return
    import logging

    handler: logging.Handler = (
        logging.FileHandler(debug_file, encoding="utf-8")
        if debug_file
        else logging.StreamHandler(sys.stderr)
    )
    handler.setFormatter(logging.Formatter("hands: %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=logging.DEBUG, handlers=[handler])


def _mode(args: SdkArgs) -> str | None:
    mode = args.text("permission_mode")
    if not args.on("skip_permissions"):
        return mode
    if mode not in (None, "bypassPermissions"):
        raise UsageError(
            "--dangerously-skip-permissions is the bypassPermissions mode; "
            f"it cannot go with --permission-mode {mode}"
        )
    return "bypassPermissions"


def _read(path_text: str, flag: str, cwd: Path) -> str:
    path = Path(path_text).expanduser()
    path = path if path.is_absolute() else cwd / path
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise UsageError(f"{flag} {path}: cannot be read ({reason})") from None


def _prompts(args: SdkArgs, cwd: Path) -> tuple[str | None, str]:
    """The system prompt (``None``: hands' own) and the text appended to it."""
    system = args.text("system_prompt")
    file = args.text("system_prompt_file")
    if file is not None:
        if system is not None:
            raise UsageError("give --system-prompt or --system-prompt-file, not both")
        system = _read(file, "--system-prompt-file", cwd)
    parts = [args.text("append_system_prompt") or ""]
    append_file = args.text("append_system_prompt_file")
    if append_file is not None:
        parts.append(_read(append_file, "--append-system-prompt-file", cwd))
    return system, "\n\n".join(p for p in parts if p)


def _only_tools(args: SdkArgs) -> list[str] | None:
    value = args.text("tools")
    if value is None or value.strip() == "default":
        return None
    return [name for name in value.replace(",", " ").split() if name]


def _mcp_servers(args: SdkArgs) -> dict[str, object]:
    from hands.cli.args import mcp_config_servers

    return mcp_config_servers(args.entries("mcp_config"))


def _plugins(args: SdkArgs, cwd: Path) -> tuple[Plugin, ...]:
    from hands.config.plugins import load_plugins

    return (
        *load_plugins(args.entries("plugin_dir"), cwd=cwd),
        *load_plugins(args.entries("plugin_dir_no_mcp"), cwd=cwd, servers=False),
    )


def _session_ids(args: SdkArgs) -> tuple[str | None, bool, str | None]:
    """The session to resume, whether to continue the latest, and the new session's id."""
    resume = args.text("resume")
    continue_last = args.on("continue_")
    new_id = args.text("session_id")
    if new_id is not None:
        try:
            uuid.UUID(new_id)
        except ValueError:
            raise UsageError(f"--session-id {new_id!r} is not a UUID") from None
        if (resume or continue_last) and not args.on("fork_session"):
            raise UsageError("--session-id with --resume or --continue needs --fork-session")
    if args.on("fork_session"):
        if not (resume or continue_last):
            raise UsageError("--fork-session needs --resume or --continue")
        new_id = new_id or str(uuid.uuid4())
    return resume, continue_last, new_id


def _serve(args: SdkArgs) -> int:
    _logging(args)
    cwd_text = args.text("cwd")
    cwd = resolve_cwd(Path(cwd_text) if cwd_text else None)
    mode = _mode(args)
    settings_value = args.text("settings")
    check_settings_value(settings_value, cwd)
    managed = args.text("managed_settings")
    check_settings_value(managed, cwd, flag="--managed-settings")
    first_line, managed = _managed_in_initialize(args, managed)
    sources = args.text("setting_sources")
    setting_sources = None
    if sources is not None:
        setting_sources = [s for s in sources.replace(",", " ").split() if s]
        unknown = [s for s in setting_sources if s not in ("user", "project", "local")]
        if unknown:
            raise UsageError(
                f"--setting-sources: unknown source(s) {', '.join(unknown)}; "
                "use user, project and local"
            )
    from hands.cli.args import announce_warnings, checked_mode
    from hands.config.settings import CliPermissionArgs

    sources = CliPermissionArgs(
        allowed_tools=tuple(args.items("allowed_tools")),
        disallowed_tools=tuple(args.items("disallowed_tools")),
        permission_mode=checked_mode(mode),
        settings=settings_value,
        add_dirs=tuple(args.items("add_dir")),
        setting_sources=setting_sources,
        managed_settings=managed,
        plugins=_plugins(args, cwd),
    )
    max_turns = args.number("max_turns", integer=True, minimum=1)
    budget = args.number("max_budget_usd", minimum=0)
    from hands.cli.sdk.model_choice import choices

    model_choices = choices(args)
    system, append = _prompts(args, cwd)
    from hands.cli.sdk.first_line import read_early

    if first_line is None:
        first_line = sys.stdin.buffer.readline()  # the SDK's initialize, sent at once
    early = read_early(first_line)
    if early.system_prompt is not None:
        system = early.system_prompt
    append = "\n\n".join(p for p in (append, early.append_system_prompt) if p)
    servers = _mcp_servers(args)
    for name in early.sdk_servers:
        servers.setdefault(name, {"type": "sdk", "name": name})
    structured = None
    schema = args.text("json_schema")
    if schema is not None:
        from hands.cli.sdk.structured import INSTRUCTION, structured_output_tool

        structured = structured_output_tool(schema)
        append = f"{append}\n\n{INSTRUCTION}".strip()
    resume, continue_last, new_id = _session_ids(args)
    from hands.cli.session_setup import prepare
    from hands.models.resolve import sdk_model_spec

    setup = prepare(
        model_spec=sdk_model_spec(args.text("model")),
        cwd=cwd,
        settings=sources,
        trust=args.on("trust"),  # the harness never asks: an SDK has no prompt
        simple=args.on("simple"),
        system_prompt=system,
        append_system_prompt=append,
        mcp_servers=servers,
        resume=resume,
        continue_last=continue_last,
        only_tools=_only_tools(args),
        extra_tools=(structured,) if structured is not None else (),
        new_session_id=new_id,
    )
    if args.on("fork_session"):  # before the fork writes a transcript of its own
        from hands.agent.transcript import find
        from hands.cli.sdk.rewind import inherit_checkpoints

        parent = find(setup.session.home, setup.cwd, session_id=resume).stem
        inherit_checkpoints(setup.session, parent)
    _resume_at(args, setup, resume=resume, continue_last=continue_last)
    setup.model = configured(setup.model, model_choices, resolve=_resolve)
    announce_warnings(setup.settings)
    for warning in setup.mcp_warnings:
        print(f"hands: warning: {warning}", file=sys.stderr)
    if args.on("no_persistence"):
        from hands.cli.sdk.unsaved import UnsavedTranscript

        old = setup.writer
        setup.writer = UnsavedTranscript(old.path, session_id=old.session_id, cwd=old.cwd)
    if args.on("strict_mcp_config"):
        for name, conn in list(setup.mcp.connections.items()):
            if conn.config.scope != "dynamic":
                del setup.mcp.connections[name]
    return _run(args, setup, model_choices, max_turns, budget, structured, first_line)


class ManagedSettingsMissing(Exception):
    """``--managed-settings-in-initialize`` and no usable ``managedSettings`` came."""


def _managed_in_initialize(args: SdkArgs, managed: str | None) -> tuple[bytes | None, str | None]:
    """The first line, read now, and the policy settings its ``initialize`` delivers.

    Only with ``--managed-settings-in-initialize`` (the settings as JSON); else
    ``(None, managed)``. Without them no session starts (:class:`ManagedSettingsMissing`).
    """
    if not args.on("managed_in_initialize"):
        return None, managed
    if not args.on("await_initialize"):
        raise UsageError("--managed-settings-in-initialize needs --await-initialize")
    if managed is not None:
        raise UsageError(
            "--managed-settings-in-initialize cannot be combined with --managed-settings"
        )
    import json

    from hands.cli.sdk.first_line import read_early

    line = sys.stdin.buffer.readline()
    delivered = read_early(line).managed_settings
    if delivered is None:
        raise ManagedSettingsMissing(
            "--managed-settings-in-initialize: the first input line was no initialize "
            "request with a managedSettings object (input ended, or it had none); no "
            "session starts without the managed settings"
        )
    return line, json.dumps(delivered)


def _resume_at(
    args: SdkArgs, setup: AgentSetup, *, resume: str | None, continue_last: bool
) -> None:
    """``--resume-session-at`` (and ``--resume-drops-turn``): the conversation cut there.

    The transcript goes on from the cut conversation, its messages with their uuids.
    """
    at, drops = args.text("resume_session_at"), args.text("resume_drops_turn")
    if at is None:
        if drops is not None:
            raise UsageError("--resume-drops-turn needs --resume-session-at")
        return
    if not (resume or continue_last):
        raise UsageError("--resume-session-at needs --resume or --continue")
    from hands.agent.transcript import find, load
    from hands.cli.sdk.resume_at import cut

    earlier = load(find(setup.session.home, setup.cwd, session_id=resume))
    kept = cut(earlier, at, drops_turn=drops)
    setup.history = kept
    setup.writer.boundary([], trigger="resume_at", tokens_before=0)
    for message, shown in zip(kept, earlier.message_ids, strict=False):
        setup.writer.message(message, uuids=shown)


def _resolve(name: str | None) -> Model:
    from hands.models.resolve import resolve_model, sdk_model_spec

    return resolve_model(sdk_model_spec(name))


def _run(
    args: SdkArgs,
    setup: AgentSetup,
    model_choices: ModelChoices,
    max_turns: float | None,
    budget: float | None,
    structured: StructuredOutputTool | None,
    first_line: bytes,
) -> int:
    from importlib.metadata import version

    import anyio

    from hands.cli.sdk.channel import ControlChannel
    from hands.cli.sdk.rewind import checkpointing_asked
    from hands.cli.sdk.session import SdkOptions, SdkSession

    def resolve(name: str | None) -> Model:
        return configured(_resolve(name), model_choices, resolve=_resolve)

    session = SdkSession(
        setup,
        SdkOptions(
            permission_mode=setup.harness.mode,
            max_turns=int(max_turns) if max_turns is not None else None,
            max_budget_usd=budget,
            ask_sdk=args.text("permission_prompt_tool") == "stdio",
            allow_bypass=args.on("allow_skip_permissions"),
            partial_messages=args.on("partial"),
            structured=structured,
            resolve_model=resolve,
            hands_version=version("hands"),
            hook_events=args.on("hook_events"),
            report_state=os.environ.get("CLAUDE_CODE_SDK_READS_SESSION_STATE", "") not in ("", "0"),
            replay_user_messages=args.on("replay"),
            file_checkpointing=checkpointing_asked(),
            effort=model_choices.effort,
            betas=model_choices.betas,
            managed_in_initialize=args.on("managed_in_initialize"),
        ),
        ControlChannel(),
    )
    setup.mcp.sdk_link = _link(session)
    session.report_hooks()

    async def go() -> int:
        return await session.run(sys.stdin.buffer, first_line=first_line)

    return anyio.run(go)


def _link(session: SdkSession) -> SdkLink:
    async def send(name: str, message: dict[str, Any]) -> dict[str, Any] | None:
        answer = await session.channel.request(
            "mcp_message", {"server_name": name, "message": message}
        )
        reply: object = answer.get("mcp_response")
        return cast(dict[str, Any], reply) if isinstance(reply, dict) else None

    return send
