"""Instructions per tool call and to the first model request, counted by callgrind.

A busy machine stretches wall time but not the number of instructions a path executes, so
every figure here is a count from ``valgrind --tool=callgrind`` (Debian's valgrind; ``make
bench`` installs it when missing). Each figure is one path run in a fresh process twice,
with N and with 0 iterations after the same set-up and warm-up; the difference over N is
the cost of one iteration, and start-up, imports and warm-up cancel out.

Per call (the trivial ``add`` tool of ``overhead.py``, the same set-up):

* floor           pydantic ``model_validate_json`` + the call (the validated floor), and
                  ``json.loads`` + dict dispatch
* hands serial    ``run_tool_use`` with the real permission engine built from a typical
                  settings file and a hook engine with no hook configured
* hands batch     10 calls through a ``StreamingToolExecutor``, per call
* openai-agents   ``FunctionTool.on_invoke_tool`` (serial, and 10 with ``asyncio.gather``)
* pydantic-ai     ``ToolManager.handle_call`` (serial, and 10 with ``asyncio.gather``)
* loop marginal   ``query`` + ``ScriptedModel``: a turn of 50 add calls against a turn of 1,
                  per extra call; beside it the scripted model alone (its script read,
                  both turns streamed against the request the loop would send), whose
                  share is the fake model's, not the loop's

Start-up (the whole process, one run each):

* ``hands tool Read`` on a small file, beside ``python -c pass``, ``import pydantic``,
  ``import hands``
* ``hands -p`` against a loopback Messages API: the instructions until the first model
  request arrives (the server then stops the process with SIGUSR1, whose default action
  ends it and makes callgrind write its counts). Child processes are not counted. Again
  after the same session ran once (its tool list kept, so the first request goes out
  before the tools are built), and with ``trio`` hidden, as in an install without the
  development extra: the HTTP client imports it whenever it is installed.
* ``hands mcp serve`` given a host's first messages: the instructions until it answers
  ``initialize``, and until it answers ``tools/list``, answered early (from the answers a
  start before kept) and with the SDK first (``HANDS_MCP_SERVE_EARLY=0``); beside them the
  MCP SDK's import.

The command keeps the compiled code of the dataclasses it makes beside the installed
package and in its hands home, as Python keeps byte code (``hands.cli.dataclass_code``;
``make install`` fills the file beside the package). ``hands tool Read`` and ``hands mcp
serve`` run once uncounted first in the home they are counted in, so their counts are of
a second start; Read is also counted in a new home, its first start. ``hands -p`` is
counted in a new home (a first start: the CI runner's, a batch worker's, the oracle's),
again with nothing beside the package either (as before the package kept any), and "tool
list kept" after one run in that home.

    .venv/bin/python benchmarks/instructions.py [--calls N] [--jobs J] [--only NAME ...]
    .venv/bin/python benchmarks/instructions.py --only first-request   # hands -p alone
    .venv/bin/python benchmarks/instructions.py --only mcp-serve       # hands mcp serve alone
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, cast

HERE = Path(__file__).resolve().parent
CALLS = 600
WARMUP = 100
LOOP_N = 50
BATCH = 10

Step = Callable[[], Awaitable[Any]]

# name -> (what one iteration is, how many calls it makes)
PER_CALL: dict[str, tuple[str, int]] = {
    "floor-json": ("json.loads + dict dispatch + call", 1),
    "floor-pydantic": ("pydantic validate_json + call (the validated floor)", 1),
    "hands-serial": ("hands run_tool_use, permission engine + settings", 1),
    "hands-batch": ("hands StreamingToolExecutor, batch of 10", BATCH),
    "hands-run-tools": ("hands run_tools, batch of 10", BATCH),
    "agents-serial": ("openai-agents FunctionTool.on_invoke_tool", 1),
    "agents-batch": ("openai-agents on_invoke_tool, gather of 10", BATCH),
    "pydantic-ai-serial": ("pydantic-ai ToolManager.handle_call", 1),
    "pydantic-ai-batch": ("pydantic-ai handle_call, gather of 10", BATCH),
    "loop-1": ("hands query loop, one turn of 1 add call", 1),
    "loop-50": (f"hands query loop, one turn of {LOOP_N} add calls", LOOP_N),
    "model-1": ("the scripted model alone: its script of 1 call read and streamed", 1),
    "model-50": (f"the scripted model alone: its script of {LOOP_N} calls", LOOP_N),
}


# -- the child: one path, N iterations -------------------------------------------------


async def build_step(name: str, cwd: Path) -> Step:
    """The awaitable one iteration of ``name`` runs (set up as ``overhead.py`` does)."""
    sys.path.insert(0, str(HERE))
    import overhead  # the benchmark next door: the same tool, settings and paths
    from hands.core.decorator import tool

    if name == "floor-json":
        return _serial_of(overhead.floor_path())
    if name == "floor-pydantic":
        return _serial_of(overhead.validated_floor_path())
    hands_add = tool(read_only=True)(overhead.add)
    if name.startswith("hands-"):
        runtime = overhead.engine_runtime(cwd, [hands_add])
        main, via_run_tools, _ = overhead.hands_paths(cwd, runtime, "")
        return {
            "hands-serial": main.serial,
            "hands-batch": main.batch,
            "hands-run-tools": via_run_tools.batch,
        }[name] or _missing(name)
    if name.startswith("agents-"):
        agents = overhead.agents_path()
        step = agents.serial if name == "agents-serial" else agents.batch
        return step or _missing(f"{name}: {agents.missing}")
    if name.startswith("pydantic-ai-"):
        handle = (await overhead.pydantic_ai_paths())[0]
        step = handle.serial if name == "pydantic-ai-serial" else handle.batch
        return step or _missing(f"{name}: {handle.missing}")
    if name.startswith("model-"):
        n = int(name.removeprefix("model-"))

        async def model() -> Any:
            from hands.models.base import ModelRequest
            from hands.models.scripted import ScriptedModel

            # what the loop's model does for a turn of n calls: read the script, stream
            # the tool_use turn, then the final turn against a request holding the
            # calls and their results (the usage it reports encodes the request)
            scripted = ScriptedModel(overhead.loop_script(n))
            async for _ in scripted.stream(ModelRequest(messages=())):
                pass
            async for _ in scripted.stream(ModelRequest(messages=_turn_messages(n))):
                pass

        return model
    if name.startswith("loop-"):
        n = int(name.removeprefix("loop-"))

        async def loop() -> Any:
            return await overhead.loop_once(n, cwd, [hands_add])

        return loop
    raise SystemExit(f"unknown path {name!r}; known: {', '.join(PER_CALL)}")


def _turn_messages(n: int) -> tuple[Any, ...]:
    """The request after a turn of ``n`` add calls: prompt, the calls, their results."""
    from hands.core.messages import Message, TextBlock, ToolResultBlock, ToolUseBlock

    uses = [ToolUseBlock(id=f"toolu_{i}", name="add", input={"a": i, "b": 1}) for i in range(n)]
    results = [ToolResultBlock(tool_use_id=f"toolu_{i}", content=str(i + 1)) for i in range(n)]
    return (
        Message(role="user", content=(TextBlock(text="add these"),)),
        Message(role="assistant", content=tuple(uses)),
        Message(role="user", content=tuple(results)),
    )


def _check(name: str, result: Any) -> None:
    """Stop when a path's call failed: a count of error results measures the wrong thing."""
    blocks: list[Any] = cast("list[Any]", result) if isinstance(result, list) else [result]
    for block in blocks:
        if getattr(block, "is_error", False):
            raise SystemExit(f"{name}: the call failed: {getattr(block, 'content', block)}")


def _serial_of(candidate: Any) -> Step:
    step: Step | None = candidate.serial
    return step or _missing(candidate.name)


def _missing(what: str) -> Step:
    raise SystemExit(f"path not available: {what}")


async def child(name: str, iterations: int) -> None:
    with tempfile.TemporaryDirectory(prefix="hands-instr-") as tmp:
        cwd = Path(tmp) / "project"
        cwd.mkdir()
        step = await build_step(name, cwd)
        _check(name, await step())
        for _ in range(WARMUP):
            await step()
        # everything made so far (the imports, the set-up) leaves the collector's view: a
        # full collection scans it all, and whether one lands in the counted run or not
        # moved a figure by more than 10,000 instructions a call between two runs
        gc.collect()
        gc.freeze()
        for _ in range(iterations):
            await step()


# -- the parent: run children under callgrind ------------------------------------------


def callgrind(
    argv: list[str],
    *,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    until: Callable[[subprocess.Popen[bytes]], None] | None = None,
    stdio: bool = False,
    counted: bool = True,
) -> int:
    """Instructions the process executed (its own, not its children's).

    ``stdio``: ``until`` talks to the process through its standard input and output.
    ``counted=False``: run it without callgrind (a warm-up), and return 0.
    """
    with tempfile.TemporaryDirectory(prefix="hands-cg-") as tmp:
        out = Path(tmp) / "callgrind.out"
        valgrind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
        command = [*valgrind, *argv] if counted else argv
        pipe = subprocess.PIPE if stdio else subprocess.DEVNULL
        proc = subprocess.Popen(command, env=env, cwd=cwd, stdin=pipe, stdout=pipe,
                                stderr=subprocess.PIPE)  # fmt: skip
        if until is not None:
            until(proc)
        _, err = proc.communicate(timeout=1800)
        if not counted:
            return 0
        found = re.search(r"^summary:\s+(\d+)", out.read_text(), re.M) if out.exists() else None
        if found is None:
            raise SystemExit(f"{' '.join(argv)}: no callgrind count\n{err.decode()[-3000:]}")
        if proc.returncode != 0 and until is None:
            raise SystemExit(f"{' '.join(argv)}: exit {proc.returncode}\n{err.decode()[-3000:]}")
        return int(found[1])


def child_env() -> dict[str, str]:
    # one hash seed: dict and set layouts, and so the work, are the same in both runs
    return {**os.environ, "PYTHONHASHSEED": "0"}


def per_call(name: str, calls: int) -> float:
    """Instructions for one call of ``name``: (I(N iterations) - I(0)) / calls made."""
    _, per_iteration = PER_CALL[name]
    iterations = max(1, calls // per_iteration)
    base = [sys.executable, str(Path(__file__).resolve()), "--child", name]
    with ThreadPoolExecutor(2) as pool:
        full = pool.submit(callgrind, [*base, str(iterations)], env=child_env())
        empty = pool.submit(callgrind, [*base, "0"], env=child_env())
        return (full.result() - empty.result()) / (iterations * per_iteration)


# -- start-up ----------------------------------------------------------------------------


def _stop_at_first_request() -> type[Any]:
    import cold_start  # the start-up benchmark next door: its loopback API and session

    class StopAtFirst(cold_start._Handler):  # pyright: ignore[reportPrivateUsage]
        """Takes the first main-loop request and leaves it unanswered: the process under
        count is stopped where it stands."""

        def do_POST(self) -> None:
            stopping = self.server.first is not None  # type: ignore[attr-defined]
            if (
                stopping
                and self.path.startswith("/v1/messages")
                and "count_tokens" not in self.path
            ):
                self.rfile.read(int(self.headers.get("content-length") or 0))
                self.server.first.set()  # type: ignore[attr-defined]
                return
            super().do_POST()

    return StopAtFirst


def startup(work: Path) -> list[tuple[str, int]]:
    env = {**child_env(), "HANDS_HOME": str(work / "home")}
    target = work / "notes.txt"
    target.write_text("hello\n" * 20)
    project = work / "project"
    project.mkdir(exist_ok=True)
    sys.path.insert(0, str(HERE))
    import cold_start

    rows: dict[str, Any] = {}
    read = [sys.executable, *cold_start.entry_argv(
        ["tool", "Read", json.dumps({"file_path": str(target)})]
    )]  # fmt: skip
    new_home = {**env, "HANDS_HOME": str(work / "new-home")}
    callgrind(read, env=env, cwd=project, counted=False)  # the home's first start
    with ThreadPoolExecutor(2) as pool:
        for label, argv in {
            "python -c pass": ["-c", "pass"],
            "python -c 'import pydantic'": ["-c", "import pydantic"],
            "python -c 'import hands'": ["-c", "import hands"],
        }.items():
            rows[label] = pool.submit(callgrind, [sys.executable, *argv], env=env, cwd=project)
        rows["hands tool Read"] = pool.submit(callgrind, read, env=env, cwd=project)
        rows["hands tool Read, first start in a new home"] = pool.submit(
            callgrind, read, env=new_home, cwd=project
        )
        out = [(label, future.result()) for label, future in rows.items()]
    out.append(("hands -p: to the first model request", first_request(work)))
    nothing_beside = first_request(work, beside=False)
    out.append(("hands -p: the same, nothing beside the package", nothing_beside))
    out.append(("hands -p: the same, tool list kept", first_request(work, kept=True)))
    out.append(("hands -p: the same, trio not installed", first_request(work, hide="trio")))
    out.extend(serve_rows(work))
    return out


def serve_rows(work: Path) -> list[tuple[str, int]]:
    """``hands mcp serve`` to its answers, early and SDK first, beside the SDK's import."""
    env = {**child_env(), "HANDS_HOME": str(work / "home")}
    project = work / "project"
    project.mkdir(exist_ok=True)
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    serve_answer(work, 2, counted=False)
    with ThreadPoolExecutor(2) as pool:
        serving = {
            "hands mcp serve: to the initialize answer": pool.submit(serve_answer, work, 1),
            "hands mcp serve: to the tools/list answer": pool.submit(serve_answer, work, 2),
            "hands mcp serve, SDK first: to the initialize answer": pool.submit(
                serve_answer, work, 1, early=False
            ),
            "hands mcp serve, SDK first: to the tools/list answer": pool.submit(
                serve_answer, work, 2, early=False
            ),
        }
        floor = ["-c", "import pydantic, mcp.types"]
        sdk = pool.submit(callgrind, [sys.executable, *floor], env=env, cwd=project)
        out = [(label, future.result()) for label, future in serving.items()]
        out.append(("python -c 'import pydantic, mcp.types'", sdk.result()))
    return out


def serve_answer(work: Path, answer: int, *, counted: bool = True, early: bool = True) -> int:
    """Instructions of ``hands mcp serve`` until it answers the host's message ``answer``.

    Every run shares one home (``serve-home``), so a counted run follows a warm-up's (which
    kept the SDK's answers: the counted run answers before the SDK loads). ``early=False``
    sets ``HANDS_MCP_SERVE_EARLY=0``: the SDK reads every line, as before.
    """
    from mcp_serve_start import messages

    folder = work / "serve"  # one folder: the answers kept are found by it
    (folder / "project").mkdir(parents=True, exist_ok=True)
    home = work / "serve-home"
    home.mkdir(exist_ok=True)
    env = {**child_env(), "HANDS_HOME": str(home), "HOME": str(home)}
    if not early:
        env["HANDS_MCP_SERVE_EARLY"] = "0"

    def stop_at_answer(proc: subprocess.Popen[bytes]) -> None:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(messages())
        proc.stdin.flush()
        for line in proc.stdout:
            if json.loads(line).get("id") == answer:
                proc.send_signal(signal.SIGUSR1)
                return
        raise SystemExit("hands mcp serve ended without answering")

    argv = [sys.executable, "-m", "hands", "mcp", "serve"]
    return callgrind(
        argv, env=env, cwd=folder / "project", until=stop_at_answer, stdio=True, counted=counted
    )


def first_request(
    work: Path, hide: str | None = None, *, kept: bool = False, beside: bool = True
) -> int:
    """Instructions of ``hands -p`` to its first model request; ``hide``: a package made
    unimportable first, as if it were not installed; ``kept``: the same session run once
    before (not counted), so the first request goes out from its kept tool list;
    ``beside=False``: the classes' code beside the package is not found (a file that does
    not exist is looked for instead), so only the home counts.

    Each count has a hands home of its own: nothing is kept from another count.
    """
    import cold_start

    with cold_start.fake_anthropic(1) as server:
        first = threading.Event()
        server.first = None  # type: ignore[attr-defined]  # answered: the run before
        server.RequestHandlerClass = _stop_at_first_request()
        env = {**cold_start.session_env(work, server.server_address[1]), "PYTHONHASHSEED": "0"}
        env["HANDS_HOME"] = tempfile.mkdtemp(prefix="home-", dir=work)
        argv = cold_start.entry_argv(cold_start.session_argv("hands")[1:])
        if hide is not None:
            argv[-1] = f"import sys; sys.modules[{hide!r}] = None; {argv[-1]}"
        if not beside:
            nowhere = str(work / "nowhere" / "dataclass-code.marshal")
            argv[-1] = (
                "import pathlib, hands.cli.dataclass_code as kept; "
                f"kept.package_file = lambda: pathlib.Path({nowhere!r}); {argv[-1]}"
            )
        if kept:
            before = subprocess.run(
                [sys.executable, *argv], env=env, cwd=work / "project", capture_output=True
            )
            if before.returncode != 0:
                raise SystemExit(f"hands -p: exit {before.returncode}\n{before.stderr[-2000:]!r}")
        server.first = first  # type: ignore[attr-defined]

        def stop_at_first(proc: subprocess.Popen[bytes]) -> None:
            if not first.wait(timeout=1800):
                proc.kill()
                raise SystemExit("hands -p never sent a model request")
            proc.send_signal(signal.SIGUSR1)

        return callgrind(
            [sys.executable, *argv],
            env=env,
            cwd=work / "project",
            until=stop_at_first,
        )


# -- report ------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=CALLS, help="calls counted per path")
    parser.add_argument("--jobs", type=int, default=2, help="paths counted at once")
    parser.add_argument(
        "--only",
        nargs="*",
        default=None,
        help="per-call paths (or 'startup', 'first-request', 'mcp-serve')",
    )
    parser.add_argument("--child", nargs=2, metavar=("PATH", "ITERATIONS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        asyncio.run(child(args.child[0], int(args.child[1])))
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    names = [n for n in PER_CALL if args.only is None or n in args.only]
    counted: dict[str, float] = {}

    def count(name: str) -> None:
        counted[name] = per_call(name, args.calls)
        # each figure as it comes: a long run stopped early keeps what it counted
        print(f"  counted {name}: {counted[name]:,.0f} per call", file=sys.stderr, flush=True)

    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        list(pool.map(count, names))
    counted = {n: counted[n] for n in names}
    if counted:
        report(counted, args.calls)
    if args.only is not None and "first-request" in args.only:
        with tempfile.TemporaryDirectory(prefix="hands-instr-first-") as tmp:
            (Path(tmp) / "project").mkdir()
            print("\nhands -p, instructions to the first model request (callgrind)")
            for label, kept, beside in (
                ("a new home", False, True),
                ("a new home, nothing beside the package", False, False),
                ("tool list kept", True, True),
            ):
                count = first_request(Path(tmp), kept=kept, beside=beside)
                print(f"  {label:<42} {count / 1e6:>10.1f} M")
    if args.only is not None and "mcp-serve" in args.only:
        with tempfile.TemporaryDirectory(prefix="hands-instr-serve-") as tmp:
            rows = serve_rows(Path(tmp))
        print("\nhands mcp serve, instructions of the whole process (callgrind)")
        for label, count in rows:
            print(f"  {label:<55} {count / 1e6:>10.1f} M")
    if args.only is None or "startup" in args.only:
        with tempfile.TemporaryDirectory(prefix="hands-instr-start-") as tmp:
            rows = startup(Path(tmp))
        print("\nstart-up, instructions of the whole process (callgrind, children not counted)")
        for label, count in rows:
            print(f"  {label:<42} {count / 1e6:>10.1f} M")


def report(counted: dict[str, float], calls: int) -> None:
    print(f"instructions per call (callgrind, ({calls} calls - 0) / {calls}, after warm-up)")
    for name, count in counted.items():
        if not name.startswith(("loop-", "model-")):
            print(f"  {PER_CALL[name][0]:<55} {count:>10,.0f}")
    serial, batch = counted.get("hands-serial"), counted.get("hands-batch")
    agents, agents_batch = counted.get("agents-serial"), counted.get("agents-batch")
    floor = counted.get("floor-pydantic")
    if serial and agents:
        print(f"  hands serial / openai-agents serial: {serial / agents:.2f}x (goal <= 1)")
    if batch and agents_batch:
        print(f"  hands batch / openai-agents batch:   {batch / agents_batch:.2f}x (goal <= 1)")
    if serial and floor:
        print(f"  hands serial / validated floor:      {serial / floor:.2f}x (goal <= 3)")
    one, many = counted.get("loop-1"), counted.get("loop-50")
    if one is not None and many is not None:
        marginal = (many * LOOP_N - one) / (LOOP_N - 1)
        print(f"  loop marginal per extra call:        {marginal:>10,.0f}")
        first, more = counted.get("model-1"), counted.get("model-50")
        if first is not None and more is not None:
            model = (more * LOOP_N - first) / (LOOP_N - 1)
            print(f"    of it the scripted model's share:  {model:>10,.0f}")
            print(f"    the loop's own (the rest):         {marginal - model:>10,.0f}")


if __name__ == "__main__":
    main()
