"""Dataclasses made from kept code are the classes Python makes without it."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hands.cli import dataclass_code
from hands.cli.dataclass_code import CodeCache, cache_file

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

    cache = install(Path(sys.argv[1]))

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
code, their behaviour and, with a hands home as its argument, how many sources it
compiled (the rest came from the kept file)."""


def classes(home: Path | None) -> dict[str, object]:
    proc = subprocess.run(
        [sys.executable, "-c", CLASSES, str(home) if home is not None else "-"],
        capture_output=True,
        text=True,
        timeout=60,
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
        env={**os.environ, "HANDS_HOME": str(home)},
        timeout=120,
    )


def test_the_command_keeps_the_code_in_its_home_and_reads_it_back(tmp_path: Path) -> None:
    home = tmp_path / "home"
    first = run_read(tmp_path, home)
    assert first.returncode == 0 and first.stdout == "1\thello\n", first.stderr
    kept = cache_file(home)
    size = kept.stat().st_size
    assert size > 10_000  # the code of every class the command made
    second = run_read(tmp_path, home)
    assert (second.returncode, second.stdout, second.stderr) == (0, first.stdout, first.stderr)
    assert kept.stat().st_size == size  # nothing new to add


def test_importing_hands_leaves_dataclasses_alone(tmp_path: Path) -> None:
    code = (
        "import dataclasses, hands, hands.cli.entry, hands.cli.one_call; "
        "print('exec' in vars(dataclasses))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=60
    )
    assert proc.returncode == 0 and proc.stdout == "False\n", proc.stderr
