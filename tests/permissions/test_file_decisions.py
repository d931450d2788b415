"""Read/Edit path rules: the four anchors, gitignore semantics, symlinks, protected paths."""

from __future__ import annotations

import os
from pathlib import Path

import anyio
import pytest

from hands.permissions.paths import compile_path_pattern, protected_reason
from permissions.conftest import World


def test_anchors(world: World) -> None:
    p, home = world.project, world.home
    other = p.parent / "elsewhere"
    other.mkdir()
    engine = world.engine(
        deny=["Read(//etc/shadow)", "Read(~/.ssh/**)", "Read(/secrets/**)", "Read(./local.key)"]
    )
    read = lambda path: world.decide(engine, "Read", {"file_path": str(path)})  # noqa: E731
    assert read("/etc/shadow").rule == "Read(//etc/shadow)"
    assert read(home / ".ssh" / "id_rsa").rule == "Read(~/.ssh/**)"
    assert read(p / "secrets" / "a" / "b.txt").rule == "Read(/secrets/**)"
    assert read(p / "local.key").rule == "Read(./local.key)"
    # relative-to-cwd rules follow the cwd
    d = world.decide(engine, "Read", {"file_path": str(other / "local.key")}, cwd=other)
    assert d.behavior == "deny"
    assert read(p / "src" / "ok.txt").behavior == "allow"


@pytest.mark.parametrize(
    ("rule", "path", "denied"),
    [
        ("Read(.env)", "sub/deep/.env", True),
        ("Read(.env)", "/somewhere/else/.env", True),
        ("Read(*.env)", ".env", True),  # * matches dotfiles
        ("Read(.env.*)", ".env.local", True),
        ("Read(.env.*)", ".env", False),
        ("Read(**/*service-account*.json)", "keys/gcp-service-account-1.json", True),
        ("Read(secrets/**)", "a/secrets/x", True),  # single dir: any depth for deny
        ("Read(config/prod/**)", "a/config/prod/x", False),
        ("Read(config/prod/**)", "config/prod/x", True),
        ("Read(.ENV)", ".env", True),  # case tricks
        ("Read(.env)", ".ENV", True),
        ("Read(../other/**)", "../other/f", True),
    ],
)
def test_deny_patterns(world: World, rule: str, path: str, denied: bool) -> None:
    engine = world.engine(deny=[rule])
    target = path if path.startswith("/") else os.path.normpath(world.project / path)
    d = world.decide(engine, "Read", {"file_path": target})
    assert (d.behavior == "deny") is denied, (rule, path, d)


def test_allow_single_dir_matches_only_at_cwd(world: World) -> None:
    outside = world.project.parent / "outside"
    (outside / "src").mkdir(parents=True)
    engine = world.engine(allow=["Read(src/**)"])
    d = world.decide(engine, "Read", {"file_path": str(outside / "src" / "a")}, cwd=world.project)
    assert d.behavior == "ask"


def test_dotdot_cannot_escape_a_deny(world: World) -> None:
    engine = world.engine(deny=["Read(./secrets/**)"])
    sneaky = f"{world.project}/src/../secrets/key.pem"
    d = world.decide(engine, "Read", {"file_path": sneaky})
    assert d.behavior == "deny"


def test_symlinks_deny_either_allow_both(world: World) -> None:
    secret = world.project / "secrets"
    secret.mkdir()
    (secret / "key").write_text("k")
    link = world.project / "src" / "innocent"
    link.symlink_to(secret / "key")
    engine = world.engine(deny=["Read(./secrets/**)"])
    assert world.decide(engine, "Read", {"file_path": str(link)}).behavior == "deny"

    outside = world.project.parent / "outside.txt"
    outside.write_text("x")
    inner = world.project / "src" / "to-outside"
    inner.symlink_to(outside)
    engine = world.engine(allow=["Edit(src/**)"])
    d = world.decide(
        engine, "Edit", {"file_path": str(inner), "old_string": "x", "new_string": "y"}
    )
    assert d.behavior == "ask"  # the target is not covered by the allow rule
    d = world.decide(engine, "Read", {"file_path": str(inner)})
    assert d.behavior == "ask"  # reading outside through a link inside is still outside


def test_reads_inside_working_dirs_and_additional(world: World) -> None:
    extra = world.project.parent / "extra"
    extra.mkdir()
    engine = world.engine()
    assert world.decide(engine, "Read", {"file_path": str(extra / "f")}).behavior == "ask"
    engine = world.engine(additional=[extra])
    assert world.decide(engine, "Read", {"file_path": str(extra / "f")}).behavior == "allow"
    allow = world.engine(allow=["Read(//opt/data/**)"])
    d = world.decide(allow, "Read", {"file_path": "/opt/data/x.csv"})
    assert d.behavior == "allow" and d.rule == "Read(//opt/data/**)"


@pytest.mark.parametrize(
    ("tool", "data"),
    [
        ("Write", {"content": "x"}),
        ("Edit", {"old_string": "a", "new_string": "b"}),
        ("MultiEdit", {"edits": [{"old_string": "a", "new_string": "b"}]}),
    ],
)
def test_edit_family(world: World, tool: str, data: dict[str, object]) -> None:
    path = str(world.project / "src" / "a.py")
    engine = world.engine()
    call = {"file_path": path, **data}
    assert world.decide(engine, tool, call).behavior == "ask"
    assert world.decide(engine, tool, call, mode="acceptEdits").behavior == "allow"
    assert world.decide(engine, tool, call, mode="plan").behavior == "deny"
    assert world.decide(engine, tool, call, mode="dontAsk").behavior == "deny"
    allowed = world.engine(allow=["Edit(src/**)"])
    assert world.decide(allowed, tool, call).rule == "Edit(src/**)"
    denied = world.engine(allow=["Edit"], deny=["Edit(/src/*.py)"])
    d = world.decide(denied, tool, call, mode="bypassPermissions")
    assert d.behavior == "deny" and d.rule == "Edit(/src/*.py)"
    outside = {**call, "file_path": str(world.project.parent / "x.py")}
    assert world.decide(engine, tool, outside, mode="acceptEdits").behavior == "ask"


def test_notebook_edit_uses_notebook_path(world: World) -> None:
    engine = world.engine(deny=["Edit(*.ipynb)"])
    d = world.decide(
        engine,
        "NotebookEdit",
        {"notebook_path": str(world.project / "n.ipynb"), "new_source": "x", "cell_id": "a"},
    )
    assert d.behavior == "deny"


@pytest.mark.parametrize(
    "relative",
    [
        ".git/config",
        ".git/hooks/pre-commit",
        ".vscode/settings.json",
        ".claude/settings.json",
        ".hands/settings.json",
        ".config/git/config",
        ".bashrc",
        ".zshrc",
        ".npmrc",
        ".mcp.json",
        "sub/.gitconfig",
        ".husky/pre-push",
    ],
)
def test_protected_paths_are_never_auto_approved(world: World, relative: str) -> None:
    path = str(world.project / relative)
    assert protected_reason(path) is not None
    engine = world.engine(allow=["Edit", "Write(**)"])
    call = {"file_path": path, "content": "x"}
    for mode in ("default", "acceptEdits"):
        assert world.decide(engine, "Write", call, mode=mode).behavior == "ask", mode
    assert world.decide(engine, "Write", call, mode="bypassPermissions").behavior == "allow"


def test_claude_worktrees_are_not_protected(world: World) -> None:
    assert protected_reason(str(world.project / ".claude" / "worktrees" / "wt" / "a.py")) is None
    assert protected_reason(str(world.project / ".claude" / "worktrees" / "wt" / ".git" / "x"))


def test_grep_and_glob_pull_read_denials_from_the_policy(world: World) -> None:
    from hands.tools.search._deny import ReadDenySeam, read_deny_seam
    from hands.tools.search.glob import GlobTool
    from hands.tools.search.grep import GrepTool

    (world.project / ".env").write_text("SECRET=1\n")
    (world.project / "src" / "app.py").write_text("SECRET = 2\n")
    engine = world.engine(deny=["Read(.env)", "Read(./secrets/**)"])
    ctx = world.ctx()
    grep = GrepTool()

    async def go() -> None:
        d = await engine.decide(grep, grep.parse_input({"pattern": "SECRET"}), ctx)
        assert d.behavior == "allow"

    anyio.run(go)
    # deciding has no side effect: the session holds no patterns of its own
    assert not ctx.session.service(ReadDenySeam)
    assert not read_deny_seam(ctx)  # a call without the engine as its policy sees none
    seam = read_deny_seam(ctx.for_call("t1", policy=engine))
    assert seam.is_denied(str(world.project / ".env"), default_root=world.project)
    assert seam.is_denied(str(world.project / "secrets" / "k"), default_root=world.project)
    assert not seam.is_denied(str(world.project / "src" / "app.py"), default_root=world.project)
    d = world.decide(engine, "Grep", {"pattern": "x", "path": "/etc"})
    assert d.behavior == "ask"
    blanket = world.engine(deny=["Read"])
    assert blanket.denies_tool(grep) and blanket.denies_tool(GlobTool())
    assert blanket.denies_tool("Read") and not blanket.denies_tool("Grep")  # a name alone


def test_bad_path_patterns_warn() -> None:
    assert isinstance(compile_path_pattern(""), str)
    assert isinstance(compile_path_pattern("a\x00b"), str)
    assert not isinstance(compile_path_pattern("src/**"), str)


def test_home_and_root_patterns_do_not_float(world: World) -> None:
    engine = world.engine(deny=["Read(~/.env)"])
    assert world.decide(engine, "Read", {"file_path": str(world.home / ".env")}).behavior == "deny"
    assert (
        world.decide(engine, "Read", {"file_path": str(world.project / ".env")}).behavior == "allow"
    )
    assert Path(world.home).is_dir()
