"""Read on images, PDFs and notebooks, generated in the test."""

from __future__ import annotations

import base64
import io
from pathlib import Path

import nbformat
import pytest
from PIL import Image
from pypdf import PdfReader, PdfWriter
from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

from hands.agent.compaction.tokens import estimate_message
from hands.core.images import MAX_IMAGE_EDGE
from hands.core.messages import DocumentBlock, ImageBlock, Message, TextBlock
from hands.models.anthropic import messages_to_wire
from hands.models.convert_openai import messages_to_openai

from .conftest import Harness


def make_pdf(path: Path, pages: int) -> None:
    writer = PdfWriter()
    font = writer._add_object(  # pyright: ignore[reportPrivateUsage]
        DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Font"),
                NameObject("/Subtype"): NameObject("/Type1"),
                NameObject("/BaseFont"): NameObject("/Helvetica"),
            }
        )
    )
    for i in range(1, pages + 1):
        page = writer.add_blank_page(612, 792)
        page[NameObject("/Resources")] = DictionaryObject(
            {NameObject("/Font"): DictionaryObject({NameObject("/F1"): font})}
        )
        stream = DecodedStreamObject()
        stream.set_data(f"BT /F1 12 Tf 72 720 Td (Text of page {i}) Tj ET".encode())
        page[NameObject("/Contents")] = writer._add_object(stream)  # pyright: ignore[reportPrivateUsage]
    writer.write(path)


def image_blocks(h: Harness, path: Path) -> tuple[ImageBlock, str]:
    outcome = h.ok("Read", file_path=str(path))
    content = outcome.block.content
    assert not isinstance(content, str)
    images = [b for b in content if isinstance(b, ImageBlock)]
    texts = [b.text for b in content if isinstance(b, TextBlock)]
    assert len(images) == 1
    return images[0], "\n".join(texts)


def test_small_png_is_returned_as_is(h: Harness) -> None:
    f = h.root / "dot.png"
    Image.new("RGB", (20, 10), "red").save(f)
    block, note = image_blocks(h, f)
    assert block.media_type == "image/png"
    assert base64.b64decode(block.data) == f.read_bytes()
    assert "20x10" in note


def test_image_type_is_sniffed_from_bytes_not_the_name(h: Harness) -> None:
    f = h.root / "photo.txt"
    Image.new("RGB", (8, 8), "blue").save(f, format="JPEG")
    block, _ = image_blocks(h, f)
    assert block.media_type == "image/jpeg"
    fake = h.root / "not-really.png"
    fake.write_text("just text\n")
    assert h.read(fake) == "1\tjust text"


def test_gif_and_webp_are_images(h: Harness) -> None:
    for fmt, media in (("GIF", "image/gif"), ("WEBP", "image/webp")):
        f = h.root / f"x.{fmt.lower()}"
        Image.new("RGB", (16, 16), "green").save(f, format=fmt)
        block, _ = image_blocks(h, f)
        assert block.media_type == media


def test_large_image_is_downscaled(h: Harness) -> None:
    f = h.root / "huge.png"
    noise = Image.effect_noise((3000, 1500), 64).convert("RGB")
    noise.save(f)
    block, note = image_blocks(h, f)
    with Image.open(io.BytesIO(base64.b64decode(block.data))) as img:
        assert max(img.size) <= MAX_IMAGE_EDGE
        assert img.size[0] > img.size[1]
    assert "downscaled from 3000x1500" in note
    assert len(base64.b64decode(block.data)) <= 500_000


def test_short_pdf_is_read_whole(h: Harness) -> None:
    f = h.root / "doc.pdf"
    make_pdf(f, 3)
    text = h.read(f)
    assert "3 pages; pages shown: 1-3" in text
    for i in (1, 2, 3):
        assert f"--- Page {i} ---\nText of page {i}" in text


def _pdf_parts(h: Harness, path: Path, **extra: object) -> tuple[str, DocumentBlock]:
    content = h.ok("Read", file_path=str(path), **extra).block.content
    assert not isinstance(content, str)
    head, doc = content
    assert isinstance(head, TextBlock) and isinstance(doc, DocumentBlock)
    return head.text, doc


def test_pdf_goes_as_a_document_that_carries_its_text(h: Harness) -> None:
    f = h.root / "doc.pdf"
    make_pdf(f, 3)
    head, doc = _pdf_parts(h, f)
    assert head == f"PDF {f}: 3 pages; pages shown: 1-3."
    assert base64.b64decode(doc.data) == f.read_bytes()
    assert "--- Page 2 ---\nText of page 2" in doc.text
    assert doc.to_wire() == {
        "type": "document",
        "source": {"type": "base64", "media_type": "application/pdf", "data": doc.data},
    }


def test_pages_send_a_pdf_of_just_those_pages_without_a_renderer(h: Harness) -> None:
    f = h.root / "long.pdf"
    make_pdf(f, 25)
    head, doc = _pdf_parts(h, f, pages="4-5,9")
    assert "pages shown: 4-5, 9" in head
    part = PdfReader(io.BytesIO(base64.b64decode(doc.data)))
    assert [p.extract_text() for p in part.pages] == [f"Text of page {i}" for i in (4, 5, 9)]


def test_each_provider_gets_the_pdf_its_way(h: Harness) -> None:
    f = h.root / "doc.pdf"
    make_pdf(f, 2)
    block = h.ok("Read", file_path=str(f)).block
    turn = Message(role="user", content=(block,))
    [anthropic] = messages_to_wire([turn], cache=False)
    kinds = [part["type"] for part in anthropic["content"][0]["content"]]
    assert kinds == ["text", "document"]
    [openai] = [m for m in messages_to_openai("", [turn]) if m["role"] == "tool"]
    assert openai["role"] == "tool" and "Text of page 2" in openai["content"]
    assert base64.b64encode(f.read_bytes()).decode()[:40] not in openai["content"]
    assert estimate_message(turn) < 2 * 1_600 + 200  # by pages and text, not by base64


def test_a_pdf_over_the_document_limit_goes_as_text_only(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    f = h.root / "doc.pdf"
    make_pdf(f, 2)
    monkeypatch.setattr("hands.tools.file.read.PDF_DOCUMENT_MAX_BYTES", 100)
    content = h.ok("Read", file_path=str(f)).block.content
    assert isinstance(content, str) and "Text of page 1" in content


def test_long_pdf_needs_pages(h: Harness) -> None:
    f = h.root / "long.pdf"
    make_pdf(f, 25)
    text = h.err("Read", file_path=str(f))
    assert "has 25 pages" in text and 'pages="1-20"' in text
    text = h.read(f, pages="4-5,9")
    assert "pages shown: 4-5, 9" in text
    assert "Text of page 9" in text and "Text of page 6" not in text


def test_bad_page_ranges_get_examples(h: Harness) -> None:
    f = h.root / "long.pdf"
    make_pdf(f, 25)
    for bad, why in (
        ("abc", "'abc' is not a page or range"),
        ("5-3", "not a valid range"),
        ("0", "not a valid range"),
        ("24-30", "page 30 is past the end"),
    ):
        text = h.err("Read", file_path=str(f), pages=bad)
        assert why in text, text
        assert '"1-5"' in text and "25 pages" in text
    assert "more than 20 pages" in h.err("Read", file_path=str(f), pages="1-21")


def test_broken_pdf_is_an_error(h: Harness) -> None:
    f = h.root / "broken.pdf"
    f.write_bytes(b"%PDF-1.4\nnot really\n")
    assert "could not be read as a PDF" in h.err("Read", file_path=str(f))


def make_notebook(path: Path) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    png = base64.b64encode(_png_bytes()).decode()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Title", id="intro"),
        nbformat.v4.new_code_cell(
            "print(1 + 1)",
            id="calc",
            execution_count=1,
            outputs=[nbformat.v4.new_output("stream", name="stdout", text="2\n")],
        ),
        nbformat.v4.new_code_cell(
            "plot()",
            id="plot",
            outputs=[
                nbformat.v4.new_output(
                    "display_data", data={"image/png": png, "text/plain": "<Figure>"}
                ),
                nbformat.v4.new_output(
                    "error",
                    ename="ValueError",
                    evalue="bad",
                    traceback=["\x1b[31mValueError\x1b[0m: bad"],
                ),
            ],
        ),
    ]
    nb.metadata["language_info"] = {"name": "python"}
    nbformat.write(nb, path)
    return nb


def _png_bytes() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (4, 4), "white").save(buf, format="PNG")
    return buf.getvalue()


def test_notebook_shows_cells_with_ids_and_outputs(h: Harness) -> None:
    f = h.root / "nb.ipynb"
    make_notebook(f)
    outcome = h.ok("Read", file_path=str(f))
    content = outcome.block.content
    assert not isinstance(content, str)
    text = "\n".join(b.text for b in content if isinstance(b, TextBlock))
    assert "(python, 3 cells)" in text
    assert '<cell id="intro" type="markdown">\n# Title\n</cell>' in text
    assert '<cell id="calc" type="code" execution_count=1>\nprint(1 + 1)\n</cell>' in text
    assert '<output cell="calc">\n2\n</output>' in text
    assert "ValueError: bad" in text and "\x1b[" not in text
    assert [b.media_type for b in content if isinstance(b, ImageBlock)] == ["image/png"]
