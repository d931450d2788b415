"""hands' Bash (and file tool) decisions against decisions Claude Code made on the same cases.

``data/oracle_cases.jsonl`` holds cases labelled by running Claude Code 2.1.332 on them
(``claude``: allow, ask, deny or error:validation). Each case is rebuilt here: a project
with the files of the labelling world, a home directory, a directory outside both that a
symlink in the project points to. The paths of that world are rewritten to these.

hands must agree on every case except those in ``DELIBERATE``, where it decides
differently on purpose (each is listed in docs/permissions.md with its reason).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest

from hands.core.context import PermissionMode
from hands.pipeline.pool import assemble_pool
from permissions.conftest import World

DATA = Path(__file__).parent / "data" / "oracle_cases.jsonl"

BASE_FILES = {
    "README.md": "# project\n",
    "file.txt": "hello\n",
    "Cargo.toml": '[package]\nname = "x"\n',
    "package.json": '{"name": "x"}\n',
    "src/main.ts": "export {}\n",
    "src/index.ts": "export {}\n",
    "main.ts": "export {}\n",
    "script.py": "print(1)\n",
    "test.txt": "test\n",
}

_INVISIBLE = "a non-printing character is rejected before any decision"
_FOLLOW = "a recursive walk that follows a symlink out of the project reads outside"
_LISTS = "it lists or measures files outside the working directories"
_STRICT_DENY = "the denied program is what bash runs, so the deny rule applies"
DELIBERATE: dict[str, str] = {
    **{
        k: _INVISIBLE
        for k in ("c5-ctl1-2028", "c5-ctl2-2029", "c5-ctl4-200b", "c5-ctl5-200d",
                  "c5-ctl6-feff", "c5-ctl11-00a0", "c5-ctl12-202e", "c5-ctl13-2060")
    },
    "c1-r15": _FOLLOW,
    "c1-r17": _FOLLOW,
    "c1-r19": _FOLLOW,
    "c1-r59": _LISTS,
    "c1-r62": _LISTS,
    "c3-f004": "git ls-remote connects to the remote and may run ssh",
    "c3-git-rule-lsr": "git ls-remote connects to the remote and may run ssh",
    "c2-curl11": _STRICT_DENY,
    "c2-curl19": _STRICT_DENY,
    "c2-curl23": _STRICT_DENY,
    "c2-curl26": _STRICT_DENY,
    "c2-curl25": "a command named by a variable is asked about, not resolved",
}
"""Case id -> why hands decides differently from Claude Code (see docs/permissions.md)."""


@dataclass(frozen=True)
class Case:
    id: str
    tool: str
    input: Mapping[str, Any]
    allow: tuple[str, ...]
    ask: tuple[str, ...]
    deny: tuple[str, ...]
    mode: PermissionMode
    setup: Mapping[str, Any]
    claude: str


def _load() -> list[Case]:
    out: list[Case] = []
    for line in DATA.read_text(encoding="utf-8").split("\n"):
        if not line.strip():
            continue
        raw = json.loads(line)
        out.append(
            Case(
                id=raw["id"],
                tool=raw["tool"],
                input=raw["input"],
                allow=tuple(raw.get("allow") or ()),
                ask=tuple(raw.get("ask") or ()),
                deny=tuple(raw.get("deny") or ()),
                mode=raw.get("mode") or "default",
                setup=raw.get("setup") or {},
                claude=raw["claude"],
            )
        )
    return out


CASES = _load()


class Places:
    """The labelling world's absolute paths mapped to this test's directories."""

    def __init__(self, world: World, outside: Path) -> None:
        self.pairs = (
            ("/tmp/outside", str(outside)),
            ("/home/user/project", str(world.project)),
            ("/home/user", str(world.home)),
        )

    def __call__(self, text: str) -> str:
        for old, new in self.pairs:
            text = text.replace(old, new)
        return text


def _build(world: World, outside: Path, setup: Mapping[str, Any], places: Places) -> None:
    for rel, content in BASE_FILES.items():
        path = world.project / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    for rel, content in (setup.get("files") or {}).items():
        path = world.project / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    for rel in setup.get("dirs") or ():
        (world.project / rel).mkdir(parents=True, exist_ok=True)
    outside.mkdir(exist_ok=True)
    for raw in setup.get("outside_dirs") or ():
        Path(places(raw)).mkdir(parents=True, exist_ok=True)
    for raw, content in (setup.get("outside_files") or {}).items():
        path = Path(places(raw))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    for link, target in (setup.get("symlinks") or {}).items():
        path = Path(places(link)) if link.startswith("/") else world.project / link
        path.symlink_to(places(target))


def _outcome(world: World, case: Case, places: Places) -> str:
    tool = assemble_pool().find(case.tool)
    assert tool is not None, case.tool
    data = {k: places(v) if isinstance(v, str) else v for k, v in case.input.items()}
    parsed = tool.parse_input(data)
    ctx = world.ctx(case.mode)
    engine = world.engine(allow=case.allow, ask=case.ask, deny=case.deny)

    async def go() -> str:
        if await tool.validate_input(parsed, ctx) is not None:
            return "error:validation"
        decision = await engine.decide(tool, parsed, ctx)
        return decision.behavior

    return anyio.run(go)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_agrees_with_claude_code(tmp_path: Path, case: Case) -> None:
    # named as in the labelling world, so that ``../project/x`` comes back inside
    root = tmp_path.resolve()
    world = World(project=root / "project", home=root / "home")
    (world.project / ".git").mkdir(parents=True)
    world.home.mkdir()
    outside = root / "outside"
    places = Places(world, outside)
    _build(world, outside, case.setup, places)
    got = _outcome(world, case, places)
    if case.id in DELIBERATE:
        assert got != case.claude, f"{case.id} now agrees: drop it from DELIBERATE"
        return
    assert got == case.claude, f"{case.id}: hands {got}, Claude Code {case.claude}"


def test_deliberate_differences_are_documented() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "permissions.md").read_text(encoding="utf-8")
    ids = {c.id for c in CASES}
    for case_id in DELIBERATE:
        assert case_id in ids, case_id
        assert f"`{case_id}`" in doc, f"{case_id} is not listed in docs/permissions.md"
