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

DATA = Path(__file__).parent / "data"
TABLES = (
    "oracle_cases.jsonl",
    "oracle_heldout.jsonl",
    "oracle_gate.jsonl",
    "oracle_parity_gate.jsonl",
)

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
_MAN = "man runs groff and writes its page cache (seen by the effect check)"
_GLOB_OUT = "the glob matches a symlink in the project that leads outside"
_PLAN = "plan mode refuses a change outright instead of asking"
_STRICT_DENY = "the denied program is what bash runs, so the deny rule applies"
_GIT_DENY = "the denied subcommand is what git runs after its options or alias"
_GIT_READS = "the output shows lines of the file a Read deny rule covers"
DELIBERATE: dict[str, str] = {
    **{
        k: _GIT_READS
        for k in ("read-git-diff", "read-git-log-p", "read-git-show", "read-git-blame-env")
    },
    **{
        k: _INVISIBLE
        for k in (
            "c5-ctl1-2028",
            "c5-ctl2-2029",
            "c5-ctl4-200b",
            "c5-ctl5-200d",
            "c5-ctl6-feff",
            "c5-ctl11-00a0",
            "c5-ctl12-202e",
            "c5-ctl13-2060",
        )
    },
    "c1-r15": _FOLLOW,
    "c1-r17": _FOLLOW,
    "c1-r19": _FOLLOW,
    "c1-r59": _LISTS,
    "c1-r62": _LISTS,
    "c3-f004": "git ls-remote connects to the remote and may run ssh",
    "c3-git-rule-lsr": "git ls-remote connects to the remote and may run ssh",
    **{
        k: _GIT_DENY
        for k in (
            "c2-gitdeny02",
            "c2-gitdeny03",
            "c2-gitdeny04",
            "c2-gitdeny05",
            "c2-gitdeny07",
            "c2-gitdeny08",
            "c2-gitdeny09",
            "c2-gitdeny18",
            "c2-gitdeny19",
            "h2-rule022",
            "h2-rule023",
            "h2-rule024",
        )
    },
    **{
        k: "git options, aliases or configuration before the subcommand: hands reads what runs"
        for k in (
            "git-C-push-ask",
            "git-nopager-push-ask",
            "git-c-push-ask",
            "git-alias-push-ask",
            "git-gitdir-push-deny",
            "git-shell-alias-deny-touch",
            "git-config-env-alias",
            "git-C-push-dontask",
            "git-C-push-bypass",
        )
    },
    "c2-curl11": _STRICT_DENY,
    "c2-curl19": _STRICT_DENY,
    "c2-curl23": _STRICT_DENY,
    "c2-curl26": _STRICT_DENY,
    "c2-curl25": "a command named by a variable is asked about, not resolved",
    "c3-f158": _MAN,
    "c7-s130": _MAN,
    "c7-s092": "docker ps connects to the docker daemon's socket",
    "h2-ro118": _MAN,
    "h2-rule057": "docker ps connects to the docker daemon's socket",
    "h2-ro023": "git shortlog -sn: -n is read as a flag with a value, so not proven read-only",
    "h2-ro090": _GLOB_OUT,
    "h2-ro141": _GLOB_OUT,
    "h2-out010": _LISTS,
    "h2-out011": _LISTS,
    "h2-out033": _FOLLOW,
    "h2-out034": _FOLLOW,
    "h2-out035": _FOLLOW,
    "h2-rule018": _STRICT_DENY,
    "h2-rule037": "Read(//etc/**) covers what is below /etc, not the listing of /etc itself",
    "h2-file016": "a Write over a file not read first is invalid before its deny rule is seen",
    "h2-fmode-plan-07": "a read outside the working directories asks in every mode",
    **{k: _INVISIBLE for k in ("h2-con060", "h2-con061", "h2-con062")},
    **{
        f"h2-{k}": _PLAN
        for k in (
            "mode-plan-02",
            "mode-plan-03",
            "mode-plan-04",
            "mode-plan-05",
            "mode-plan-08",
            "mode-plan-09",
            "mode-plan-10",
            "fmode-plan-00",
            "fmode-plan-01",
            "fmode-plan-02",
            "fmode-plan-03",
            "fmode-plan-04",
            "fmode-plan-05",
            "fmode-plan-06",
        )
    },
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
    add_dirs: tuple[str, ...] = ()


def _load() -> list[Case]:
    out: list[Case] = []
    lines = [ln for name in TABLES for ln in (DATA / name).read_text(encoding="utf-8").split("\n")]
    for line in lines:
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
                add_dirs=tuple(raw.get("add_dirs") or ()),
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
    engine = world.engine(
        allow=[places(r) for r in case.allow],
        ask=[places(r) for r in case.ask],
        deny=[places(r) for r in case.deny],
        additional=[Path(places(d)) for d in case.add_dirs],
    )

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
