"""The kept first request's key and file: each input changes the key; an entry is
written whole and read back the same; anything else in its place is a miss."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from hands.cli.first_request_cache import (
    KeptRequest,
    RequestCache,
    any_kept,
    input_paths,
    request_key,
)
from hands.config.settings import load_settings
from hands.core.tool import ToolSpec

PACKAGE = Path(__file__).parents[2] / "src" / "hands"


def _key(tmp_path: Path, package: Path, **changes: object) -> str:
    cwd = tmp_path / "project"
    home = tmp_path / "home"
    settings = load_settings(cwd, env={"HOME": str(home)}, trusted=bool(changes.get("trusted")))
    inputs = input_paths(
        cwd=cwd, home=home, hands_home=tmp_path / "hands-home", config_dir=None, plugins=()
    )
    env = {"PATH": "/usr/bin", "HANDS_TOOL_SEARCH": str(changes.get("search", "auto"))}
    choices = {"cwd": str(cwd), "model": "anthropic:claude-sonnet-4-6", "simple": False}
    return request_key(choices=choices, settings=settings, inputs=inputs, package=package, env=env)


def test_each_input_changes_the_key(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    (tmp_path / "home").mkdir()
    package = tmp_path / "hands"
    shutil.copytree(PACKAGE / "tools" / "web", package / "tools" / "web")
    base = _key(tmp_path, package)
    assert _key(tmp_path, package) == base  # nothing changed: the same key

    module = package / "tools" / "web" / "web_fetch.py"
    stat = module.stat()
    os.utime(module, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    touched = _key(tmp_path, package)
    assert touched != base

    assert _key(tmp_path, package, search="true") != touched  # an environment variable
    assert _key(tmp_path, package, trusted=True) != touched  # the trust decision

    agents = tmp_path / "home" / ".claude" / "agents"
    agents.mkdir(parents=True)
    (agents / "a.md").write_text("---\nname: a\ndescription: A.\n---\nA.\n")
    with_agent = _key(tmp_path, package)
    assert with_agent != touched
    (agents / "a.md").write_text("---\nname: a\ndescription: B.\n---\nA.\n")
    assert _key(tmp_path, package) != with_agent  # its content, not only its name

    settings = tmp_path / "project" / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"permissions": {"deny": ["WebFetch"]}}')
    assert _key(tmp_path, package) not in (base, touched, with_agent)


def test_an_entry_is_read_back_as_written_and_anything_else_is_a_miss(tmp_path: Path) -> None:
    cache = RequestCache(tmp_path / "kept", "a" * 64)
    assert cache.load() is None  # nothing kept yet
    spec = ToolSpec(name="Read", description="Reads.", input_schema={"type": "object"})
    deferred = ToolSpec(
        name="WebFetch", description="Fetches.", input_schema={"type": "object"}, defer_loading=True
    )
    kept = KeptRequest(tools=(spec, deferred), notes=("reminder",))
    cache.save(kept)
    assert cache.load() == kept
    assert [p.name for p in (tmp_path / "kept").iterdir()] == [cache.path.name]  # no temp left

    assert RequestCache(tmp_path / "kept", "b" * 64).load() is None  # another key
    for broken in (b"", b"[]", b'{"version": 1}', cache.path.read_bytes()[:-5]):
        cache.path.write_bytes(broken)
        assert cache.load() is None
    cache.drop()
    assert not cache.path.exists()
    cache.drop()  # nothing to drop: no error


def test_an_entry_that_cannot_be_written_is_not_kept(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("")
    cache = RequestCache(blocked / "kept", "c" * 64)  # its folder cannot be made
    spec = ToolSpec(name="Read", description="Reads.", input_schema={"type": "object"})
    cache.save(KeptRequest(tools=(spec,)))
    assert cache.load() is None


def test_a_new_home_has_nothing_kept_until_an_entry_is_written(tmp_path: Path) -> None:
    directory = tmp_path / "hands-home" / "first-request"
    assert not any_kept(directory)  # no folder yet
    directory.mkdir(parents=True)
    (directory / "abc.123.tmp").write_text("{}")  # a save cut short is not an entry
    assert not any_kept(directory)
    spec = ToolSpec(name="Read", description="Reads.", input_schema={"type": "object"})
    RequestCache(directory, "d" * 64).save(KeptRequest(tools=(spec,)))
    assert any_kept(directory)
    blocked = tmp_path / "file"
    blocked.write_text("")
    assert not any_kept(blocked)  # not a folder
