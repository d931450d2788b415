"""Every Bash command hands allows with no rule must do nothing but read inside the project.

The commands are the hand-written table ``data/effect_commands.txt`` and the generated
``data/effect_flags.txt`` (every read-only program with each flag its ``--help`` lists).
Each command hands allows in the default mode, with no rule, is run in a bubblewrap
sandbox under strace over a throwaway project (see ``effects.py``) and must show no
write, no exec of a program the command line does not name, no read outside the project
and no connection attempt. Commands hands asks about are not run.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import anyio
import pytest

from hands.core.context import PermissionMode
from hands.core.decision import PermissionDecision
from hands.pipeline.pool import assemble_pool
from hands.shell.analysis import analyze
from permissions import effects
from permissions.conftest import World
from permissions.effects import Effects, Scratch

DATA = Path(__file__).parent / "data"
TABLES = ("effect_commands.txt", "effect_flags.txt")

pytestmark = pytest.mark.skipif(
    not effects.available() and not os.environ.get("CI"),
    reason="the effect check needs bubblewrap and strace",
)


def _commands() -> list[str]:
    out: list[str] = []
    for name in TABLES:
        for line in (DATA / name).read_text(encoding="utf-8").split("\n"):
            if line.strip() and not line.startswith("#"):
                out.append(line)
    return list(dict.fromkeys(out))


def _template(root: Path) -> Path:
    """A project with a git history, canaries outside it and in a fake home."""
    project, home, outside = root / "project", root / "home", root / "outside"
    for d in (project / "src", home / ".jq", outside):
        d.mkdir(parents=True)
    files = {
        "file.txt": "alpha\nbeta\n", "test.txt": "beta\ngamma\n", "README.md": "# p\n",
        "data.json": '{"a": [1, 2]}\n', "src/a.ts": "export const alpha = 1\n",
    }  # fmt: skip
    for rel, text in files.items():
        (project / rel).write_text(text, encoding="utf-8")
    subprocess.run(["gzip", "-k", "-n", "file.txt"], cwd=project, check=True)
    (project / "file.txt.gz").rename(project / "notes.gz")
    (project / "link").symlink_to("../outside")
    (project / "sneaky.txt").symlink_to("../outside/secret")
    for rel, text in {"secret": "alpha secret\n", "pat": "alpha\n", "prog": ".\n",
                      "dates": "2020-01-01\n"}.items():  # fmt: skip
        (outside / rel).write_text(text, encoding="utf-8")
    (home / ".netrc").write_text("machine x password y\n", encoding="utf-8")
    (home / ".jq" / "m.jq").write_text("def f: 1;\n", encoding="utf-8")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"]
    subprocess.run([*git, "init", "-q", "--template="], cwd=project, check=True)
    subprocess.run([*git, "add", "."], cwd=project, check=True)
    subprocess.run([*git, "commit", "-qm", "start"], cwd=project, check=True)
    return root


def _scratch(template: Path, root: Path) -> Scratch:
    shutil.copytree(template, root, symlinks=True)
    s = Scratch(root=root, project=root / "project", home=root / "home", outside=root / "outside")
    secret = s.outside / "secret"
    digest = hashlib.sha256(secret.read_bytes()).hexdigest()
    (s.project / "sums.txt").write_text(f"{digest}  {secret}\n", encoding="utf-8")
    (s.project / "list0").write_text(f"file.txt\0{secret}\0", encoding="utf-8")
    return s


def _fill(command: str, s: Scratch) -> str:
    return command.replace("{out}", str(s.outside)).replace("{home}", str(s.home))


def _decide(
    command: str,
    s: Scratch,
    *,
    allow: tuple[str, ...] = (),
    ask: tuple[str, ...] = (),
    deny: tuple[str, ...] = (),
    mode: PermissionMode = "default",
) -> PermissionDecision:
    world = World(project=s.project, home=s.home)
    tool = assemble_pool().find("Bash")
    assert tool is not None
    parsed = tool.parse_input({"command": command})
    ctx = world.ctx(mode)
    engine = world.engine(allow=allow, ask=ask, deny=deny)

    async def go() -> PermissionDecision:
        if await tool.validate_input(parsed, ctx) is not None:
            return PermissionDecision(behavior="deny", message="invalid")
        return await engine.decide(tool, parsed, ctx)

    return anyio.run(go)


def _programs(command: str) -> set[str]:
    a = analyze(command)
    names = {c.name for c in a.commands if c.name}
    names |= {w for c in a.commands for w in c.wrappers}
    return {Path(n).name for n in names}


def _run_one(command: str, template: Path, root: Path) -> Effects:
    return _run_many([command], template, root)[0]


def _run_many(commands: list[str], template: Path, root: Path) -> list[Effects]:
    """Run each command in turn; a fresh copy of the project after one that changed it."""
    out: list[Effects] = []
    s = _scratch(template, root / "0")
    for i, command in enumerate(commands):
        found = effects.run(_fill(command, s), s, _programs(command), timeout=4.0)
        out.append(found)
        if found.writes or found.timed_out:
            shutil.rmtree(s.root, ignore_errors=True)
            s = _scratch(template, root / str(i + 1))
    shutil.rmtree(root, ignore_errors=True)
    return out


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _template(tmp_path_factory.mktemp("effects") / "template")


def test_the_sandbox_sees_each_kind_of_effect(template: Path, tmp_path: Path) -> None:
    seen = {
        cmd: _run_one(cmd, template, tmp_path / str(i))
        for i, cmd in enumerate(
            [
                "touch new.txt",
                "cat link/secret",
                "sh -c ls",
                "curl -s http://192.0.2.1",
                "ls {out}",
                "cat file.txt",
            ]
        )
    }
    assert seen["touch new.txt"].writes
    assert seen["cat link/secret"].outside_reads
    assert seen["sh -c ls"].execs
    assert seen["curl -s http://192.0.2.1"].connections
    assert seen["ls {out}"].outside_reads
    assert not seen["cat file.txt"].any(), seen["cat file.txt"].summary()


@pytest.mark.timeout(300)  # ~25 s on two idle cores; a busy machine runs it slower
def test_commands_hands_allows_only_read_inside_the_project(template: Path, tmp_path: Path) -> None:
    probe = _scratch(template, tmp_path / "probe")
    commands = _commands()
    allowed = [c for c in commands if _decide(_fill(c, probe), probe).behavior == "allow"]
    workers = max(2, (os.cpu_count() or 2) * 2)
    shares = [allowed[i::workers] for i in range(workers)]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        runs = pool.map(
            lambda i: _run_many(shares[i], template, tmp_path / f"w{i}"), range(workers)
        )
        results = [r for share in runs for r in share]
    bad = [r.summary() for r in results if r.any()]
    # the check must have run a real share of the table, or it proves nothing
    assert len(allowed) >= 300, len(allowed)
    assert not bad, f"{len(bad)} of {len(allowed)} allowed commands have effects:\n" + "\n".join(
        bad
    )


@dataclass(frozen=True, kw_only=True)
class Scenario:
    """Rules and a mode, commands tried under them, and what an allowed one may do."""

    name: str
    commands: tuple[str, ...]
    allow: tuple[str, ...] = ()
    ask: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()
    mode: PermissionMode = "default"
    writes_inside: bool = False
    """Allowed commands may write inside the project (an allow rule or mode grants it)."""
    never_runs: tuple[str, ...] = ()
    """Programs a deny or ask rule holds back: an allowed command never runs them."""


_WRITING_OPTIONS = (
    "git log --output={out}/log.txt -1",
    "git log --output=log.txt -1",
    "git diff --output={out}/d.txt",
    "git -c core.pager='touch {out}/p' log -1",
    "git --no-pager log -1 --ext-diff",
    "sort -o {out}/sorted file.txt",
    "sort -o sorted.txt file.txt",
    "sort --output={home}/s file.txt",
    "rg --pre touch alpha",
    "rg --pre=touch alpha .",
    "jq -n 'input' --rawfile x {out}/secret data.json",
    "jq --arg x y . data.json",
    "tree -o {out}/t .",
    "tree -o t.txt .",
    "cat file.txt > {out}/copy",
    "cat file.txt | tee {out}/tee",
    "git log -1 && touch {out}/and",
    "git log -1; cp file.txt {out}/c",
)
_HIDDEN_RUNS = (
    "git -C . push origin main",
    "git -c alias.p=push p origin main",
    "git --no-pager -c user.name=x push",
    "git -c 'alias.t=!touch pwned' t",
    "env touch pwned",
    "sh -c 'touch pwned'",
    "find . -maxdepth 0 -exec touch pwned ;",
    "xargs touch <<< pwned",
    "timeout 5 touch pwned",
    "command touch pwned",
    "{ echo a; touch pwned; }",
    "echo $(touch pwned)",
    "echo `touch pwned`",
    "cat <<< $(touch pwned)",
    "coproc touch pwned",
    "T=touch; $T pwned",
    "eval 'touch pwned'",
)
_PLAIN_WRITES = (
    "touch made.txt",
    "mkdir -p made/dir",
    "cp file.txt made.txt",
    "mv test.txt moved.txt",
    "touch {out}/made",
    "cp file.txt {home}/made",
    "mkdir link/made",
    "touch sneaky.txt",
    "rm -f README.md",
    "sed -i s/alpha/beta/ file.txt",
    "echo x > made.txt",
    "git log -1",
    "ls",
    "cd .. && ls",
    "cd {out} && ls",
)
SCENARIOS = (
    Scenario(
        name="narrow allow rules with options that write",
        commands=_WRITING_OPTIONS,
        allow=(
            "Bash(git log:*)",
            "Bash(git diff:*)",
            "Bash(sort:*)",
            "Bash(rg:*)",
            "Bash(jq:*)",
            "Bash(tree:*)",
            "Bash(cat:*)",
        ),
        writes_inside=True,
    ),
    Scenario(
        name="ask rules under a broad allow",
        commands=_HIDDEN_RUNS,
        allow=("Bash",),
        ask=("Bash(git push:*)", "Bash(touch:*)"),
        never_runs=("touch",),
        writes_inside=True,
    ),
    Scenario(
        name="deny rules under a broad allow",
        commands=_HIDDEN_RUNS,
        allow=("Bash",),
        deny=("Bash(git push:*)", "Bash(touch:*)"),
        never_runs=("touch",),
        writes_inside=True,
    ),
    Scenario(name="acceptEdits", commands=_PLAIN_WRITES, mode="acceptEdits", writes_inside=True),
    Scenario(name="plan", commands=_PLAIN_WRITES + _HIDDEN_RUNS, mode="plan"),
    Scenario(name="dontAsk", commands=_PLAIN_WRITES + _HIDDEN_RUNS, mode="dontAsk"),
)


def _inside(write: str) -> bool:
    """A write the effects list names inside the scratch project (a relative name is)."""
    path = write.rpartition(" ")[2]
    return not path.startswith("/") or "/project" in path


@pytest.mark.timeout(300)
@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_what_rules_and_modes_allow_stays_within_them(
    scenario: Scenario, template: Path, tmp_path: Path
) -> None:
    """Each command allowed under the scenario is run: its effects stay inside what it grants."""
    probe = _scratch(template, tmp_path / "probe")
    allowed = [
        c
        for c in scenario.commands
        if _decide(
            _fill(c, probe),
            probe,
            allow=scenario.allow,
            ask=scenario.ask,
            deny=scenario.deny,
            mode=scenario.mode,
        ).behavior
        == "allow"
    ]
    results = _run_many(allowed, template, tmp_path / "run")
    bad: list[str] = []
    for found in results:
        writes = [w for w in found.writes if not (scenario.writes_inside and _inside(w))]
        runs = [e for e in found.execs if Path(e).name in scenario.never_runs]
        if scenario.never_runs:
            runs += [e for e in found.execs if Path(e).name not in ("git", "echo", "cat", "ls")]
        else:
            runs += found.execs
        if writes or runs or found.outside_reads or found.connections:
            beyond = [*writes, *runs, *found.outside_reads, *found.connections]
            bad.append(f"{found.command!r} -> {', '.join(sorted(set(beyond))[:4])}")
    assert not bad, f"{scenario.name}: allowed commands went beyond the rules:\n" + "\n".join(bad)
