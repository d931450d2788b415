"""Read's size policy on real large files: what the model gets from each policy.

Policies compared side by side on the same files:

- ``hands``: lines cut at 2,000 characters, 100,000 characters per result, a partial
  view (never an error) whose last line says which offset comes next;
- ``hands + 2,000 lines``: the same with a 2,000-line window (hands' earlier default);
- ``Claude Code 2.1.332`` (modelled from its observed behaviour): a file over 256 KB is an
  error with no content unless ``allow_large`` is set; otherwise whole lines, never cut,
  up to 25,000 tokens, then a partial view naming the next offset; a page whose lines
  alone pass 25,000 tokens is an error.

For each file and policy: what the first call shows (share of the file's characters,
tokens at 4 characters a token), whether the model is told how to go on, how many calls
paging by the given offsets takes to see every line, and how many characters no call
shows (parts of cut lines; lines too long to fit a page). The hands rows run hands' own
Read code; the Claude Code rows apply its rules to the same lines.

    python benchmarks/read_policy.py [FILE ...]
"""

from __future__ import annotations

import argparse
import importlib.util
import tempfile
from dataclasses import dataclass
from pathlib import Path

from hands.tools.file._limits import DEFAULT_LINES, MAX_LINE_CHARS, MAX_READ_CHARS
from hands.tools.file._text_reader import read_window

CHARS_PER_TOKEN = 4
LINE_WINDOW = 2_000
CC_MAX_BYTES = 256 * 1024
CC_MAX_TOKENS = 25_000


@dataclass(frozen=True, kw_only=True)
class Outcome:
    first_share: float
    first_tokens: int
    says_next: bool
    calls: int
    unseen_chars: int


def _site(module: str, *parts: str) -> Path | None:
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin).parent.joinpath(*parts)
    return path if path.is_file() else None


def default_files(scratch: Path) -> list[Path]:
    """Large Python modules, a minified script, JSON, a word list and a long log."""
    found = [
        _site("pydantic", "json_schema.py"),
        _site("pydantic_ai", "messages.py"),
        _site("importlinter", "ui", "static", "viz-standalone.js"),
        _site("google.protobuf", "descriptor_pb2.py"),
    ]
    log = scratch / "service.log"
    with log.open("w") as f:
        for i in range(60_000):
            level = "ERROR" if i % 97 == 0 else "INFO"
            f.write(f"2026-01-01T00:{i // 3600 % 60:02d}:{i % 60:02d}Z {level} worker-{i % 8} ")
            f.write(f"handled request {i} in {i % 250} ms path=/api/v1/items/{i * 7}\n")
    data = scratch / "records.json"
    data.write_text(
        "[\n"
        + ",\n".join(
            f'  {{"id": {i}, "name": "item {i}", "tags": ["a", "b"]}}' for i in range(20_000)
        )
        + "\n]\n"
    )
    words = scratch / "words.txt"
    words.write_text("".join(f"entry-{i:06d}\n" for i in range(6_000)))
    return [p for p in (*found, data, words, log) if p is not None]


def hands_policy(path: Path, *, default_lines: int) -> Outcome:
    total = path.stat().st_size
    start, calls, shown_chars, first_tokens, says_next = 1, 0, 0, 0, False
    cut = 0
    while True:
        window = read_window(
            path,
            start=start,
            limit=default_lines,
            max_chars=MAX_READ_CHARS,
            line_chars=MAX_LINE_CHARS,
        )
        calls += 1
        text_chars = sum(len(line) for line in window.lines)
        if calls == 1:
            first_tokens = (text_chars + 8 * len(window.lines)) // CHARS_PER_TOKEN
            shown_chars = text_chars
            # text_content ends a view that stops early with the offset to go on from
            says_next = True
        cut += window.cut_lines
        if not window.lines or window.bytes_after == 0:
            break
        start += len(window.lines)
    raw = path.read_text(errors="replace").splitlines()
    unseen = sum(max(0, len(line) - MAX_LINE_CHARS) for line in raw)
    return Outcome(
        first_share=min(1.0, shown_chars / max(total, 1)),
        first_tokens=first_tokens,
        says_next=says_next,
        calls=calls,
        unseen_chars=unseen,
    )


def claude_policy(path: Path) -> Outcome:
    raw = path.read_text(errors="replace").splitlines()
    size = path.stat().st_size
    costs = [(len(line) + 8) // CHARS_PER_TOKEN + 1 for line in raw]
    calls = 1 if size > CC_MAX_BYTES else 0  # the refused first call
    unseen = 0
    first_tokens = 0
    first_chars = 0
    i = 0
    while i < len(raw):
        if costs[i] > CC_MAX_TOKENS:  # one line is more than a page: Read refuses it
            unseen += len(raw[i])
            calls += 1
            i += 1
            continue
        used, j = 0, i
        while j < len(raw) and used + costs[j] <= CC_MAX_TOKENS:
            used += costs[j]
            j += 1
        calls += 1
        if calls == 1:
            first_tokens = used
            first_chars = sum(len(line) for line in raw[i:j])
        i = j
    return Outcome(
        first_share=first_chars / max(size, 1),
        first_tokens=first_tokens,
        says_next=True,
        calls=calls,
        unseen_chars=unseen,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        files = args.files or default_files(Path(tmp))
        print(
            f"{'file':<28} {'size':>9} {'lines':>7}  {'policy':<20} {'1st call':>8} "
            f"{'tokens':>7} {'next?':>5} {'calls':>5} {'unseen chars':>12}"
        )
        for path in files:
            size = path.stat().st_size
            lines = len(path.read_text(errors="replace").splitlines())
            rows = [
                ("hands", hands_policy(path, default_lines=DEFAULT_LINES)),
                ("hands + 2,000 lines", hands_policy(path, default_lines=LINE_WINDOW)),
                ("Claude Code 2.1.332", claude_policy(path)),
            ]
            for n, (label, out) in enumerate(rows):
                name = path.name[:28] if n == 0 else ""
                head = f"{name:<28} {size:>9,} {lines:>7,}" if n == 0 else " " * 46
                print(
                    f"{head}  {label:<20} {out.first_share:>8.1%} {out.first_tokens:>7,} "
                    f"{'yes' if out.says_next else 'no':>5} {out.calls:>5} "
                    f"{out.unseen_chars:>12,}"
                )
        print(
            f"\nTokens are characters / {CHARS_PER_TOKEN}. 'unseen chars': never shown by "
            f"any Read without allow_large. Calls: paging by the offsets each policy "
            f"names until every line was shown."
        )


if __name__ == "__main__":
    main()
