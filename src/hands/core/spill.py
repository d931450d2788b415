"""Large results: saved to the session directory, the model gets the path and a preview."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from hands.core.limits import PREVIEW_BYTES
from hands.core.messages import ResultPart, TextBlock, ToolResultBlock
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
    encoded = text.encode("utf-8")
    preview = encoded[:PREVIEW_BYTES].decode("utf-8", errors="ignore")
    more = "\n..." if len(encoded) > PREVIEW_BYTES else ""
    return (
        "<persisted-output>\n"
        f"Output too large ({len(text):,} characters). Full output saved to: {path}\n"
        "Read it with the Read tool (offset/limit) or search it with Grep.\n\n"
        f"Preview (first {PREVIEW_BYTES:,} bytes):\n{preview}{more}\n"
        "</persisted-output>"
    )


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
