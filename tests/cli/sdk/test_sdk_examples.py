"""The Python SDK's own examples (from its sdist on PyPI) run to completion on hands.

Each example is run as published, adapted only as the examples' README allows: the CLI
the SDK starts is hands, and every ``ClaudeAgentOptions`` gets a scripted ``model``
(no network, no key). The sdist is downloaded once per version with pip; when the
registry cannot be reached the tests skip, except under ``CI=true``.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import tarfile
from importlib.metadata import version
from pathlib import Path

import pytest

from cli.sdk.kit import HANDS, scripted, text

pytestmark = pytest.mark.slow

# the last exit handler freezes the heap: the interpreter's last sweep over the SDK's
# objects is not what an example tests (the hands command skips it too, hands.cli.shutdown)
RUNNER = """
import atexit, functools, gc, os, runpy, sys
atexit.register(gc.freeze)
import claude_agent_sdk
import claude_agent_sdk._internal.transport.subprocess_cli as transport
HANDS, MODEL = sys.argv[1], os.environ["EXAMPLE_MODEL"]
transport.SubprocessCLITransport._find_cli = lambda self: HANDS
original = claude_agent_sdk.ClaudeAgentOptions.__init__
@functools.wraps(original)
def init(self, *args, **kwargs):
    original(self, *args, **{**kwargs, "model": MODEL})
claude_agent_sdk.ClaudeAgentOptions.__init__ = init
path = sys.argv[2]
sys.argv = [path, *sys.argv[3:]]
runpy.run_path(path, run_name="__main__")
"""

USER_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
"""The cache folder as the run found it (a session fixture elsewhere may repoint it)."""

STREAMING_EXAMPLES = (
    "basic_streaming",
    "multi_turn_conversation",
    "concurrent_responses",
    "with_interrupt",
    "manual_message_handling",
    "with_options",
    "async_iterable_prompt",
    "bash_command",
    "control_protocol",
    "error_handling",
)

EXAMPLES = [
    ("quick_start",),
    ("agents",),
    ("hooks", "all"),
    ("include_partial_messages",),
    ("max_budget_usd",),
    ("mcp_calculator",),
    ("setting_sources", "all"),
    ("stderr_callback_example",),
    # streaming_mode's ten examples one by one, not "all": two of them wait out their own
    # timeouts (30 s, 3 s) and sleeps, so in one process they were the suite's longest test
    *(("streaming_mode", name) for name in STREAMING_EXAMPLES),
    ("system_prompt",),
    ("tool_permission_callback",),
    ("tools_option",),
    ("filesystem_agents",),
]


@pytest.fixture(scope="session")
def examples() -> Path:
    # session-scoped, so the examples spread over the workers; the first worker to get
    # here downloads the sdist while the others wait on the lock
    wanted = version("claude-agent-sdk")
    cache = USER_CACHE / "hands-tests" / "pypi" / f"claude-agent-sdk-{wanted}"
    folder = cache / f"claude_agent_sdk-{wanted}" / "examples"
    cache.mkdir(parents=True, exist_ok=True)
    with (cache.parent / f".claude-agent-sdk-{wanted}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if folder.is_dir():
            return folder
        done = subprocess.run(
            [sys.executable, "-m", "pip", "download", f"claude-agent-sdk=={wanted}", "--no-deps",
             "--no-binary", ":all:", "-d", str(cache), "-q"],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        archives = list(cache.glob("claude_agent_sdk-*.tar.gz"))
        if done.returncode != 0 or not archives:
            reason = f"pip could not download the claude-agent-sdk sdist: {done.stderr[-500:]}"
            if os.environ.get("CI", "").lower() == "true":
                pytest.fail(reason)
            pytest.skip(f"NOT RUN - {reason}")
        with tarfile.open(archives[0]) as archive:
            archive.extractall(cache, filter="data")
    return folder


@pytest.mark.timeout(300)
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: "-".join(e))
def test_example_runs_to_completion(
    examples: Path, tmp_path: Path, example: tuple[str, ...]
) -> None:
    name, *args = example
    model = scripted(tmp_path, *([text(f"answer {i}")] for i in range(40)))
    runner = tmp_path / "runner.py"
    runner.write_text(RUNNER)
    work = tmp_path / "work"
    work.mkdir()
    done = subprocess.run(
        [sys.executable, str(runner), HANDS, str(examples / f"{name}.py"), *args],
        env={**os.environ, "HOME": str(tmp_path), "EXAMPLE_MODEL": model},
        cwd=work, capture_output=True, text=True, timeout=280,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-3000:]
    assert "Traceback" not in output, output[-3000:]


@pytest.mark.timeout(300)
def test_plugin_example_loads_the_demo_plugin_in_a_trusted_folder(
    examples: Path, tmp_path: Path
) -> None:
    from hands.config.trust import trust

    model = scripted(tmp_path, [text("hello")])
    runner = tmp_path / "runner.py"
    runner.write_text(RUNNER)
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "HOME": str(tmp_path), "EXAMPLE_MODEL": model}
    trust(work, env)
    done = subprocess.run(
        [sys.executable, str(runner), HANDS, str(examples / "plugin_example.py")],
        env=env, cwd=work, capture_output=True, text=True, timeout=280,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-3000:]
    demo = examples / "plugins" / "demo-plugin"
    assert f"  - demo-plugin (path: {demo})" in done.stdout, output[-3000:]
