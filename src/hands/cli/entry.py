"""The ``hands`` script: ``hands tool`` starts without loading the full command line."""

from __future__ import annotations

import logging
import os
import sys

BROKEN_PIPE_EXIT = 141
"""The exit code when whoever read standard output stopped reading (128 + SIGPIPE)."""


def main() -> None:
    """Entry point of the ``hands`` script.

    SIGPIPE stays ignored: a hook or server that exits without reading its input must
    not end hands. A closed standard output (``hands tools | head``) ends it quietly.
    """
    from hands.cli.shutdown import skip_final_sweep

    skip_final_sweep()  # first registered, so the last exit handler to run
    # text that is not valid Unicode (a lone surrogate in a model's output) is shown
    # escaped rather than ending the session with an encoding error
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    # a library's log warnings (pypdf on a damaged PDF) are not the user's output, nor
    # the MCP client's tracebacks for a server's broken messages: hands reports the
    # failed call itself (``--verbose`` shows them)
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    logging.getLogger("mcp").setLevel(logging.CRITICAL)
    from hands.cli import startup
    from hands.errors import HandsError

    startup.begin()
    sys.argv[1:] = flag_values(sys.argv[1:])
    from hands.cli.home_check import home_problem, needs_home

    if needs_home(sys.argv[1:]):
        problem = home_problem()
        if problem is not None:
            print(f"hands: {problem}", file=sys.stderr)
            raise SystemExit(2)
        from hands.cli.dataclass_code import install
        from hands.core.limits import hands_home

        install(hands_home())  # the classes the command makes from here on compile once
    try:
        if sys.argv[1:2] == ["tool"]:
            from hands.cli.tool_command import main as tool_main

            raise SystemExit(tool_main(sys.argv[2:]))
        if _starts_a_session(sys.argv[1:]):
            from pathlib import Path

            from hands.agent.git_status import start_git_summary

            start_git_summary(Path.cwd())  # git runs while the session is set up
        if is_sdk_invocation(sys.argv[1:]):  # an Agent SDK program (or stream-json input)
            from hands.cli.sdk.main import main as sdk_main

            raise SystemExit(sdk_main(sys.argv[1:]))
        raise SystemExit(_run_app())
    except HandsError as exc:
        print(f"hands: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    except BrokenPipeError:
        _drop_stdout()
        raise SystemExit(BROKEN_PIPE_EXIT) from None


def _run_app() -> int:
    """The typer application; a usage error is one line naming the command, exit 2."""
    import typer
    from typer._click.exceptions import ClickException, UsageError  # typer vendors click

    from hands.cli.app import app

    try:
        code = app(standalone_mode=False, prog_name="hands")
    except UsageError as exc:
        if not exc.format_message():  # a group given no command: its help is shown
            return 2
        command = exc.ctx.command_path if exc.ctx is not None else "hands"
        print(f"{command}: {exc.format_message()} ({command} -h for help)", file=sys.stderr)
        return 2
    except ClickException as exc:
        print(f"hands: {exc.format_message()}", file=sys.stderr)
        return exc.exit_code
    except typer.Abort:
        print("hands: stopped", file=sys.stderr)
        return 1
    return code if isinstance(code, int) else 0


def _starts_a_session(args: list[str]) -> bool:
    """``hands -p …`` or the REPL with no arguments: a session whose prompt needs git."""
    return (
        not args
        or "-p" in args
        or "--print" in args
        or "--input-format=stream-json" in args
        or "--input-format" in args
    )


def is_sdk_invocation(argv: list[str]) -> bool:
    """Whether the command line asks for stream-json input (as every SDK does).

    Answered here, without loading the SDK's flag table, which only an SDK run needs.
    """
    for i, arg in enumerate(argv):
        if arg == "--input-format=stream-json":
            return True
        if arg == "--input-format" and argv[i + 1 : i + 2] == ["stream-json"]:
            return True
    return False


def _drop_stdout() -> None:
    """Point standard output at the null device, so the final flush cannot fail again."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


_ON = ("true", "1", "yes", "on")
_OFF = ("false", "0", "no", "off")


def flag_values(argv: list[str]) -> list[str]:
    """Flags as people write them: ``--simple true``, and ``-r`` with no id.

    ``--simple true`` / ``--simple=false`` mean the flag is there or not; a ``--resume``
    (``-r``) followed by another option, or by nothing, has no id.
    """
    out: list[str] = []
    skip = False
    for i, arg in enumerate(argv):
        if skip:
            skip = False
            continue
        if arg == "--":
            return out + argv[i:]
        resumes_session = argv[:1] != ["batch"]  # ``hands batch --resume`` is a plain flag
        if (
            resumes_session
            and arg in ("-r", "--resume")
            and (i + 1 == len(argv) or argv[i + 1].startswith("-"))
        ):
            out.append("--resume=")
            continue
        name, eq, value = arg.partition("=")
        if name != "--simple":
            out.append(arg)
            continue
        if not eq and i + 1 < len(argv) and argv[i + 1].lower() in _ON + _OFF:
            value, skip = argv[i + 1], True
        if value.lower() not in _OFF:
            out.append("--simple")
    return out
