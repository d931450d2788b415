"""Shell reads outside the working directories: asked about like a Read tool call would be.

A command that reads a file outside the working and additional directories (after its
symlinks are resolved), a word whose value is not known where a path is read, and a
recursive walk that follows a symlink out all need approval, whatever rule allows the
command itself, unless a ``Read(...)`` allow rule covers every such path. Only
``bypassPermissions`` skips this check (the engine decides that mode first).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hands.core.decision import PermissionDecision
from hands.core.subject import READ_RULES
from hands.permissions.paths import inside

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.permissions.matching import RuleIndex
    from hands.permissions.subject import CallSubject


def outside_read(
    index: RuleIndex, call: CallSubject, ctx: ToolContext, dirs: tuple[str, ...], tool_name: str
) -> PermissionDecision | None:
    """An ask when the command reads outside ``dirs`` and no Read allow rule covers it."""
    outside = [(prog, p) for prog, p in call.shell_reads if not inside(p, dirs)]
    why: list[str] = []
    if outside:
        paths = tuple(dict.fromkeys(p for _, p in outside))
        rules = index.family_rules("allow", READ_RULES)
        if index.allowed_path(rules, paths, ctx) is None:
            why.extend(f"{prog} reads {p}" for prog, p in dict.fromkeys(outside))
    why.extend(
        f"{prog} reads {word}, a path the analysis cannot resolve"
        for prog, word in call.unresolved_reads
    )
    for prog, root in call.following_roots:
        if not inside(root, dirs):
            continue  # already reported as an outside read
        from hands.permissions.reads import links_leaving  # a shell command's analysis

        link = links_leaving(root, lambda p: inside(p, dirs))
        if link is not None:
            why.append(f"{prog} follows symlinks below {root} ({link} leads outside)")
    if not why:
        return None
    listed = "; ".join(dict.fromkeys(why))
    return PermissionDecision(
        behavior="ask",
        message=(
            f"{tool_name}({call.display}) reads outside the working directories ({listed}); "
            "reading there needs approval, as it would for the Read tool."
        ),
        reason="read outside the working directories",
        hook_can_approve=True,
    )


__all__ = ["outside_read"]
