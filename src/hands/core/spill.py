"""Large results: saved to the session directory, the model gets the path and a preview."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from hands.core.limits import PREVIEW_BYTES
from hands.core.messages import ResultPart, TextBlock, ToolResultBlock
from hands.core.outcome import LEFT_OUT
from hands.core.session import Session

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")


def content_chars(content: str | Sequence[ResultPart]) -> int:
    """Characters of text in a result (images count as nothing here)."""
    if isinstance(content, str):
        return len(content)
    return sum(len(b.text) for b in content if isinstance(b, TextBlock))


def spill(content: str | Sequence[ResultPart], *, session: Session, tool_use_id: str) -> str:
    """Save the text of ``content`` to a file; return the ``<persisted-output>`` stub."""
    text = (
        content
        if isinstance(content, str)
        else "\n".join(b.text for b in content if isinstance(b, TextBlock))
    )
    directory = session.results_directory
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{_UNSAFE.sub('_', tool_use_id) or 'result'}.txt"
    _write_new(path, text)
    return persisted_stub(text, path)


def persisted_stub(text: str, path: Path) -> str:
    """The text the model gets in place of a spilled result."""
    preview, whole_lines = _preview(text)
    shown = preview.count("\n") + (0 if preview.endswith("\n") else 1)
    head = (
        f"Its first {shown:,} line{'s' if shown != 1 else ''}"
        if whole_lines
        else f"Its first {len(preview):,} characters (the first line alone is longer)"
    )
    rest = len(text) - len(preview)
    more = f"\n[{rest:,} characters more in the file]" if rest else ""
    cut = LEFT_OUT.search(text)
    where = (
        f"all that was kept of it is in {path}: {cut[1]} {cut[2]} from the middle were "
        "dropped before it was saved (at the marked line) and cannot be read "
        "back; rerun the command with its output filtered or sent to a file if you need them"
        if cut
        else f"all of it is in {path}"
    )
    return (
        "<persisted-output>\n"
        f"This result has {len(text):,} characters, more than fits in the conversation; "
        f"{where}. Page through that file with Read (offset and limit) "
        "or search it with Grep.\n\n"
        f"{head}:\n{preview.rstrip(chr(10))}{more}\n"
        "</persisted-output>"
    )


def _preview(text: str) -> tuple[str, bool]:
    """The preview: at most :data:`PREVIEW_BYTES` of ``text``; whether it is whole lines.

    It ends at the last line boundary in reach, if there is one.
    """
    encoded = text.encode("utf-8")
    if len(encoded) <= PREVIEW_BYTES:
        return text, True
    cut = encoded[:PREVIEW_BYTES].decode("utf-8", errors="ignore")
    end = cut.rfind("\n")
    if end < 0:
        return cut, False
    return cut[: end + 1], True


def _write_new(path: Path, text: str) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def fit_message_budget(
    results: Sequence[ToolResultBlock],
    *,
    budget: int,
    session: Session,
    spillable: Sequence[bool],
) -> list[ToolResultBlock]:
    """Spill the largest spillable results until all of them together fit ``budget``."""
    out = list(results)
    sizes = [content_chars(r.content) for r in out]
    total = sum(sizes)
    order = sorted(range(len(out)), key=lambda i: sizes[i], reverse=True)
    for i in order:
        if total <= budget:
            break
        if not spillable[i] or out[i].is_error:
            continue
        if sizes[i] <= PREVIEW_BYTES + 500:
            continue  # its stub would be as large as the result itself
        content = out[i].content
        stub = spill(content, session=session, tool_use_id=out[i].tool_use_id)
        extra: tuple[ResultPart, ...] = ()
        if not isinstance(content, str):
            extra = tuple(b for b in content if not isinstance(b, TextBlock))
        total -= sizes[i] - len(stub)
        out[i] = ToolResultBlock(
            tool_use_id=out[i].tool_use_id,
            content=stub if not extra else (TextBlock(text=stub), *extra),
            is_error=False,
        )
    return out
