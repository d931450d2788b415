"""Dataclasses made from kept code are the classes Python makes without it."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
import uuid
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType

import pytest

from hands.cli import dataclass_code
from hands.cli.dataclass_code import CodeCache, cache_file, file_name, package_file
from models.loopback import LoopbackServer, sse_reply
from models.wire import a_end, a_start, a_text

CLASSES = '''
from __future__ import annotations

import dataclasses
import json
import marshal
import pickle
import sys
from dataclasses import InitVar, dataclass, field
from pathlib import Path
from typing import ClassVar, Generic, TypeVar

cache = None
if sys.argv[1] != "-":
    from hands.cli.dataclass_code import install

    cache = install(Path(sys.argv[1]), package=Path(sys.argv[2]))

T = TypeVar("T")


@dataclass(frozen=True, kw_only=True, slots=True)
class Value(Generic[T]):
    """A frozen value."""

    name: str
    items: tuple[T, ...] = ()
    extra: dict[str, int] = field(default_factory=dict, hash=False)
    hidden: int = field(default=0, repr=False, compare=False)
    kind: ClassVar[str] = "value"


@dataclass(kw_only=True)
class Plain:
    self: int
    scale: InitVar[int] = 1
    total: int = 0

    def __post_init__(self, scale: int) -> None:
        self.total = self.self * scale


@dataclass(order=True, unsafe_hash=True)
class Ordered:
    a: int
    b: str = "b"


Made = dataclasses.make_dataclass("Made", [("x", int), ("y", str, field(default="y"))])
methods = {}
for cls in (Value, Plain, Ordered, Made):
    for name, member in sorted(vars(cls).items()):
        code = getattr(getattr(member, "__wrapped__", member), "__code__", None)
        if code is not None and code.co_filename == "<string>":
            annotations = getattr(member, "__annotations__", {})
            methods[f"{cls.__name__}.{name}"] = [
                marshal.dumps(code).hex(), repr(sorted(annotations.items()))
            ]
value = Value(name="v", items=(1, 2), hidden=3)
frozen = ""
try:
    value.name = "w"  # type: ignore[misc]
except dataclasses.FrozenInstanceError as exc:
    frozen = str(exc)
behaviour = [
    repr(value), value == Value(name="v", items=(1, 2)),
    hash(value) == hash(Value(name="v", items=(1, 2))),
    pickle.loads(pickle.dumps(value)) == value, frozen, Value.__doc__,
    repr(Plain(self=2, scale=3)), Plain.__doc__, Ordered(1) < Ordered(2),
    hash(Ordered(1)) == hash(Ordered(1)), repr(Made(1)), Made.__doc__, Ordered.__match_args__,
]
compiled = None if cache is None else len(cache.compiled)
print(json.dumps({"methods": methods, "behaviour": behaviour, "compiled": compiled}))
'''
"""Makes classes of every kind ``dataclasses`` generates code for; prints their methods'
code, their behaviour and, with a hands home and a file beside the package as its
arguments, how many sources it compiled (the rest came from the kept files)."""


def env_for(*, bytecode: bool) -> dict[str, str]:
    """The environment with Python allowed to write byte code, or not."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return env if bytecode else {**env, "PYTHONDONTWRITEBYTECODE": "1"}


def classes(
    home: Path | None, package: Path | None = None, *, bytecode: bool = False
) -> dict[str, object]:
    """Run :data:`CLASSES`; ``package``: the file beside the package (by default a file
    next to ``home``); ``bytecode``: whether Python may write byte code."""
    beside = package or (home.parent / "package" / "kept.marshal" if home else Path("-"))
    proc = subprocess.run(
        [sys.executable, "-c", CLASSES, str(home) if home is not None else "-", str(beside)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env_for(bytecode=bytecode),
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_classes_made_from_kept_code_are_the_classes_made_without(tmp_path: Path) -> None:
    plain = classes(None)
    first = classes(tmp_path)
    second = classes(tmp_path)
    assert len(plain["methods"]) >= 15  # type: ignore[arg-type]  # so the comparison means something
    assert first["methods"] == plain["methods"] and second["methods"] == plain["methods"]
    assert first["behaviour"] == plain["behaviour"] == second["behaviour"]
    # each source compiled once (two methods may share one)
    assert 15 <= first["compiled"] <= len(plain["methods"])  # type: ignore[operator, arg-type]
    assert second["compiled"] == 0  # every method's code came from the file
    assert cache_file(tmp_path).is_file()


def test_a_damaged_or_foreign_file_counts_as_empty_and_is_replaced(tmp_path: Path) -> None:
    kept = cache_file(tmp_path)
    kept.parent.mkdir(parents=True)
    count = classes(tmp_path / "fresh")["compiled"]
    for content in (b"\x00not marshal", marshal.dumps((b"\x00\x00\r\n", {"x": 1})), b""):
        kept.write_bytes(content)
        assert classes(tmp_path)["compiled"] == count
        assert classes(tmp_path)["compiled"] == 0  # the file was written again, whole


def test_an_unwritable_home_leaves_the_classes_as_they_are(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.write_text("a file, not a folder")
    result = classes(home)
    assert result["behaviour"] == classes(None)["behaviour"]
    assert classes(home)["compiled"] == result["compiled"] != 0  # nothing was kept


def test_a_full_file_keeps_only_what_the_saving_run_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "code.marshal"
    earlier = CodeCache(path)
    for i in range(4):
        earlier.exec(f"def f{i}(): return {i}", {}, {})
    earlier.save()
    monkeypatch.setattr(dataclass_code, "KEPT_SOURCES", 5)
    made: dict[str, object] = {}
    later = CodeCache(path)
    for source in ("def f0(): return 0", "def g(): return 'g'", "def h(): return 'h'"):
        later.exec(source, {}, made)
    assert len(later.compiled) == 2  # f0 came from the file
    later.save()  # 4 kept + 2 new > 5: only what this run used or compiled stays
    kept = CodeCache(path).known
    assert set(kept) == {"def f0(): return 0", "def g(): return 'g'", "def h(): return 'h'"}
    assert [made[name]() for name in ("f0", "g", "h")] == [0, "g", "h"]  # type: ignore[operator]


def test_the_code_goes_beside_the_package_when_python_may_write_byte_code_there(
    tmp_path: Path,
) -> None:
    home, package = tmp_path / "home", tmp_path / "hands" / "__pycache__" / "kept.marshal"
    first = classes(home, package, bytecode=True)
    assert package.is_file() and not cache_file(home).exists()
    assert classes(home, package, bytecode=True)["compiled"] == 0
    # with PYTHONDONTWRITEBYTECODE set, what the package's file lacks is kept in the home
    elsewhere = tmp_path / "elsewhere" / "kept.marshal"
    assert classes(home, elsewhere)["compiled"] == first["compiled"]
    assert not elsewhere.exists() and cache_file(home).is_file()
    assert classes(home, elsewhere)["compiled"] == 0
    # a package folder that cannot be written (a read-only install): the home again
    blocked = tmp_path / "blocked"
    blocked.write_text("a file, not a folder")
    other_home = tmp_path / "other-home"
    assert classes(other_home, blocked / "kept.marshal", bytecode=True) == first
    assert cache_file(other_home).is_file()
    assert classes(other_home, blocked / "kept.marshal", bytecode=True)["compiled"] == 0


def kept_file(path: Path, entries: dict[str, object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(marshal.dumps((MAGIC_NUMBER, entries)))


def returning(value: str) -> CodeType:
    return compile(f"def f(): return {value!r}", "<string>", "exec")


def test_the_package_file_is_read_first_and_the_home_only_for_what_it_lacks(
    tmp_path: Path,
) -> None:
    beside, home = tmp_path / "package.marshal", tmp_path / "home.marshal"
    both, home_only, neither = (f"def f(): return {v!r}" for v in ("both", "home", "neither"))
    # each file's code says where it came from (a kept file is trusted as byte code is)
    kept_file(beside, {both: returning("the package's")})
    kept_file(home, {both: returning("the home's"), home_only: returning("the home's only")})
    cache = CodeCache(beside, fallbacks=(home,), writes=(beside, home))
    made: dict[str, object] = {}

    def run(source: str) -> object:
        cache.exec(source, {}, made)
        return made["f"]()  # type: ignore[operator]

    assert run(both) == "the package's"
    assert cache.fallbacks == [home]  # not read: the package's file had everything so far
    assert run(home_only) == "the home's only" and cache.fallbacks == []
    assert run(both) == "the package's"  # the package's file still comes first
    assert run(neither) == "neither" and list(cache.compiled) == [neither]
    assert cache.save()
    assert set(CodeCache(beside).known) == {both, neither}  # added beside the package
    assert set(CodeCache(home).known) == {both, home_only}  # the home's left as it was

    blocked = tmp_path / "blocked"
    blocked.write_text("a file, not a folder")
    cache = CodeCache(beside, writes=(blocked / "kept.marshal", home))
    cache.exec("def g(): return 'g'", {}, made)
    assert cache.save() and "def g(): return 'g'" in CodeCache(home).known
    cache = CodeCache(beside, writes=(blocked / "kept.marshal",))
    cache.exec("def h(): return 'h'", {}, made)
    assert not cache.save() and cache.compiled  # nowhere to write: kept for a later try


def test_a_damaged_entry_is_compiled_again(tmp_path: Path) -> None:
    path = tmp_path / "kept.marshal"
    good, damaged, foreign = (f"def f(): return {v!r}" for v in ("good", "damaged", "foreign"))
    kept_file(
        path,
        {good: marshal.dumps(returning("kept")), damaged: b"\xffnot code", foreign: 42},
    )
    cache = CodeCache(path)
    made: dict[str, object] = {}
    for source, expected in ((good, "kept"), (damaged, "damaged"), (foreign, "foreign")):
        cache.exec(source, {}, made)
        assert made["f"]() == expected  # type: ignore[operator]
    assert set(cache.compiled) == {damaged, foreign}


PLANTED = """
import sys
from dataclasses import dataclass
from pathlib import Path

from hands.cli.dataclass_code import install

home, field_name, package = sys.argv[1], sys.argv[2], sys.argv[3:]
install(Path(home), **({"package": Path(package[0])} if package else {}))
made = {"dataclass": dataclass}
exec(f"@dataclass(frozen=True)\\nclass Planted:\\n    {field_name}: int\\n", made)
print(repr(made["Planted"](**{field_name: 1})))
"""
"""Makes a class whose field name no kept file has met; installs the kept code from the
default places, or with a third argument from that file beside the package."""


def test_a_file_planted_in_the_project_or_the_working_folder_is_never_read(
    tmp_path: Path,
) -> None:
    field_name = f"x_{uuid.uuid4().hex}"

    def planted(cwd: Path, home: str, *package: Path) -> subprocess.CompletedProcess[str]:
        env = {**env_for(bytecode=False), "HOME": str(tmp_path / "user")}
        return subprocess.run(
            [sys.executable, "-c", PLANTED, str(tmp_path / home), field_name]
            + [str(p) for p in package],
            capture_output=True, text=True, cwd=cwd, env=env, timeout=60,
        )  # fmt: skip

    # the class's generated sources, learnt in a hands home of their own
    assert planted(tmp_path, "learning").returncode == 0
    sources = CodeCache(cache_file(tmp_path / "learning")).known
    assert any(field_name in source for source in sources)
    marker = tmp_path / "planted code ran"
    bad = compile(f"open({str(marker)!r}, 'w').close()", "<string>", "exec")
    project = tmp_path / "project"
    places = [
        project / file_name(),
        project / "__pycache__" / file_name(),
        project / "cache" / file_name(),
        project / ".hands" / "cache" / file_name(),
        project / ".claude" / "cache" / file_name(),
        project / "hands" / "cli" / "__pycache__" / file_name(),  # shaped like the package
        tmp_path / "user" / ".hands" / "cache" / file_name(),  # not the hands home given
    ]
    for place in places:
        kept_file(place, dict.fromkeys(sources, bad))
    # the places the command reads: beside the installed package, and the hands home
    done = planted(project, "hands-home")
    assert done.returncode == 0 and done.stdout == f"Planted({field_name}=1)\n", done.stderr
    assert not marker.exists()
    assert cache_file(tmp_path / "hands-home").is_file()  # the class was compiled, and kept
    # the planted file, read (as if it were beside the package), would have run its code
    planted(project, "another-home", places[0])
    assert marker.exists()


SEEN: list[str] = []


def test_without_namespaces_the_code_runs_in_the_callers_as_exec_does(tmp_path: Path) -> None:
    cache = CodeCache(tmp_path / "code.marshal")

    def caller() -> None:
        step = 2  # noqa: F841 (read by the executed source)
        cache.exec("SEEN.append(f'{__name__}:{step}')")

    caller()
    caller()  # the second time from the code kept
    assert SEEN == [f"{__name__}:2", f"{__name__}:2"] and len(cache.compiled) == 1


def run_read(tmp_path: Path, home: Path) -> subprocess.CompletedProcess[str]:
    (tmp_path / "a.txt").write_text("hello\n")
    return subprocess.run(
        [sys.executable, "-m", "hands", "tool", "Read", json.dumps({"file_path": "a.txt"})],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**env_for(bytecode=False), "HANDS_HOME": str(home)},
        timeout=120,
    )


def test_the_command_keeps_what_the_package_file_lacks_in_its_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    first = run_read(tmp_path, home)
    assert first.returncode == 0 and first.stdout == "1\thello\n", first.stderr
    beside, kept = CodeCache(package_file()).known, cache_file(home)
    size = kept.stat().st_size if kept.exists() else 0
    assert size + len(beside) > 0  # the code of every class the command made, somewhere
    assert not set(CodeCache(kept).known) & set(beside)  # the home has only what it lacked
    second = run_read(tmp_path, home)
    assert (second.returncode, second.stdout, second.stderr) == (0, first.stdout, first.stderr)
    assert (kept.stat().st_size if kept.exists() else 0) == size  # nothing new to add


COMMAND = """
import sys
from pathlib import Path

from hands.cli.dataclass_code import install

install(Path(sys.argv[1]), package=Path(sys.argv[2]))
sys.argv[:3] = ["hands"]
from hands.cli.entry import main

main()
"""
"""The ``hands`` command with the file beside the package at ``argv[2]``."""


def test_the_installed_file_has_every_class_of_a_read_and_of_a_first_request(
    tmp_path: Path, server: LoopbackServer
) -> None:
    beside = tmp_path / "package" / "kept.marshal"
    filled = subprocess.run(
        [sys.executable, "-m", "hands.cli.keep_code", str(beside)],
        capture_output=True, text=True, env=env_for(bytecode=False), timeout=300,
    )  # fmt: skip
    assert (filled.returncode, filled.stdout, filled.stderr) == (0, "", "")
    assert len(CodeCache(beside).known) > 500
    (tmp_path / "a.txt").write_text("hello\n")
    env = {
        k: v
        for k, v in env_for(bytecode=False).items()
        if not k.startswith(("ANTHROPIC_", "HANDS_", "CLAUDE_"))
    }
    env.update(HOME=str(tmp_path), ANTHROPIC_API_KEY="k", ANTHROPIC_BASE_URL=server.url)
    env.update(NO_PROXY="127.0.0.1")
    server.queue(sse_reply(a_start(), *a_text(0, "Done."), *a_end()))
    for name, argv in {
        "read": ["tool", "Read", json.dumps({"file_path": "a.txt"})],
        "print": ["-p", "go", "--model", "sonnet"],
    }.items():
        home = tmp_path / f"home-{name}"
        proc = subprocess.run(
            [sys.executable, "-c", COMMAND, str(home), str(beside), *argv],
            capture_output=True, text=True, cwd=tmp_path, timeout=120,
            env={**env, "HANDS_HOME": str(home)},
        )  # fmt: skip
        assert proc.returncode == 0 and proc.stdout in ("1\thello\n", "Done.\n"), proc.stderr
        # a new home, and nothing compiled to keep in it: every class's code was installed
        assert not cache_file(home).exists(), set(CodeCache(cache_file(home)).known)
    sent = [r for r in server.requests if r.path.partition("?")[0] == "/v1/messages"]
    assert len(sent) == 1 and sent[0].body["messages"][0]["content"][-1]["text"] == "go"


def test_importing_hands_leaves_dataclasses_alone(tmp_path: Path) -> None:
    code = (
        "import dataclasses, hands, hands.cli.entry, hands.cli.one_call; "
        "print('exec' in vars(dataclasses))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=60
    )
    assert proc.returncode == 0 and proc.stdout == "False\n", proc.stderr
