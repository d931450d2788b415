"""Property: an edit changes only the matched span, whatever the encoding and endings."""

from __future__ import annotations

from pathlib import Path

import anyio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hands.core.context import ToolContext
from hands.core.session import Session
from hands.tools.file.edit import EditInput, EditTool
from hands.tools.file.read import ReadInput, ReadTool

ENCODINGS = {
    "utf-8": (b"", "utf-8"),
    "utf-8-bom": (b"\xef\xbb\xbf", "utf-8"),
    "utf-16-le": (b"\xff\xfe", "utf-16-le"),
    "utf-16-be": (b"\xfe\xff", "utf-16-be"),
}
MARK = "\u27e6EDIT\u27e7"  # never produced by the text strategy below

pieces = st.lists(
    st.sampled_from(
        ["a", "b", " ", "é", "漢", "😀", "\u2018", "\u2019", "\u201c", "\u201d", "'", '"']
    )
    | st.text(alphabet="xyz\t", max_size=4),
    max_size=12,
).map("".join)
endings = st.sampled_from(["\n", "\r\n"])


@st.composite
def documents(draw: st.DrawFn) -> tuple[list[tuple[str, str]], int]:
    lines = draw(st.lists(st.tuples(pieces, endings), min_size=1, max_size=8))
    return lines, draw(st.integers(0, len(lines) - 1))


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    doc=documents(),
    encoding=st.sampled_from(sorted(ENCODINGS)),
    replacement=pieces,
)
def test_bytes_outside_the_edit_are_unchanged(
    tmp_path: Path, doc: tuple[list[tuple[str, str]], int], encoding: str, replacement: str
) -> None:
    lines, target = doc
    bom, codec = ENCODINGS[encoding]
    # The edited line carries a unique marker so old_string matches exactly once.
    texts = [(MARK + t if i == target else t, nl) for i, (t, nl) in enumerate(lines)]
    before = "".join(t + nl for t, nl in texts[:target])
    after = "".join(t + nl for t, nl in texts[target + 1 :])
    edited_text, edited_nl = texts[target]
    path = tmp_path / f"doc-{encoding}.txt"
    path.write_bytes(bom + "".join(t + nl for t, nl in texts).encode(codec))

    new_line = "NEW" + replacement
    ctx = ToolContext(cwd=tmp_path, session=Session(home=tmp_path / "home"))

    async def go() -> None:
        await ReadTool().call(ReadInput(file_path=str(path)), ctx, lambda _: None)
        edit = EditTool()
        inp = EditInput(file_path=str(path), old_string=edited_text, new_string=new_line)
        assert await edit.validate_input(inp, ctx) is None
        await edit.call(inp, ctx, lambda _: None)

    anyio.run(go)
    data = path.read_bytes()
    head = bom + before.encode(codec)
    tail = (edited_nl + after).encode(codec)
    assert data.startswith(head)
    assert data.endswith(tail)
    middle = data[len(head) : len(data) - len(tail)].decode(codec)
    # Straight quotes may be curled to follow the file's style; nothing else changes.
    from hands.tools.file._quotes import straighten

    assert straighten(middle) == straighten(new_line)
