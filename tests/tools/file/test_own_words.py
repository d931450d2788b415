"""The file tools say things in their own words: no result text equals the reference one.

For each case below a reference agent's text for the same call was collected once, at
development time; only short hashes of those texts are kept here (``REFERENCE``): one of
the whole normalised text and one per sentence of four words or more. A hands text fails
the test when its whole hash equals the reference's for the same case, or when any of its
sentences hashes like a sentence of any reference text. Normalising drops paths, numbers,
case, tags and spacing, so a copy with another path or count is still caught.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import Harness
from .test_read_media import make_pdf

_TAGS = re.compile(r"</?(?:tool_use_error|system-reminder)>")
_PATH = re.compile(
    r"(?:~|\.{1,2})?/[^\s'\"`,;:()]+|\b[\w.-]+\.(?:txt|md|py|ts|json|ipynb|pdf|bin|toml)\b"
)
_NUMBER = re.compile(r"\d[\d,.]*")
_SENTENCE = re.compile(r"(?<=[.!?:])\s+|\n+")


def normalise(text: str) -> str:
    """The text with tags, paths, numbers, case and spacing made uniform."""
    text = _TAGS.sub(" ", text)
    text = _PATH.sub("<path>", text)
    text = _NUMBER.sub("<n>", text)
    return " ".join(text.lower().split())


def digest(text: str) -> str:
    """The first 12 hex digits of the SHA-256 of ``text``."""
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def sentences(text: str) -> list[str]:
    """The normalised sentences of ``text`` with four words or more."""
    text = _PATH.sub("<path>", _TAGS.sub("\n", text))
    out: list[str] = []
    for part in _SENTENCE.split(text):
        norm = normalise(part)
        if len(norm.split()) >= 4:
            out.append(norm)
    return out


def fingerprint(text: str) -> tuple[str, tuple[str, ...]]:
    """The whole-text hash and the sentence hashes of ``text``."""
    return digest(normalise(text)), tuple(sorted({digest(s) for s in sentences(text)}))


NOTEBOOK = {
    "cells": [
        {
            "cell_type": "code",
            "id": "c1",
            "metadata": {},
            "execution_count": 1,
            "source": ["print(1)\n"],
            "outputs": [{"output_type": "stream", "name": "stdout", "text": ["1\n"]}],
        },
        {"cell_type": "markdown", "id": "m1", "metadata": {}, "source": ["# Title\n"]},
    ],
    "metadata": {"language_info": {"name": "python"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}


def _files(h: Harness) -> Path:
    root = h.root
    (root / "README.md").write_text("# demo project\n")
    (root / "file.txt").write_text("hello\nworld\n")
    (root / "src").mkdir()
    (root / "e1.txt").write_text("alpha\nbeta\n")
    (root / "e2.txt").write_text("x\nx\nx\n")
    (root / "empty.txt").write_text("")
    (root / "nb.ipynb").write_text(json.dumps(NOTEBOOK))
    (root / "blob.bin").write_bytes(b"AB\x00\x01\x02CD" * 20)
    (root / "big.py").write_text("x = 'abcdefghij' * 4  # filler line for a large file\n" * 6000)
    (root / "partial.txt").write_text(
        "".join(f"{i} lorem ipsum dolor sit amet consectetur\n" for i in range(1, 5001))
    )
    make_pdf(root / "doc.pdf", 2)
    return root


def _read_then(name: str, **edit: object) -> Callable[[Harness], str]:
    def run(h: Harness) -> str:
        path = edit.get("file_path") or edit.get("notebook_path")
        h.ok("Read", file_path=str(path))
        return h.run(name, **edit).block.text

    return run


def _cases(root: Path) -> dict[str, Callable[[Harness], str]]:
    r = str(root)
    nb = f"{r}/nb.ipynb"

    def run(name: str, **input: object) -> Callable[[Harness], str]:
        return lambda h: h.run(name, **input).block.text

    return {
        "read-offset-past-end": run("Read", file_path=f"{r}/file.txt", offset=500),
        "read-empty": run("Read", file_path=f"{r}/empty.txt"),
        "read-missing": run("Read", file_path=f"{r}/nope.txt"),
        "read-missing-similar": run("Read", file_path=f"{r}/READM.md"),
        "read-dir": run("Read", file_path=f"{r}/src"),
        "read-binary": run("Read", file_path=f"{r}/blob.bin"),
        "read-big-file": run("Read", file_path=f"{r}/big.py"),
        "read-partial": run("Read", file_path=f"{r}/partial.txt"),
        "read-pdf": run("Read", file_path=f"{r}/doc.pdf"),
        "read-pdf-bad-pages": run("Read", file_path=f"{r}/doc.pdf", pages="x-y"),
        "read-pages-non-pdf": run("Read", file_path=f"{r}/file.txt", pages="1"),
        "read-unknown-field": run("Read", file_path=f"{r}/file.txt", bogus=1),
        "write-new": run("Write", file_path=f"{r}/new.txt", content="hello\n"),
        "write-dir": run("Write", file_path=f"{r}/src", content="x\n"),
        "write-overwrite": _read_then("Write", file_path=f"{r}/file.txt", content="over\n"),
        "edit-identical": run("Edit", file_path=f"{r}/file.txt", old_string="a", new_string="a"),
        "edit-create": run("Edit", file_path=f"{r}/created.txt", old_string="", new_string="n\n"),
        "edit-create-exists": _read_then(
            "Edit", file_path=f"{r}/file.txt", old_string="", new_string="n\n"
        ),
        "edit-missing": run("Edit", file_path=f"{r}/nope.txt", old_string="a", new_string="b"),
        "edit-not-found": _read_then(
            "Edit", file_path=f"{r}/e1.txt", old_string="zzz", new_string="q"
        ),
        "edit-multi-match": _read_then(
            "Edit", file_path=f"{r}/e2.txt", old_string="x", new_string="y"
        ),
        "edit-replace-all": _read_then(
            "Edit", file_path=f"{r}/e2.txt", old_string="x", new_string="y", replace_all=True
        ),
        "edit-success": _read_then(
            "Edit", file_path=f"{r}/e1.txt", old_string="alpha", new_string="ALPHA"
        ),
        "edit-unread": run("Edit", file_path=f"{r}/e1.txt", old_string="alpha", new_string="A"),
        "edit-ipynb": run("Edit", file_path=nb, old_string="print", new_string="pprint"),
        "edit-dir": run("Edit", file_path=f"{r}/src", old_string="a", new_string="b"),
        "nbedit-replace": _read_then(
            "NotebookEdit", notebook_path=nb, cell_id="c1", new_source="print(2)"
        ),
        "nbedit-insert": _read_then(
            "NotebookEdit",
            notebook_path=nb,
            cell_id="c1",
            new_source="x = 1",
            cell_type="code",
            edit_mode="insert",
        ),
        "nbedit-delete": _read_then(
            "NotebookEdit", notebook_path=nb, cell_id="m1", new_source="", edit_mode="delete"
        ),
        "nbedit-bad-id": _read_then("NotebookEdit", notebook_path=nb, cell_id="zz", new_source="y"),
        "nbedit-no-cell-id": _read_then("NotebookEdit", notebook_path=nb, new_source="y"),
        "nbedit-unread": run("NotebookEdit", notebook_path=nb, cell_id="c1", new_source="y"),
        "nbedit-insert-no-type": run(
            "NotebookEdit", notebook_path=nb, cell_id="c1", new_source="z", edit_mode="insert"
        ),
        "nbedit-not-ipynb": run(
            "NotebookEdit", notebook_path=f"{r}/file.txt", cell_id="c1", new_source="z"
        ),
    }


CASES = sorted(_cases(Path("/")))

# Reference fingerprints: {case: (whole-text hash, sentence hashes)}.
REFERENCE: dict[str, tuple[str, tuple[str, ...]]] = {
    "edit-create": ("1e1a14a5e774", ("1915860b748d", "26b60f3f3689")),
    "edit-create-exists": ("ec7ca1082a6e", ("ec7ca1082a6e",)),
    "edit-dir": ("e2d93d32398a", ("8a6d794ac23f", "ebdba93e1e08")),
    "edit-identical": ("abbbe9500d5f", ("1dd8e3df14b7", "af5357ee09b0")),
    "edit-ipynb": ("8d29e86b186b", ("6824856499fe", "b0e53905fa89")),
    "edit-missing": ("1b46d0995bc0", ("24f6c8d1c055", "58a86dcdf046")),
    "edit-multi-match": ("95d9d8b58a74", ("4fdbc0dce2cf", "5c2349a54405", "6ea73cc856c4")),
    "edit-not-found": ("911cd7b02077", ("4fb11d13ed94",)),
    "edit-replace-all": ("4cc900d33a4d", ("26b60f3f3689", "9f850260fcf3", "a1af11168790")),
    "edit-success": ("1e1a14a5e774", ("1915860b748d", "26b60f3f3689")),
    "edit-unread": ("1915860b748d", ("1915860b748d",)),
    "nbedit-bad-id": ("f84434feb072", ("f84434feb072",)),
    "nbedit-delete": ("11965f067d61", ()),
    "nbedit-insert": ("80a12889e2b3", ("80a12889e2b3",)),
    "nbedit-insert-no-type": ("13cc840883df", ("13cc840883df",)),
    "nbedit-no-cell-id": ("d43576c2ad6a", ("d43576c2ad6a",)),
    "nbedit-not-ipynb": ("8b1f20d58aa6", ("480cc751575c", "a95a80ef005f")),
    "nbedit-replace": ("e7e329b90856", ("e7e329b90856",)),
    "nbedit-unread": ("590540888643", ("31dd9c8c992c", "3cb6c875bf95")),
    "read-big-file": (
        "22bc79bd7433",
        ("12a97b9c5cc8", "48388302582b", "6f73b62e747b", "92ad92cf83f3"),
    ),
    "read-binary": ("4ab943a3bdc4", ("3df83ac41f78", "7aa78ede5cee", "d4ebc2089854")),
    "read-dir": ("43f7922a9db0", ("a690b7d3b4f9",)),
    "read-empty": ("75be079d9dd7", ("3f8c65ab7840",)),
    "read-missing": ("1b46d0995bc0", ("24f6c8d1c055", "58a86dcdf046")),
    "read-missing-similar": ("1b46d0995bc0", ("24f6c8d1c055", "58a86dcdf046")),
    "read-offset-past-end": ("c06225171c11", ("67364601af65", "67b39f7c2233")),
    "read-pages-non-pdf": ("3ba1c52b5994", ()),
    "read-partial": (
        "b81284a08374",
        (
            "077b89224481",
            "12a97b9c5cc8",
            "5d51a28ff849",
            "8172997a1881",
            "92ad92cf83f3",
            "bb8e4f4492ff",
        ),
    ),
    "read-pdf": ("3ede3e615546", ()),
    "read-pdf-bad-pages": ("9171c512608d", ("20008055e401", "4cddbcc5be56")),
    "read-unknown-field": ("f2bd14341f42", ("4f60cfa90eae", "c8cd51cb94fc")),
    "write-dir": ("f0c9bfc79685", ("4dd43786d908", "a84f02b44e94")),
    "write-new": ("3d4eae13f254", ("ab9e7a5cd364", "b222b2ad79c9")),
    "write-overwrite": ("1e1a14a5e774", ("1915860b748d", "26b60f3f3689")),
}


def test_every_case_has_a_reference() -> None:
    assert set(REFERENCE) == set(CASES)


@pytest.mark.parametrize("case", CASES)
def test_text_is_in_own_words(h: Harness, case: str) -> None:
    _files(h)
    text = _cases(h.root)[case](h)
    assert text.strip()
    whole, mine = fingerprint(text)
    ref_whole, _ = REFERENCE[case]
    assert whole != ref_whole, f"{case}: the whole text matches the reference"
    every_reference_sentence = {s for _, parts in REFERENCE.values() for s in parts}
    copied = [s for s in sentences(text) if digest(s) in every_reference_sentence]
    assert not copied, f"{case}: sentences match the reference: {copied}"
    assert set(mine).isdisjoint(every_reference_sentence)


def test_the_fingerprint_catches_a_copy_with_other_paths_and_numbers() -> None:
    a = "<tool_use_error>Found 3 matches in /a/b.txt; set it.</tool_use_error>"
    b = "Found 12 matches in /x/y/z.txt; set it."
    assert fingerprint(a) == fingerprint(b)
    assert fingerprint(a) != fingerprint("Found 3 matches in /a/b.txt; set them.")
