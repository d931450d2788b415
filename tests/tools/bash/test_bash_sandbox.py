"""The bubblewrap sandbox, with real bwrap: escape attempts fail."""

from __future__ import annotations

import shutil
import socket
import struct
import threading
from pathlib import Path

import pytest

from hands.tools.bash._settings import BashSettings, SandboxSettings
from hands.tools.bash.sandbox.sandbox import seccomp_program
from tools.bash.kit import text

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap (bwrap) is not installed"),
]

SANDBOXED = BashSettings(sandbox=SandboxSettings(enabled=True))


async def test_commands_run_and_may_write_the_workspace(harness, tmp_path):
    h = harness(SANDBOXED)
    out = await h.bash("echo hi > made.txt && cat made.txt && pwd")
    assert text(out) == f"hi\n{tmp_path}"
    assert (tmp_path / "made.txt").read_text() == "hi\n"


@pytest.mark.parametrize("target", ["/var/tmp/hands-escape-{n}", "/etc/hands-escape-{n}"])
async def test_writing_outside_the_workspace_fails(harness, target):
    import secrets

    path = Path(target.format(n=secrets.token_hex(4)))
    h = harness(SANDBOXED)
    out = await h.bash(f"echo x > {path}")
    assert out.is_error
    assert "Read-only file system" in text(out)
    assert "ran in the sandbox" in text(out)
    assert not path.exists()


async def test_tmp_is_private(harness):
    h = harness(SANDBOXED)
    await h.bash("echo secret > /tmp/hands-sandbox-probe")
    assert not Path("/tmp/hands-sandbox-probe").exists()


async def test_a_host_tmp_path_the_sandbox_cannot_see_is_explained(harness, tmp_path):
    import tempfile

    outside = Path(tempfile.mkdtemp(prefix="hands-outside-"))
    try:
        (outside / "data.txt").write_text("x\n")
        h = harness(SANDBOXED)
        out = await h.bash(f"cat {outside / 'data.txt'}")
        assert out.is_error
        assert "No such file or directory" in text(out)
        assert f"own empty /tmp: {outside / 'data.txt'} exists" in text(out)
        missing = await h.bash(f"cat {outside / 'missing.txt'}")
        assert missing.is_error and "own empty /tmp" not in text(missing)
        (tmp_path / "here.txt").write_text("y\n")
        inside = await h.bash(f"echo {tmp_path / 'here.txt'}; cat /nonexistent-hands-file")
        assert inside.is_error and "own empty /tmp" not in text(inside)
    finally:
        shutil.rmtree(outside)


async def test_no_network_not_even_host_loopback(harness):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    accepted: list[bool] = []

    def accept() -> None:
        server.settimeout(3)
        try:
            conn, _ = server.accept()
            accepted.append(True)
            conn.close()
        except OSError:
            pass

    thread = threading.Thread(target=accept)
    thread.start()
    try:
        h = harness(SANDBOXED)
        out = await h.bash(f"exec 3<>/dev/tcp/127.0.0.1/{port} && echo connected")
        assert out.is_error
        assert "connected" not in text(out)
    finally:
        thread.join()
        server.close()
    assert accepted == []


async def test_symlinks_out_of_the_workspace_cannot_be_created(harness, tmp_path):
    h = harness(SANDBOXED)
    out = await h.bash("ln -s /etc/passwd link")
    assert out.is_error
    assert not (tmp_path / "link").is_symlink()
    out = await h.bash("python3 -c \"import os; os.symlink('/etc', 'l2')\"")
    assert out.is_error
    assert not (tmp_path / "l2").is_symlink()
    out = await h.bash("ln /etc/hostname hard")
    assert out.is_error
    assert not (tmp_path / "hard").exists()


async def test_git_hooks_stay_read_only(harness, tmp_path):
    hooks = tmp_path / ".git" / "hooks"
    hooks.mkdir(parents=True)
    h = harness(SANDBOXED)
    out = await h.bash("echo 'rm -rf ~' > .git/hooks/pre-commit")
    assert out.is_error
    assert not (hooks / "pre-commit").exists()


async def test_processes_do_not_survive_the_sandbox(harness, tmp_path):
    import secrets
    import subprocess

    duration = f"60.{secrets.randbelow(10**6):06d}1"
    h = harness(SANDBOXED)
    out = await h.bash(f"setsid sleep {duration} >/dev/null 2>&1 < /dev/null & echo $!")
    assert not out.is_error
    # the pid is inside the sandbox's pid namespace; look for the sleep on the host
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True, check=True)
    assert f"sleep {duration}" not in ps.stdout


async def test_dangerously_disable_sandbox_when_allowed_asks_then_runs_outside(
    harness, tmp_path_factory
):
    outside = tmp_path_factory.mktemp("outside")
    h = harness(SANDBOXED)
    # bypassPermissions answers the ask
    out = await h.bash(f"echo x > {outside}/ok", dangerouslyDisableSandbox=True)
    assert not out.is_error
    assert (outside / "ok").exists()


async def test_missing_bwrap_is_a_clear_error(harness, monkeypatch):
    from hands.tools.bash.sandbox import sandbox

    sandbox.check_available.cache_clear()
    monkeypatch.setattr(
        shutil, "which", lambda name: None if name == "bwrap" else "/bin/bash"
    )
    try:
        out = await harness(SANDBOXED).bash("echo hi")
    finally:
        monkeypatch.undo()
        sandbox.check_available.cache_clear()
    assert out.is_error
    assert "bubblewrap" in text(out) and "not run" in text(out)


def test_seccomp_program_shape():
    prog = seccomp_program("x86_64")
    assert len(prog) % 8 == 0
    instructions = [struct.unpack("=HBBI", prog[i : i + 8]) for i in range(0, len(prog), 8)]
    assert instructions[-1] == (0x06, 0, 0, 0x00050001)
    assert instructions[-2] == (0x06, 0, 0, 0x7FFF0000)
    # every conditional jump lands inside the program
    for pc, (code, jt, jf, _) in enumerate(instructions):
        if code in (0x15, 0x35):
            assert pc + 1 + jt < len(instructions)
            assert pc + 1 + jf < len(instructions)


def test_settings_from_the_settings_file_shape():
    settings = SandboxSettings.from_settings(
        {
            "sandbox": {
                "enabled": True,
                "allowUnsandboxedCommands": False,
                "network": {"allowedDomains": ["github.com"]},
                "filesystem": {"allowWrite": ["~/.cache"]},
            }
        }
    )
    assert settings.enabled and not settings.allow_unsandboxed_commands
    assert settings.allowed_domains == ("github.com",)
    assert settings.allow_write == ("~/.cache",)
    assert SandboxSettings.from_settings({}) == SandboxSettings()


async def test_the_env_file_reaches_sandboxed_commands(harness, monkeypatch):
    import tempfile

    outside = Path(tempfile.mkdtemp(prefix="hands-env-"))  # hidden by the private /tmp
    try:
        (outside / "env.sh").write_text("export SANDBOX_GREETING=hi\n")
        monkeypatch.setenv("CLAUDE_ENV_FILE", str(outside / "env.sh"))
        out = await harness(SANDBOXED).bash('echo "[$SANDBOX_GREETING]"')
        assert text(out) == "[hi]"
    finally:
        shutil.rmtree(outside)


async def test_excluded_commands_run_outside_the_sandbox(harness):
    import tempfile

    outside = Path(tempfile.mkdtemp(prefix="hands-excluded-"))
    try:
        settings = BashSettings(sandbox=SandboxSettings(enabled=True, excluded_commands=("touch",)))
        h = harness(settings)
        excluded = await h.bash(f"touch {outside / 'made'}")
        assert not excluded.is_error and (outside / "made").exists()
        assert excluded.output.sandboxed is False
        inside = await h.bash(f"mkdir {outside / 'not-made'}")
        assert inside.is_error and not (outside / "not-made").exists()
    finally:
        shutil.rmtree(outside)


async def test_protected_paths_a_sandboxed_command_creates_are_moved_away(harness, tmp_path):
    h = harness(SANDBOXED)
    out = await h.bash(
        "mkdir .claude && echo '{\"hooks\": {}}' > .claude/settings.local.json && "
        "echo '{}' > .mcp.json && git init -q . && "
        "echo 'echo pwned' > .git/hooks/pre-commit && echo done"
    )
    assert "done" in text(out)
    assert not (tmp_path / ".claude").exists() and not (tmp_path / ".mcp.json").exists()
    assert (tmp_path / ".git" / "config").is_file()  # the new repository itself stays
    assert not (tmp_path / ".git" / "hooks").exists()
    assert text(out).count("which sandboxed commands may not create") == 3
    moved = [line.rsplit("moved to ", 1)[1].rstrip(".") for line in text(out).splitlines()
             if "moved to" in line]  # fmt: skip
    kept = [Path(m) for m in moved if Path(m).name == ".claude"]
    assert kept and (kept[0] / "settings.local.json").exists()
