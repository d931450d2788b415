"""The ``hands`` command: run one tool, list tools, run a prompt, or the offline demo."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from hands.cli.args import read_stdin
from hands.cli.options import (
    AddDirOption,
    AllowedToolsOption,
    CwdOption,
    DisallowedToolsOption,
    ModeOption,
    SettingsOption,
    SimpleOption,
    TrustOption,
    announce_warnings,
)
from hands.cli.options import check_settings_flag as _check_settings_flag
from hands.cli.options import cwd_of as _cwd
from hands.cli.options import load_cli_sources as _sources

app = typer.Typer(
    add_completion=False,
    no_args_is_help=False,
    invoke_without_command=True,
    help="The agent's hands: Claude-Code-compatible tools, permissions and an agent loop.",
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _show_version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"hands {version('hands')}")
        raise typer.Exit


def _logging(*, verbose: bool, debug: bool) -> None:
    if not (verbose or debug):
        return
    import logging

    logging.basicConfig(
        level=logging.DEBUG if debug else logging.INFO,
        format="hands: %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    logging.getLogger("pypdf").setLevel(logging.DEBUG if debug else logging.WARNING)
    logging.getLogger("mcp").setLevel(logging.DEBUG if debug else logging.INFO)


@app.callback()
def main_command(
    ctx: typer.Context,
    prompt: Annotated[
        str | None,
        typer.Option("-p", "--print", help="Run this prompt non-interactively ('-': stdin)."),
    ] = None,
    model: Annotated[
        str | None, typer.Option("--model", help="anthropic:NAME, openai:NAME or scripted:FILE.")
    ] = None,
    cwd: CwdOption = None,
    permission_mode: ModeOption = None,
    output_format: Annotated[
        str, typer.Option("--output-format", help="text, json or stream-json.")
    ] = "text",
    input_format: Annotated[
        str,
        typer.Option(
            "--input-format", help="text, or stream-json: user messages as JSON lines on stdin."
        ),
    ] = "text",
    max_turns: Annotated[
        int | None, typer.Option("--max-turns", min=1, help="Stop after this many model turns.")
    ] = None,
    simple: SimpleOption = False,
    allowed_tools: AllowedToolsOption = None,
    disallowed_tools: DisallowedToolsOption = None,
    settings: SettingsOption = None,
    add_dir: AddDirOption = None,
    trust: TrustOption = False,
    system_prompt: Annotated[
        str | None,
        typer.Option("--system-prompt", help="Use this instead of hands' own system prompt."),
    ] = None,
    append_system_prompt: Annotated[
        str, typer.Option("--append-system-prompt", help="Text added to the system prompt.")
    ] = "",
    mcp_config: Annotated[
        list[str] | None,
        typer.Option("--mcp-config", help="MCP servers from a JSON file or string (repeatable)."),
    ] = None,
    skip_permissions: Annotated[
        bool,
        typer.Option(
            "--dangerously-skip-permissions",
            help="Run every call without asking (the bypassPermissions mode).",
        ),
    ] = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", help="Log what hands and its libraries report to stderr.")
    ] = False,
    debug: Annotated[bool, typer.Option("--debug", help="Debug logging to stderr.")] = False,
    _version: Annotated[
        bool,
        typer.Option(
            "--version", "-V", callback=_show_version, is_eager=True, help="Print the version."
        ),
    ] = False,
    continue_last: Annotated[
        bool, typer.Option("--continue", "-c", help="Continue this project's latest session.")
    ] = False,
    resume: Annotated[
        str | None,
        typer.Option(
            "--resume",
            "-r",
            help="Resume the session with this id (no id: pick one).",
        ),
    ] = None,
) -> None:
    """Start an interactive session, run a prompt with -p, or one of the commands below."""
    if ctx.invoked_subcommand is not None:
        return
    permission_mode = _checked_formats_and_mode(
        output_format, input_format, permission_mode, skip_permissions=skip_permissions
    )
    _logging(verbose=verbose, debug=debug)
    from hands.cli.env_check import check_environment

    check_environment()
    streamed = input_format == "stream-json"
    interactive = prompt is None and sys.stdin.isatty() and not streamed
    if streamed:
        prompt = prompt or ""
    elif prompt == "-" or (prompt is None and not interactive):
        piped = read_stdin()
        if not piped.strip():
            raise typer.BadParameter("the prompt read from standard input is empty")
        prompt = piped
    from hands.cli.session_setup import prepare

    where = _cwd(cwd)
    if resume == "":
        resume = _pick_session(where, interactive=interactive)
    rules = (permission_mode, allowed_tools, disallowed_tools, settings, add_dir)
    ask_trust = None
    if interactive:
        from hands.cli.trust_question import ask_to_trust as ask_trust
    setup = prepare(
        model_spec=model,
        cwd=where,
        settings=_sources(where, *rules),
        simple=simple,
        system_prompt=system_prompt,
        append_system_prompt=append_system_prompt,
        mcp_servers=_mcp_servers(mcp_config or ()),
        resume=resume,
        continue_last=continue_last,
        interactive=prompt is None,
        trust=trust,
        ask_trust=ask_trust,
        first_prompt=None if streamed else prompt,
    )
    announce_warnings(setup.settings)
    from hands.cli.root_check import bypass_refusal

    refused = bypass_refusal(setup.settings.default_mode)
    if refused is not None:
        print(f"hands: {refused}", file=sys.stderr)
        raise typer.Exit(2)
    for warning in setup.mcp_warnings:
        print(f"hands: warning: {warning}", file=sys.stderr)
    _prune_checkpoints(setup.session.home, setup.settings.value("cleanupPeriodDays"))
    if prompt is None:
        import anyio

        from hands.cli.bypass_question import confirm_bypass

        if not confirm_bypass(setup.harness.mode, setup.settings):
            raise typer.Exit(1)

        from hands.cli.console import ShownConsole
        from hands.cli.repl import Repl, terminal_input

        repl = Repl(
            setup,
            console=ShownConsole(),
            keys=terminal_input(setup),
            permission_mode=setup.harness.mode,
        )
        code = anyio.run(repl.run)
        if repl.resume_to is not None:
            _restart_on(repl.resume_to)
        raise typer.Exit(code)
    from hands.cli.print_mode import run_print

    code = run_print(
        prompt=prompt,
        setup=setup,
        permission_mode=setup.harness.mode,
        output_format=output_format,
        max_turns=max_turns,
        streamed_input=sys.stdin if streamed else None,
    )
    raise typer.Exit(code)


def _checked_formats_and_mode(
    output_format: str, input_format: str, mode: str | None, *, skip_permissions: bool
) -> str | None:
    """Refuse formats that do not exist or do not go together; the permission mode to use."""
    if output_format not in ("text", "json", "stream-json"):
        raise typer.BadParameter("--output-format must be text, json or stream-json")
    if input_format not in ("text", "stream-json"):
        raise typer.BadParameter("--input-format must be text or stream-json")
    if input_format == "stream-json" and output_format != "stream-json":
        raise typer.BadParameter("--input-format stream-json needs --output-format stream-json")
    if not skip_permissions:
        return mode
    if mode not in (None, "bypassPermissions"):
        raise typer.BadParameter(
            "--dangerously-skip-permissions is the bypassPermissions mode; "
            f"it cannot go with --permission-mode {mode}"
        )
    return "bypassPermissions"


def _mcp_servers(values: Sequence[str]) -> dict[str, object]:
    """The ``mcpServers`` of each ``--mcp-config`` file or JSON string, merged."""
    from hands.cli.args import UsageError, mcp_config_servers

    try:
        return mcp_config_servers(values)
    except UsageError as exc:
        raise typer.BadParameter(str(exc)) from None


@app.command("help")
def help_command(ctx: typer.Context) -> None:
    """Show this help."""
    parent = ctx.parent
    typer.echo((parent or ctx).get_help())


def _restart_on(session_id: str) -> NoReturn:
    """Run ``hands`` again with the same options, resuming ``session_id`` (``/resume``)."""
    args: list[str] = []
    skip = False
    for arg in sys.argv[1:]:
        if skip:
            skip = False
            continue
        if arg in ("-c", "--continue") or arg.startswith("--resume="):
            continue
        if arg in ("-r", "--resume"):
            skip = True
            continue
        args.append(arg)
    sys.stdout.flush()
    os.execv(sys.executable, [sys.executable, "-m", "hands", *args, "--resume", session_id])


def _pick_session(where: Path, *, interactive: bool) -> str:
    """The id of the session the user picks for a bare ``--resume``."""
    from hands.cli.sessions_list import pick, summaries
    from hands.core.limits import hands_home

    if not interactive:
        raise typer.BadParameter("--resume without an id needs a terminal; give the id")
    found = summaries(hands_home(), where)[:20]
    if not found:
        raise typer.BadParameter(f"no earlier session in {where} to resume")
    chosen = pick(found)
    if chosen is None:
        raise typer.Exit(0)
    return chosen


@app.command("sessions")
def sessions_command(cwd: CwdOption = None) -> None:
    """List this project's sessions, newest first: id, time, turns, size, first prompt."""
    from hands.cli.sessions_list import describe, summaries
    from hands.core.limits import hands_home

    found = summaries(hands_home(), _cwd(cwd))
    if not found:
        typer.echo("No sessions in this project yet.")
    for summary in found:
        typer.echo(describe(summary))


@app.command("tasks")
def tasks_command(
    cwd: CwdOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List this project's tasks (or HANDS_TASK_LIST_ID's): number, status, subject."""
    from hands.cli import tasks_list
    from hands.core.limits import hands_home
    from hands.tools.planning import project_tasks

    name, tasks = project_tasks(hands_home(), _cwd(cwd))
    if as_json:
        typer.echo(tasks_list.as_json(name, tasks))
    else:
        from hands.cli.console import console_for

        tasks_list.show(console_for(), name, tasks)


tools_app = typer.Typer(help="The tool pool.", invoke_without_command=True, no_args_is_help=False)
app.add_typer(tools_app, name="tools")


@tools_app.callback()
def tools_command(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
    simple: SimpleOption = False,
) -> None:
    """List the tool pool: name, flags and input schema."""
    if ctx.invoked_subcommand is not None:
        return
    from hands.cli.tool_info import describe_tool
    from hands.core.limits import Limits
    from hands.pipeline.pool import pool_for

    pool = pool_for(simple=simple or Limits.from_env().simple)
    infos = [describe_tool(t) for t in pool]
    from hands.tools.browser import pool_note

    note = pool_note(pool.names)
    if note:
        typer.echo(f"hands: {note}", err=True)
    if as_json:
        typer.echo(json.dumps(infos, indent=2))
        return
    header = ("name", "read-only", "concurrency-safe", "aliases", "parameters")
    rows = [
        (
            info["name"],
            str(info["flags"]["read_only"]),
            str(info["flags"]["concurrency_safe"]),
            ", ".join(info["aliases"]),
            ", ".join(info["input_schema"].get("properties", {})),
        )
        for info in infos
    ]
    if not sys.stdout.isatty():  # a pipe or file gets whole names, one tool a line
        for row in (header, *rows):
            typer.echo("\t".join(row))
        return
    from rich.table import Table

    from hands.cli.console import console_for

    table = Table(*header)
    for row in rows:
        table.add_row(*row)
    console_for().print(table)


@app.command(
    "tool",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
    add_help_option=False,
)
def tool_command(ctx: typer.Context) -> None:
    """Run one tool call through the whole pipeline and print its result."""
    from hands.cli.tool_command import main as tool_main

    raise typer.Exit(tool_main(ctx.args))


from hands.cli.mcp import mcp_app  # noqa: E402 - light: the SDK loads per command

app.add_typer(mcp_app, name="mcp")

from hands.cli.search import search_command  # noqa: E402 - light imports only

tools_app.command("search")(search_command)

from hands.cli.trust import trust_command  # noqa: E402 - light imports only

app.command("trust")(trust_command)

permissions_app = typer.Typer(help="Inspect permission decisions.", no_args_is_help=True)
app.add_typer(permissions_app, name="permissions")


@permissions_app.command("check")
def permissions_check_command(
    tool_name: Annotated[str | None, typer.Argument(metavar="TOOL")] = None,
    input_json: Annotated[str | None, typer.Argument(metavar="JSON")] = None,
    allow: Annotated[list[str] | None, typer.Option("--allow", help="Extra allow rule.")] = None,
    ask: Annotated[list[str] | None, typer.Option("--ask", help="Extra ask rule.")] = None,
    deny: Annotated[list[str] | None, typer.Option("--deny", help="Extra deny rule.")] = None,
    mode: Annotated[str | None, typer.Option("--mode", help="Permission mode.")] = None,
    cwd: CwdOption = None,
    settings: SettingsOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
    batch: Annotated[
        bool, typer.Option("--batch", help="Read JSON lines from stdin, one decision each.")
    ] = False,
) -> None:
    """Print the decision for a tool call, and why, without running it."""
    import anyio

    from hands.cli.permissions import (
        CheckError,
        CheckRequest,
        check_call,
        format_decision,
        run_batch,
    )

    where = _cwd(cwd)
    _check_settings_flag(settings, where)
    if batch:
        if tool_name is not None or input_json is not None:
            raise typer.BadParameter("--batch reads the calls from stdin; give no TOOL or JSON")
        lines = read_stdin().splitlines()

        async def go_batch() -> list[str]:
            return list(await run_batch(lines, default_cwd=where, settings=settings))

        for line in anyio.run(go_batch):
            print(line)
        return
    if tool_name is None:
        raise typer.BadParameter("give TOOL and JSON, or --batch")
    try:
        data: Any = json.loads(input_json or "{}")
    except json.JSONDecodeError as exc:
        raise typer.BadParameter(f"the input is not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise typer.BadParameter("the input must be a JSON object")
    request = CheckRequest(
        tool=tool_name,
        input=data,  # type: ignore[arg-type]
        cwd=where,
        allow=tuple(allow or ()),
        ask=tuple(ask or ()),
        deny=tuple(deny or ()),
        mode=mode,
        settings=settings,
    )

    async def go() -> Any:
        return await check_call(request)

    try:
        decision, warnings = anyio.run(go)
    except CheckError as exc:
        raise typer.BadParameter(str(exc)) from exc
    for warning in warnings:
        print(f"hands: warning: {warning}", file=sys.stderr)
    print(format_decision(decision, as_json=as_json))


def _prune_checkpoints(home: Path, days: object) -> None:
    """Old sessions' checkpoints go, after ``cleanupPeriodDays`` (30 unless set)."""
    from hands.pipeline.checkpoints import DEFAULT_KEEP_DAYS, prune_checkpoints

    keep = days if isinstance(days, int | float) and days > 0 else DEFAULT_KEEP_DAYS
    prune_checkpoints(home, days=keep)


@app.command("batch")
def batch_command(
    tasks: Annotated[Path, typer.Argument(help="The task file (JSONL, one task per line).")],
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Results file (JSONL); default TASKS.results.jsonl."),
    ] = None,
    engine: Annotated[
        str, typer.Option("--engine", help="local (a process pool here) or ray.")
    ] = "local",
    address: Annotated[
        str | None, typer.Option("--address", help="The Ray cluster to join (ray only).")
    ] = None,
    concurrency: Annotated[
        int | None, typer.Option("--concurrency", help="Sessions at once.")
    ] = None,
    sandbox: Annotated[
        str, typer.Option("--sandbox", help="bwrap (Bash, setup and check sandboxed) or none.")
    ] = "bwrap",
    model: Annotated[
        str | None, typer.Option("--model", help="The model of tasks that name none.")
    ] = None,
    retries: Annotated[
        int, typer.Option("--retries", help="Attempts more for a task whose worker died.")
    ] = 2,
    resume: Annotated[
        bool, typer.Option("--resume", help="Skip the tasks already in the results file.")
    ] = False,
    run_dir: Annotated[
        Path | None, typer.Option("--run-dir", help="Where each task's workdir and home go.")
    ] = None,
    trust: TrustOption = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar or summary.")] = False,
    model_concurrency: Annotated[
        int | None,
        typer.Option(
            "--model-concurrency",
            help="Model requests in flight at once across all sessions (through one gateway).",
        ),
    ] = None,
) -> None:
    """Run many isolated sessions from a task file, here or on a Ray cluster."""
    from hands.cli.args import UsageError
    from hands.cli.batch import batch_main

    try:
        if engine not in ("local", "ray"):
            raise UsageError(f"--engine {engine!r}: choose local or ray")
        if sandbox not in ("bwrap", "none"):
            raise UsageError(f"--sandbox {sandbox!r}: choose bwrap or none")
        code = batch_main(
            tasks_path=tasks,
            out=out,
            engine=engine,  # type: ignore[arg-type]
            address=address,
            concurrency=concurrency,
            sandbox=sandbox,  # type: ignore[arg-type]
            model=model,
            retries=retries,
            resume=resume,
            run_dir=run_dir,
            quiet=quiet,
            trust=trust,
            model_concurrency=model_concurrency,
        )
    except UsageError as exc:
        print(f"hands: {exc}", file=sys.stderr)
        raise typer.Exit(2) from None
    raise typer.Exit(code)


@app.command("demo")
def demo_command(
    keep: Annotated[
        bool, typer.Option("--keep", help="Keep the sample project afterwards.")
    ] = False,
) -> None:
    """Run a scripted session over a bundled sample project, offline and without keys."""
    from hands.cli.demo.run import run_demo

    raise typer.Exit(run_demo(keep=keep))
