"""``/permissions`` as an editor: add or remove a rule or a directory, in the file chosen.

``/permissions add allow|ask|deny RULE [--to user|project|local]``,
``/permissions remove allow|ask|deny RULE [--to ...]`` and
``/permissions add-dir PATH [--to ...]``. A rule is checked before anything is written;
the change holds in this session at once. With no argument the rules in force are shown
(the REPL's own table).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast, get_args

from rich.text import Text

from hands.config.rule_texts import RuleBehavior, RuleOrigin
from hands.config.settings_edit import SCOPES, Target, add_entry, remove_entry, settings_file
from hands.permissions.rules import PermissionRule, parse_rule

if TYPE_CHECKING:
    from hands.cli.repl import Repl
    from hands.cli.session_setup import AgentSetup

USAGE = (
    "/permissions add allow|ask|deny RULE [--to user|project|local], "
    "/permissions remove allow|ask|deny RULE [--to ...], /permissions add-dir PATH [--to ...]"
)
_TO = re.compile(r"\s--to\s+(\S+)\s*$")
_BEHAVIORS = get_args(RuleBehavior)


@dataclass(frozen=True, kw_only=True, slots=True)
class Edit:
    """One edit asked for."""

    action: str
    """``add``, ``remove`` or ``add-dir``."""
    behavior: RuleBehavior | None
    text: str
    """The rule, or the directory."""
    target: Target | None
    """The file chosen (``None``: local for an addition, any for a removal)."""


def parse_edit(arg: str) -> Edit | str:
    """The edit ``arg`` asks for, or what is wrong with it."""
    target: Target | None = None
    found = _TO.search(" " + arg)
    if found is not None:
        if found.group(1) not in SCOPES:
            return f"--to takes user, project or local, not {found.group(1)!r}."
        target = cast(Target, found.group(1))
        arg = (" " + arg)[: found.start()].strip()
    action, _, rest = arg.strip().partition(" ")
    rest = rest.strip()
    if action == "add-dir":
        return Edit(action=action, behavior=None, text=rest, target=target) if rest else USAGE
    if action not in ("add", "remove"):
        return USAGE
    behavior, _, rule = rest.partition(" ")
    if behavior not in _BEHAVIORS or not rule.strip():
        return USAGE
    return Edit(
        action=action, behavior=cast(RuleBehavior, behavior), text=rule.strip(), target=target
    )


def check_rule(text: str, behavior: RuleBehavior, origin: RuleOrigin) -> PermissionRule | str:
    """The rule parsed, or why it cannot be used."""
    from hands.pipeline.pool import BuiltinGrammar

    parsed = parse_rule(text, behavior, origin, grammar=BuiltinGrammar())
    if isinstance(parsed, PermissionRule):
        return parsed
    return f"Not added: {parsed.message}."


def _file(setup: AgentSetup, target: Target) -> Path:
    users = [s.path for s in setup.settings.sources if s.scope == "userSettings" and s.path]
    return settings_file(target, cwd=setup.cwd, home=setup.settings.home, existing=users)


def _origin(setup: AgentSetup, target: Target, path: Path) -> RuleOrigin:
    return RuleOrigin(scope=SCOPES[target], label=str(path), root=setup.cwd, path=path)


async def run(repl: Repl, arg: str) -> bool:
    """Make the edit; False (the REPL shows the rules) when there is no argument."""
    if not arg:
        return False
    edit = parse_edit(arg)
    ok, said = (False, edit) if isinstance(edit, str) else await apply(repl, edit)
    repl.console.print(Text(said, style="green" if ok else "red"))
    return True


async def apply(repl: Repl, edit: Edit) -> tuple[bool, str]:
    """Write the edit and put it in force; whether it was made, and what happened."""
    setup = repl.setup
    try:
        if edit.action == "add-dir":
            return await _add_dir(repl, edit)
        assert edit.behavior is not None
        if edit.action == "add":
            return _add_rule(setup, edit.behavior, edit.text, edit.target or "local")
        return _remove_rule(setup, edit.behavior, edit.text, edit.target)
    except OSError as exc:
        return False, f"Not changed: {exc}"


def _add_rule(
    setup: AgentSetup, behavior: RuleBehavior, text: str, target: Target
) -> tuple[bool, str]:
    path = _file(setup, target)
    rule = check_rule(text, behavior, _origin(setup, target, path))
    if isinstance(rule, str):
        return False, rule
    if not add_entry(path, behavior, rule.text):
        return False, f"{behavior} {rule.text} is already in {path}."
    setup.engine.add_rules([rule])
    note = ""
    if target != "user" and behavior == "allow" and not setup.settings.trusted:
        note = " (this folder is not trusted: later sessions ignore it until it is)"
    return True, f"Added {behavior} {rule.text} to {path}; in force now{note}."


def _remove_rule(
    setup: AgentSetup, behavior: RuleBehavior, text: str, target: Target | None
) -> tuple[bool, str]:
    targets: list[Target] = [target] if target is not None else ["local", "project", "user"]
    for t in targets:
        path = _file(setup, t)
        if remove_entry(path, behavior, text):
            gone = [
                r
                for r in setup.engine.rules
                if r.text == text and r.behavior == behavior and r.origin.label == str(path)
            ]
            setup.engine.remove_rules(gone)
            return True, f"Removed {behavior} {text} from {path}; no longer in force."
    where = ", ".join(str(_file(setup, t)) for t in targets)
    return False, f"No {behavior} rule {text} in {where}."


async def _add_dir(repl: Repl, edit: Edit) -> tuple[bool, str]:
    from hands.cli.repl_add_dir import add_directory, already, directory_of

    setup = repl.setup
    found = directory_of(edit.text, cwd=setup.cwd, home=setup.settings.home)
    if isinstance(found, str):
        return False, found
    path = _file(setup, edit.target or "local")
    add_entry(path, "additionalDirectories", str(found))
    if not already(setup, found):
        await add_directory(setup, found)
    return True, f"Added {found} to the working directories in {path}."
