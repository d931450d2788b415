"""The ``hands`` command: run one tool, list tools, run a prompt, or the offline demo."""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from hands.context import PERMISSION_MODES, PermissionMode

app = typer.Typer(
    add_completion=False,
    no_args_is_help=False,
    invoke_without_command=True,
    help="The agent's hands: Claude-Code-compatible tools, permissions and an agent loop.",
    pretty_exceptions_enable=False,
)

CwdOption = Annotated[
    Path | None,
    typer.Option("--cwd", help="Working directory for the tools (default: current directory)."),
]
ModeOption = Annotated[
    str,
    typer.Option(
        "--permission-mode", help="default, acceptEdits, plan, bypassPermissions, dontAsk."
    ),
]
SimpleOption = Annotated[
    bool, typer.Option("--simple", help="Offer only Bash, Read and Edit (also HANDS_SIMPLE=1).")
]


def _mode(value: str) -> PermissionMode:
    if value not in PERMISSION_MODES:
        raise typer.BadParameter(
            f"unknown permission mode {value!r}; choose one of {', '.join(PERMISSION_MODES)}"
        )
    return value  # type: ignore[return-value]


def _cwd(value: Path | None) -> Path:
    path = (value or Path.cwd()).expanduser().resolve()
    if not path.is_dir():
        raise typer.BadParameter(f"--cwd {path} is not a directory")
    return path


@app.callback()
def main_command(
    ctx: typer.Context,
    prompt: Annotated[
        str | None, typer.Option("-p", "--print", help="Run this prompt non-interactively.")
    ] = None,
    model: Annotated[
        str | None, typer.Option("--model", help="anthropic:NAME, openai:NAME or scripted:FILE.")
    ] = None,
    cwd: CwdOption = None,
    permission_mode: ModeOption = "default",
    output_format: Annotated[
        str, typer.Option("--output-format", help="text, json or stream-json.")
    ] = "text",
    max_turns: Annotated[int | None, typer.Option("--max-turns")] = None,
    simple: SimpleOption = False,
) -> None:
    """Run a prompt with -p, or one of the commands below."""
    if ctx.invoked_subcommand is not None:
        return
    if prompt is None:
        typer.echo(ctx.get_help())
        raise typer.Exit(0)
    if output_format not in ("text", "json", "stream-json"):
        raise typer.BadParameter("--output-format must be text, json or stream-json")
    from hands.print_mode import run_print

    code = run_print(
        prompt=prompt,
        model_spec=model,
        cwd=_cwd(cwd),
        permission_mode=_mode(permission_mode),
        output_format=output_format,
        max_turns=max_turns,
        simple=simple,
    )
    raise typer.Exit(code)


@app.command("tools")
def tools_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
    simple: SimpleOption = False,
) -> None:
    """List the tool pool: name, flags and input schema."""
    from hands.config import Limits
    from hands.pool import assemble_pool
    from hands.tool_info import describe_tool

    pool = assemble_pool(simple=simple or Limits.from_env().simple)
    infos = [describe_tool(t) for t in pool]
    if as_json:
        typer.echo(json.dumps(infos, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("name", "read-only", "concurrency-safe", "aliases", "parameters")
    for info in infos:
        table.add_row(
            info["name"],
            str(info["flags"]["read_only"]),
            str(info["flags"]["concurrency_safe"]),
            ", ".join(info["aliases"]),
            ", ".join(info["input_schema"].get("properties", {})),
        )
    Console().print(table)


@app.command("tool")
def tool_command(
    name: Annotated[str, typer.Argument(help="Tool name, e.g. Read.")],
    input_json: Annotated[
        str, typer.Argument(metavar="JSON", help="The tool input as JSON.")
    ] = "{}",
    cwd: CwdOption = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the tool_result block as JSON.")
    ] = False,
    permission_mode: ModeOption = "default",
    simple: SimpleOption = False,
) -> None:
    """Run one tool call through the whole pipeline and print its result."""
    try:
        data: Any = json.loads(input_json)
    except json.JSONDecodeError as exc:
        raise typer.BadParameter(f"the input is not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise typer.BadParameter('the input must be a JSON object, e.g. \'{"file_path": "a.py"}\'')
    from hands.one_call import run_one

    block = run_one(
        name=name,
        data=data,  # type: ignore[arg-type]
        cwd=_cwd(cwd),
        permission_mode=_mode(permission_mode),
        simple=simple,
    )
    if as_json:
        typer.echo(json.dumps(block.to_wire(), ensure_ascii=False))
    else:
        stream = sys.stderr if block.is_error else sys.stdout
        print(block.text, file=stream)
    raise typer.Exit(1 if block.is_error else 0)


@app.command("demo")
def demo_command(
    keep: Annotated[
        bool, typer.Option("--keep", help="Keep the sample project afterwards.")
    ] = False,
) -> None:
    """Run a scripted session over a bundled sample project, offline and without keys."""
    from hands.demo.run import run_demo

    raise typer.Exit(run_demo(keep=keep))


def main() -> None:
    """Entry point of the ``hands`` script."""
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    from hands.errors import HandsError

    try:
        app()
    except HandsError as exc:
        print(f"hands: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
