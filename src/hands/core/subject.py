"""What a tool's permission rules match: the subject a tool declares, and one call's subject.

A tool says once, on itself, what its rules are about: a path it reads or writes, a shell
command, the domain of a URL, a name, or nothing (rules then name the tool only). The
permission engine, the hooks and the rule parser read that declaration; none of them
knows a tool by its name. A tool that reads a path also obeys ``Read(...)`` rules, one
that writes a path ``Edit(...)`` rules: Claude Code's rule families.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeAlias

if TYPE_CHECKING:
    from pydantic import BaseModel

    from hands.core.context import ToolContext

SubjectKind: TypeAlias = Literal["read", "write", "command", "domain", "name"]

READ_RULES = "Read"
"""The rule family of every tool that reads a path: ``Read(...)`` rules cover them all."""
EDIT_RULES = "Edit"
"""The rule family of every tool that writes a path: ``Edit(...)`` rules cover them all."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Subject:
    """What one call touches, as its permission rules see it."""

    kind: SubjectKind
    value: str
    """The path as given, the command, the URL, or the name."""
    declared: RuleSubject
    args: str = ""
    """A name's arguments (a skill's ``args``): ``Tool(name *)`` rules match them too."""


@dataclass(frozen=True, kw_only=True, slots=True)
class RuleSubject:
    """A tool's declaration of what its permission rules match, and in which input field."""

    kind: SubjectKind
    field: str
    cwd_when_missing: bool = False
    """A path tool whose path is optional searches the working directory (Glob, Grep)."""
    shell: bool = False
    """A command the shell analyser checks sub-command by sub-command (paths, redirects)."""
    ignore_case: bool = False
    """Command patterns match regardless of case."""
    strip_slash: bool = False
    """A leading ``/`` of the name is not part of it (``/commit`` is the skill ``commit``)."""
    args_field: str = ""
    """A name tool's field of arguments, matched by ``Tool(name args*)`` rules ("" none)."""
    shares_rules_of: str = ""
    """Another tool whose rules bind this one too (a browser's navigation obeys the web
    fetch tool's ``domain:`` rules); "" for none."""

    @property
    def family(self) -> str:
        """The rule name every tool of this subject obeys besides its own ("" for none)."""
        if self.shares_rules_of:
            return self.shares_rules_of
        if self.kind == "read":
            return READ_RULES
        if self.kind == "write":
            return EDIT_RULES
        return ""

    def of(self, input: BaseModel, ctx: ToolContext) -> Subject | None:
        """The subject of one call; None when its field holds no text."""
        raw = getattr(input, self.field, None)
        if raw is None and self.cwd_when_missing:
            raw = str(ctx.cwd)
        if not isinstance(raw, str):
            return None
        args = getattr(input, self.args_field, None) if self.args_field else None
        return Subject(
            kind=self.kind,
            value=raw,
            declared=self,
            args=args.strip() if isinstance(args, str) else "",
        )


def reads_path(field: str = "file_path", *, cwd_when_missing: bool = False) -> RuleSubject:
    """The tool reads the path in ``field``: ``Read(...)`` rules and reads' auto-allow apply."""
    return RuleSubject(kind="read", field=field, cwd_when_missing=cwd_when_missing)


def writes_path(field: str = "file_path") -> RuleSubject:
    """The tool writes the path in ``field``: ``Edit(...)`` rules and protected paths apply."""
    return RuleSubject(kind="write", field=field)


def runs_command(
    field: str = "command",
    *,
    shell: bool = False,
    ignore_case: bool = False,
    shares_rules_of: str = "",
) -> RuleSubject:
    """The tool runs the command in ``field``; rules match it as ``Tool(pattern)``.

    ``shares_rules_of`` names another command tool whose rules bind this one too.
    """
    return RuleSubject(
        kind="command",
        field=field,
        shell=shell,
        ignore_case=ignore_case,
        shares_rules_of=shares_rules_of,
    )


def fetches_url(field: str = "url", *, shares_rules_of: str = "") -> RuleSubject:
    """The tool fetches the URL in ``field``; rules match its host as ``Tool(domain:host)``.

    ``shares_rules_of`` names another tool whose rules (``Other(domain:host)``, a bare
    ``Other``) bind this one as well.
    """
    return RuleSubject(kind="domain", field=field, shares_rules_of=shares_rules_of)


def names_value(field: str, *, strip_slash: bool = False, args_field: str = "") -> RuleSubject:
    """Rules match the name in ``field`` (an agent type, a skill): ``Tool(name*)``.

    With ``args_field``, ``Tool(name args*)`` rules also see the call's arguments:
    ``Tool(name *)`` covers the name with any arguments, as Bash's ``cmd *`` does.
    """
    return RuleSubject(kind="name", field=field, strip_slash=strip_slash, args_field=args_field)
