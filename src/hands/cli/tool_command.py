"""``hands tool NAME JSON``: one call through the whole pipeline, from the shell.

Parsed with :mod:`argparse` rather than typer: building the whole typer command tree
costs more than the rest of a Read, and this command is the one scripts call in loops.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from hands.cli.args import UsageError, cli_sources, read_stdin, resolve_cwd
from hands.core.context import PERMISSION_MODES
from hands.core.outcome import error_message

DESCRIPTION = "Run one tool call through the whole pipeline and print its result."


def parser() -> argparse.ArgumentParser:
    """The argument parser of ``hands tool``."""
    p = argparse.ArgumentParser(prog="hands tool", description=DESCRIPTION)
    p.add_argument("name", help="Tool name, e.g. Read.")
    p.add_argument(
        "input_json", metavar="JSON", nargs="?", default="{}", help="The input ('-': stdin)."
    )
    p.add_argument(
        "--session",
        metavar="NAME",
        help="Keep what Read saw between calls under this name, so a Read then an Edit work "
        "across two invocations.",
    )
    p.add_argument("--cwd", type=Path, help="Working directory (default: current directory).")
    p.add_argument("--json", action="store_true", dest="as_json", help="Print the block as JSON.")
    modes = ", ".join(PERMISSION_MODES)
    p.add_argument("--permission-mode", metavar="MODE", help=f"One of {modes}.")
    p.add_argument("--simple", action="store_true", help="Offer only Bash, Read and Edit.")
    for flag, alias, what in (
        ("--allowedTools", "--allowed-tools", "Allow rules, e.g. 'Bash(git log:*)'"),
        ("--disallowedTools", "--disallowed-tools", "Deny rules; a bare name removes the tool"),
    ):
        p.add_argument(flag, alias, action="append", metavar="RULES", help=f"{what} (repeatable).")
    p.add_argument("--settings", help="A settings file, or a JSON object.")
    p.add_argument("--add-dir", action="append", type=Path, help="Another working directory.")
    p.add_argument(
        "--trust",
        action="store_true",
        help="Trust this folder for this call: its hooks, servers and loosening settings count.",
    )
    return p


def main(argv: Sequence[str]) -> int:
    """Run ``hands tool`` with ``argv`` (the words after ``tool``); the exit status."""
    p = parser()
    args = p.parse_args(list(argv))
    text = args.input_json
    if text == "-":
        text = read_stdin()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        p.error(f"the input is not valid JSON: {exc}")
    if not isinstance(data, dict):
        p.error('the input must be a JSON object, e.g. \'{"file_path": "a.py"}\'')
    from hands.cli.env_check import check_environment

    check_environment()
    try:
        where = resolve_cwd(args.cwd)
        sources = cli_sources(
            where,
            args.permission_mode,
            args.allowedTools,
            args.disallowedTools,
            args.settings,
            args.add_dir,
        )
        if args.session is not None:
            from hands.cli.one_call import check_session_name

            check_session_name(args.session)
    except UsageError as exc:
        p.error(str(exc))
    from hands.cli.one_call import run_one

    block = run_one(
        name=args.name,
        data=data,  # pyright: ignore[reportUnknownArgumentType]
        cwd=where,
        simple=args.simple,
        settings=sources,
        trust=args.trust,
        session_name=args.session,
    )
    from hands.core.terminal_text import json_escaped, neutralise

    if args.as_json:
        print(json_escaped(json.dumps(block.to_wire(), ensure_ascii=False)))
    else:
        if block.is_error:
            print(neutralise(error_message(block.text)), file=sys.stderr)
        else:
            print(neutralise(block.text))
    return 1 if block.is_error else 0
