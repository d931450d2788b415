"""hands speaks in its own words: no model-facing text of it is one of Claude Code's.

The Claude Code texts checked against are those its behaviour was classified by (refusal
and error wordings, the deferred-tools reminder, ToolSearch, Skill, web search and MCP
resource texts, the task tools' output). They are held here only as SHA-256 digests of
their normalised sentences, never as text. Each sentence of every string in hands' source
(an f-string's fields read as ``{}``) is normalised the same way and must not hash to one
of them.

``HANDS_CLAUDE_CODE_WORDINGS`` may name a Markdown file listing further Claude Code
wordings in backticks (``<path>`` and ``...`` mark their variable parts); its sentences
are checked as well.
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from hands.tools.planning._task_store import Task
from hands.tools.planning.task_get import TaskGetTool
from hands.tools.planning.task_list import TaskListTool

SRC = Path(__file__).resolve().parent.parent / "src" / "hands"
MIN_WORDS = 3
"""Shorter sentences ("Parse error") are common English, not anyone's wording."""

_PLACEHOLDER = re.compile(r"<[^<>]*>|\.\.\.|…|\{\}")
_TAG = re.compile(r"</?tool_use_error>")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")

# Digests of Claude Code 2.1.332's sentences (normalised by ``sentences``).
CLAUDE_CODE_SENTENCES = frozenset(
    {
        "4734d42e25013d9371d9a008f839e8081ef19043c4a6860c2f266a3826204817",
        "09ce62652c5fb38fba6bf05da4f67af2629f6c0621b488dfd806bd995874a0c0",
        "bb5b47a75e48f1c7b6c885dfd96a62ce74665fc7825599706e1b2d0dbc3f83e7",
        "c7a7ced7aa81a8aebdf135f8af56e610a85ef251c20565afe52405e4dc8ca2a7",
        "4519342494c27b6d374c722395db847e0d50d81ee643bd1b2aa403087544f942",
        "da630fe1f9bb3e1012bb2910c1f804b92b08c9c35c3540ac796c936e44685004",
        "77f57a98bd19bf2812eeae1cab31786750552afb5904408bfc7e0da64184274a",
        "48ff787a4c6f97e595510d294b4a835340e13ccadf8ea77ff0752c057ca67a85",
        "3b387871dda6b0f862993494ea180935ac24843dfe1681d4a737f9a569442abf",
        "26d28fa510fa92b8ad3f39cc37c26e986896bc20705faee5805c6a0479196eda",
        "4607e715c298e10bd0a14ed70086fd8dc578997b85418804fd10adb1c5d8305d",
        "2224e4f21021efa7b7159a9d239627cf887f8277a2b6551479ceaac498b2038a",
        "8b497680d2d1d8bdb6cce1b0d681315aa4fe09b5096c2c656e436ccb9624ddfb",
        "320b8bb0e97c39172ecde8e6c6c2638c6f9c9adca7b92ae4e09eaaf4f3b9fddd",
        "f0206c97fda8ade992c03f5036911becf0e295c950357a6b3674c35aa5728da2",
        "bf829096dfae029781b52d09e89b98547ecbc4dea0ae1f43c2b1ce5933054df8",
        "6c2975fd9cfc2d4ae1567f4acc170211a19215fa9022be53a65706a7af6c2b95",
        "0bdcb4aecb2fb8b83f4f8ac458cc19420fde14ee0c348dbe8cf87ec9cc76e267",
        "765ca38f08bc6d4abff2726df219e2e9edc6fffc3d0a683504fd8d8f5f691f91",
        "b036105bd367ebb07293ab2960da45cc4fd2c1d8d35a6005c58b2d92cb75c9ed",
        "4bf13056ef59b51d6daadf805f598730e9658b999c25a3c5c263c9efa23fb65d",
        "d577a28d5a788c6dbc57ca3ecdceb272257de634877bdd01070c0829611b6e53",
        "b8b02a73e8934fd1ea85f3dea790b68b37f6e17bc263f4e7d2890d7312269b05",
        "3bf26a8469f2830a620856309e664df276f745af64254a21974d2bfb790042b2",
        "ae9eec71a43ed2280f04cc829eae3b754907dcdafb909db74ee0801ed334659f",
        "ccffedf245751d760c4277d0e425ff484b521a747da6af4f623dff34df5aea2c",
        "a1af9b40cd8d4405e92821e05b50fdb3f2f2947bb73ed379a7d2cbe22a2158c4",
        "3c229ee6c65b95e5d6015c270f8f09a07b7268481cc91cb9fd67ce9327bd81f6",
        "b037b4c8b468006717fa77b98f6b0f2afafd3d448e391ea86260b7bba7bce69e",
        "42ffb860d9d7d0323498bdb6aef0fa38580df3ee6860240f34027d366ba2198e",
        "797d1e6f63eec4db90dd1520e892aec0ae6c532f4b31afc3bc2eb4bb06496dc7",
        "2e1138982385c778c695ddf4088d6a2bbf2b8a509a797a2040e721cacd77a568",
        "6894947e2b457dcf26012a2d03735378f5dd934d4224e0137349ddadb1b32ebb",
    }
)
# Digests of the whole output of TaskGet and TaskList for the tasks of ``sample_tasks``.
CLAUDE_CODE_TASK_OUTPUTS = frozenset(
    {
        "fa7736df0e7beb0849eeca1c4c14a2e826ba22e5d6df2da72bd06c5fcff6ee8e",
        "e2d366243ccdd92930e3c625b6d8e2e6fa25ebfcef93adc15f206eea484ef4a6",
        "e7df61c24d7939fba13421103f8f83b482bcffc39566e3a0ad9e5cad1ed4ad7d",
    }
)


def digest(text: str) -> str:
    """The SHA-256 of ``text`` (UTF-8), in hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def sentences(text: str) -> Iterator[str]:
    """The normalised sentences of ``text`` with at least :data:`MIN_WORDS` words.

    Variable parts become ``{}``; case, runs of white space and the punctuation at the
    ends of a sentence do not count.
    """
    text = _PLACEHOLDER.sub("{}", _TAG.sub("", text))
    for piece in _SENTENCE_END.split(text):
        words = piece.lower().split()
        sentence = " ".join(words).strip(" .:;,!?'\"`()[]")
        sentence = re.sub(r"(\{\}\s*)+", "{} ", sentence).strip()
        if sum(1 for w in sentence.split() if w != "{}") >= MIN_WORDS:
            yield sentence


def source_texts(root: Path = SRC) -> Iterator[tuple[str, int, str]]:
    """(file, line, text) of every string in the package; an f-string's fields as ``{}``."""
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inside: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                parts: list[str] = []
                for value in node.values:
                    inside.add(id(value))
                    if isinstance(value, ast.Constant) and isinstance(value.value, str):
                        parts.append(value.value)
                    else:
                        parts.append("{}")
                yield path.relative_to(root).as_posix(), node.lineno, "".join(parts)
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in inside
            ):
                yield path.relative_to(root).as_posix(), node.lineno, node.value


def backticked(markdown: str) -> Iterator[str]:
    """The backticked spans of a Markdown text."""
    yield from re.findall(r"`([^`\n]+)`", markdown)


def matches(texts: Iterable[tuple[str, int, str]], table: frozenset[str]) -> list[str]:
    """``file:line: sentence`` for each sentence whose digest is in ``table``."""
    return [
        f"{where}:{line}: {sentence}"
        for where, line, text in texts
        for sentence in sentences(text)
        if digest(sentence) in table
    ]


def sample_tasks() -> list[Task]:
    """Tasks with every field TaskGet shows."""
    return [
        Task(id="1", subject="Design the schema", description="tables", status="completed"),
        Task(
            id="2",
            subject="Write the migration",
            description="up and down",
            status="in_progress",
            owner="me",
            metadata={"area": "db"},
            blocks=("3",),
            blocked_by=("1", "4"),
            open_blockers=("4",),
        ),
    ]


def task_outputs() -> list[str]:
    """TaskGet's text for each sample task, and TaskList's for them all."""
    get, listing = TaskGetTool(), TaskListTool()
    tasks = sample_tasks()
    return [*(get.to_content(task) for task in tasks), listing.to_content(tasks)]


def test_no_sentence_of_hands_is_one_of_claude_codes() -> None:
    table = set(CLAUDE_CODE_SENTENCES)
    extra = os.environ.get("HANDS_CLAUDE_CODE_WORDINGS", "")
    if extra:
        listed = Path(extra).read_text(encoding="utf-8")
        table |= {digest(s) for span in backticked(listed) for s in sentences(span)}
    found = matches(source_texts(), frozenset(table))
    assert found == [], "\n".join(found)


def test_the_task_tools_output_is_not_claude_codes() -> None:
    assert not {digest(text) for text in task_outputs()} & CLAUDE_CODE_TASK_OUTPUTS


def test_the_check_finds_a_sentence_it_holds(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "words.py").write_text(
        'name = "x"\n'
        'TEXT = f"Nothing was found for {name}. Try again later."\n'
        'OTHER = "It went fine, really."\n'
    )
    table = frozenset({digest("try again later"), digest("nothing was found for {}")})
    found = matches(source_texts(package), table)
    assert found == [
        "words.py:2: nothing was found for {}",
        "words.py:2: try again later",
    ]
    assert list(sentences("<tool_use_error>File <path> is gone ... now.</tool_use_error>")) == [
        "file {} is gone {} now"
    ]


@pytest.mark.parametrize("text", task_outputs())
def test_each_task_output_sentence_is_checked_too(text: str) -> None:
    assert not matches([("task output", 0, text)], CLAUDE_CODE_SENTENCES)
