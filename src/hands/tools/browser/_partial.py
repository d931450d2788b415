"""Only what changed: the parts of a snapshot that differ from the tab's previous one.

A snapshot is a tree written one element a line, children indented under their parent.
After an action that changed part of a page (a list item, a message), the model needs
the changed subtrees, not the page again: each changed line is shown with everything
under it and the chain of its ancestors for context (a changed text with its element),
a removal shows its parent's subtree, and each run of lines left out becomes one
``- … (unchanged)`` line at its depth. Refs belong to elements, so every ref of the
left-out lines still holds.

When most of the page changed, the page is small, or the snapshot was cut, the full
snapshot is clearer and :func:`partial_view` returns None.
"""

from __future__ import annotations

from difflib import SequenceMatcher

MIN_LINES = 10
"""A page of fewer lines is shown whole."""
MAX_LINES = 5_000
"""Pages longer than this are not compared (the comparison would cost more than it saves)."""
MAX_SHARE = 0.5
"""A partial view showing more than this share of the lines is shown whole instead."""
UNCHANGED = "… (unchanged)"


def partial_view(old: str, new: str) -> str | None:
    """The changed parts of ``new`` against ``old``, or None when the whole is better."""
    before, after = old.splitlines(), new.splitlines()
    if not MIN_LINES <= len(after) <= MAX_LINES or len(before) > MAX_LINES:
        return None
    depths = [_depth(line) for line in after]
    roots = _changed_roots(before, after, depths)
    if not roots:
        return None
    keep: set[int] = set()
    for root in roots:
        keep.update(_subtree(root, depths))
        keep.update(_ancestors(root, depths))
    if len(keep) > MAX_SHARE * len(after):
        return None
    out: list[str] = []
    skipping = False
    for i, line in enumerate(after):
        if i in keep:
            out.append(line)
            skipping = False
        elif not skipping:
            out.append("  " * depths[i] + "- " + UNCHANGED)
            skipping = True
    return "\n".join(out)


def _changed_roots(before: list[str], after: list[str], depths: list[int]) -> list[int]:
    """Lines of ``after`` whose subtrees hold every change."""
    roots: set[int] = set()
    matcher = SequenceMatcher(None, before, after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            for j in range(j1, j2):  # a text line is shown with the element it belongs to
                parent = _parent_at(j, depths[j], depths) if _is_text(after[j]) else None
                roots.add(j if parent is None else parent)
        elif tag == "delete":
            depth = min(_depth(line) for line in before[i1:i2])
            parent = _parent_at(j1, depth, depths)
            if parent is None:
                return []  # a top-level removal: there is no subtree to show it in
            roots.add(parent)
    ordered = sorted(roots)
    kept: list[int] = []
    end = -1
    for root in ordered:  # drop roots inside an earlier root's subtree
        if root < end:
            continue
        kept.append(root)
        end = _subtree(root, depths).stop
    return kept


def _is_text(line: str) -> bool:
    return line.lstrip(" ").startswith("- text: ")


def _depth(line: str) -> int:
    return (len(line) - len(line.lstrip(" "))) // 2


def _subtree(root: int, depths: list[int]) -> range:
    end = root + 1
    while end < len(depths) and depths[end] > depths[root]:
        end += 1
    return range(root, end)


def _ancestors(index: int, depths: list[int]) -> list[int]:
    found: list[int] = []
    depth = depths[index]
    for i in range(index - 1, -1, -1):
        if depths[i] < depth:
            found.append(i)
            depth = depths[i]
            if depth == 0:
                break
    return found


def _parent_at(position: int, depth: int, depths: list[int]) -> int | None:
    """The line that was the parent of lines of ``depth`` removed before ``position``."""
    for i in range(min(position, len(depths)) - 1, -1, -1):
        if depths[i] < depth:
            return i
    return None
