"""Start-up of hands: `hands tool Read`, and a `hands -p` session's time to its first model
request and its cost per turn, beside the floors they stand on (and Claude Code).

Parts, each a fresh process per sample, medians of interleaved runs:

* import time: ``python -X importtime`` of ``hands tool Read`` and of a one-turn
  ``hands -p`` session, the top offenders by self time and by package (cumulative).
* ``hands tool Read`` on a small text file beside ``python -c pass``, ``import pydantic``
  and ``import hands``. Goal: <= 150 ms on a quiet machine.
* ``hands -p`` against a loopback Anthropic Messages API (stdlib HTTP server, SSE) that
  plays ``--turns`` turns of one Bash ``ls`` each, then a text answer: the time from
  launch to the first model request, and (last request - first) / turns per turn.
* With ``--oracle DIR`` (or ``CC_ORACLE_DIR``; the cc-oracle harness, already installed
  and canaried), the same scripted session through the real Claude Code and through hands
  in its sandbox, side by side. Goal: hands' first request no later than Claude Code's,
  keeping its lead per turn.

    .venv/bin/python benchmarks/cold_start.py [--quick] [--oracle DIR]
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

GOAL_READ_MS = 150.0
TURNS = 30
MODEL = "anthropic:claude-sonnet-4-5"


def load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


# -- a loopback Anthropic Messages API --------------------------------------------------


def _sse(event: str, data: dict[str, Any]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


def _turn_events(turn: int, turns: int) -> bytes:
    """One streamed assistant message: a Bash ``ls`` call, or the final answer."""
    message = {
        "id": f"msg_{turn}",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1},
    }
    out = [_sse("message_start", {"type": "message_start", "message": message})]
    if turn < turns:
        block = {"type": "tool_use", "id": f"toolu_{turn:04d}", "name": "Bash", "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps({"command": "ls"})}
        stop = "tool_use"
    else:
        block = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": "done"}
        stop = "end_turn"
    out += [
        _sse(
            "content_block_start",
            {"type": "content_block_start", "index": 0, "content_block": block},
        ),
        _sse("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        _sse("content_block_stop", {"type": "content_block_stop", "index": 0}),
        _sse(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 5},
            },
        ),
        _sse("message_stop", {"type": "message_stop"}),
    ]
    return b"".join(out)


class FakeAnthropic(ThreadingHTTPServer):
    """Serves the script; records when each main-loop request arrived (perf_counter)."""

    daemon_threads = True

    def __init__(self, turns: int, port: int = 0) -> None:
        super().__init__(("127.0.0.1", port), _Handler)
        self.turns = turns
        self.arrivals: list[float] = []
        self.lock = threading.Lock()


class _Handler(BaseHTTPRequestHandler):
    server: FakeAnthropic
    protocol_version = "HTTP/1.1"
    # as the real API's servers do: without it, a kept-alive connection's answer waits for
    # the client's delayed ACK (~40 ms a turn) between its headers and its body
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:
        del format, args

    def do_POST(self) -> None:
        arrived = time.perf_counter()
        body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)) or b"{}")
        if not self.path.startswith("/v1/messages") or "count_tokens" in self.path:
            self._json({"input_tokens": 10})
            return
        turn = sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")
        with self.server.lock:
            self.server.arrivals.append(arrived)
        payload = _turn_events(turn, self.server.turns)
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def _json(self, data: dict[str, Any]) -> None:
        raw = json.dumps(data).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)


@contextmanager
def fake_anthropic(turns: int, port: int = 0) -> Iterator[FakeAnthropic]:
    server = FakeAnthropic(turns, port)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def session_env(work: Path, port: int) -> dict[str, str]:
    env = {**os.environ, "HANDS_HOME": str(work / "home"), "ANTHROPIC_API_KEY": "test-key"}
    env["ANTHROPIC_BASE_URL"] = f"http://127.0.0.1:{port}"
    return env


def session_argv(hands: str) -> list[str]:
    settings = json.dumps({"permissions": {"allow": ["Bash(ls)"]}})
    return [
        hands,
        "-p",
        "go",
        "--model",
        MODEL,
        "--output-format",
        "stream-json",
        "--settings",
        settings,
    ]


def run_session(
    hands: str, work: Path, turns: int, port: int = 0
) -> tuple[float, float, float, int]:
    """(ms from launch to the first model request, ms per turn after it, CPU ms in all,
    the API's port: the next session on it finds the tool list this one kept)."""
    with fake_anthropic(turns, port) as server:
        port = server.server_address[1]
        env = session_env(work, server.server_address[1])
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run(
            session_argv(hands),
            cwd=work / "project",
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=300,
        )
        arrivals = list(server.arrivals)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0 or len(arrivals) != turns + 1:
        raise SystemExit(
            f"hands -p: exit {proc.returncode}, {len(arrivals)} requests for {turns + 1}\n"
            + proc.stderr.decode(errors="replace")[-2000:]
        )
    first = (arrivals[0] - start) * 1000
    per_turn = (arrivals[-1] - arrivals[0]) * 1000 / max(1, turns)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return first, per_turn, cpu, port


# -- import time --------------------------------------------------------------------------

_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def import_profile(
    argv: list[str], env: dict[str, str], cwd: Path
) -> list[tuple[int, int, int, str]]:
    """(self µs, cumulative µs, depth, module) for every module the command imports."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", *argv],
        env=env,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        timeout=300,
    )
    rows: list[tuple[int, int, int, str]] = []
    for line in proc.stderr.decode(errors="replace").splitlines():
        m = _LINE.match(line)
        if m:
            rows.append((int(m[1]), int(m[2]), len(m[3]) // 2, m[4]))
    return rows


def package_of(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:3]) if parts[0] == "hands" else parts[0]


def print_offenders(title: str, rows: list[tuple[int, int, int, str]], top: int) -> None:
    total = sum(r[0] for r in rows)
    print(f"\nimport time of {title}: {len(rows)} modules, {total / 1000:.1f} ms in all")
    by_package: dict[str, int] = defaultdict(int)
    for own, _cum, _depth, module in rows:
        by_package[package_of(module)] += own
    print(f"  by package (self time summed), top {top}:")
    for name, us in sorted(by_package.items(), key=lambda kv: -kv[1])[:top]:
        print(f"    {us / 1000:8.1f} ms  {name}")
    print(f"  by module (self time), top {top}:")
    for own, cum, _depth, module in sorted(rows, reverse=True)[:top]:
        print(f"    {own / 1000:8.1f} ms  (cumulative {cum / 1000:7.1f})  {module}")
    print(f"  the tree's roots (imports made at run time or first), cumulative, top {top}:")
    for root, heaviest in sorted(import_roots(rows), key=lambda r: -r[0][1])[:top]:
        under = (
            f"  <- heaviest inside: {heaviest[3]} {heaviest[1] / 1000:.1f} ms" if heaviest else ""
        )
        print(f"    {root[1] / 1000:8.1f} ms  {root[3]}{under}")


def import_roots(
    rows: list[tuple[int, int, int, str]],
) -> list[tuple[tuple[int, int, int, str], tuple[int, int, int, str] | None]]:
    """Each top-level import with its heaviest direct child (importtime lists children first)."""
    roots: list[tuple[tuple[int, int, int, str], tuple[int, int, int, str] | None]] = []
    children: list[tuple[int, int, int, str]] = []
    for row in rows:
        if row[2] == 0:
            roots.append((row, max(children, key=lambda r: r[1]) if children else None))
            children = []
        elif row[2] == 1:
            children.append(row)
    return roots


def entry_argv(args: list[str]) -> list[str]:
    code = f"import sys; sys.argv = {['hands', *args]!r}; from hands.cli.entry import main; main()"
    return ["-c", code]


# -- timing ------------------------------------------------------------------------------


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall ms, CPU ms of the child: user + system, which other load does not inflate)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {proc.stderr.decode(errors='replace')}")
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return elapsed, cpu


def oracle_sessions(oracle: Path, hands: str, turns: int, runs: int) -> None:
    """The same scripted session through Claude Code and hands in the oracle's sandbox."""
    sys.path.insert(0, str(oracle))
    import cc_run  # type: ignore[import-not-found]  # the oracle's harness

    rows: dict[str, list[tuple[float, float]]] = {"claude": [], "hands": []}
    for _ in range(runs):
        for agent in rows:
            script = [cc_run.bash("ls") for _ in range(turns)]
            result = cc_run.run_session(
                script,
                settings=cc_run.settings_for(allow=["Bash(ls)"]),
                agent=agent,
                hands=hands,
                reset_between_turns=False,
            )
            times = [e["t"] for e in result["request_log"] if e.get("kind") == "main"]
            first = result["timing"]["first_main_request_s"]
            if first is None or len(times) < turns + 1:
                raise SystemExit(f"oracle {agent}: {len(times)} main requests for {turns + 1}")
            rows[agent].append((first * 1000, (times[-1] - times[0]) * 1000 / turns))
    print(
        f"\nvia the oracle (sandboxed, {turns} turns of Bash ls, median of {runs}; load {load()})"
    )
    print(f"  {'agent':<12} {'first request ms':>17} {'per turn ms':>12}")
    medians: dict[str, tuple[float, float]] = {}
    for agent, samples in rows.items():
        first = statistics.median(s[0] for s in samples)
        turn = statistics.median(s[1] for s in samples)
        medians[agent] = (first, turn)
        print(f"  {agent:<12} {first:>17.0f} {turn:>12.1f}")
    (h_first, h_turn), (c_first, c_turn) = medians["hands"], medians["claude"]
    print(
        f"  goal: hands first request <= Claude Code's: {h_first:.0f} vs {c_first:.0f} ms "
        f"{'MET' if h_first <= c_first else 'MISSED'}; per turn {h_turn:.1f} vs "
        f"{c_turn:.1f} ms {'MET' if h_turn <= c_turn else 'MISSED'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs")
    parser.add_argument("--turns", type=int, default=TURNS, help="turns of the -p session")
    parser.add_argument("--top", type=int, default=15, help="import offenders shown")
    parser.add_argument(
        "--oracle",
        type=Path,
        default=os.environ.get("CC_ORACLE_DIR") or None,
        help="the cc-oracle folder: also run the session through Claude Code",
    )
    args = parser.parse_args()
    runs = 5 if args.quick else 15
    # hands' own modules byte-compiled first, as an installed package's are: with
    # PYTHONDONTWRITEBYTECODE set (or a read-only checkout) every start would compile them
    import hands

    compileall.compile_dir(Path(hands.__file__).parent, quiet=1)
    session_runs = 3 if args.quick else 7

    work = Path(tempfile.mkdtemp(prefix="hands-cold-"))
    (work / "project").mkdir()
    target = work / "notes.txt"
    target.write_text("hello\n" * 20)
    env = {**os.environ, "HANDS_HOME": str(work / "home")}
    env.pop("PYDANTIC_DISABLE_PLUGINS", None)
    hands = str(Path(sys.executable).with_name("hands"))
    read_args = ["tool", "Read", json.dumps({"file_path": str(target)})]
    print(f"load average (1/5/15 min) at start: {load()} on {os.cpu_count()} cores")

    print_offenders("hands tool Read", import_profile(entry_argv(read_args), env, work), args.top)
    with fake_anthropic(1) as server:
        session = session_env(work, server.server_address[1])
        rows = import_profile(entry_argv(session_argv(hands)[1:]), session, work / "project")
    print_offenders("a one-turn hands -p session", rows, args.top)

    cases = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "python -c 'import pydantic'": [sys.executable, "-c", "import pydantic"],
        "python -c 'import hands'": [sys.executable, "-c", "import hands"],
        "python -c 'import anthropic'": [sys.executable, "-c", "import anthropic"],
        "hands tool Read": [hands, *read_args],
    }
    samples: dict[str, list[float]] = {name: [] for name in cases}
    cpu: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(runs):
        for name, argv in cases.items():
            wall_ms, cpu_ms = timed(argv, env)
            samples[name].append(wall_ms)
            cpu[name].append(cpu_ms)
    read = statistics.median(samples["hands tool Read"])
    print(f"\ncold start, median of {runs} interleaved runs; load {load()}")
    print(f"  {'':<32} {'wall ms':>8}   {'ratio':>5}  {'CPU ms':>8}")
    for name, values in samples.items():
        median = statistics.median(values)
        print(
            f"  {name:<32} {median:>8.1f}   {median / read:>5.2f}x "
            f"{statistics.median(cpu[name]):>8.1f}"
        )
    verdict = "MET" if read <= GOAL_READ_MS else "MISSED (goal is for a quiet machine)"
    print(f"  goal: hands tool Read <= {GOAL_READ_MS:.0f} ms: {read:.1f} ms {verdict}")

    # one API port for all: the first session keeps its tool list, the later ones (the
    # same command line, folder and settings) send their first request from it; every
    # other run starts without it, so both are measured interleaved
    rows: dict[bool, list[tuple[float, float, float]]] = {False: [], True: []}
    port = 0
    for i in range(2 * session_runs):
        kept = i % 2 == 1
        if not kept:
            shutil.rmtree(work / "home" / "first-request", ignore_errors=True)
        first, per_turn, cpu_ms, port = run_session(hands, work, args.turns, port)
        rows[kept].append((first, per_turn, cpu_ms))
    print(
        f"\nhands -p against a loopback Messages API, {args.turns} turns of Bash ls "
        f"(median of {session_runs}; load {load()})"
    )
    print(f"  {'':<34} {'nothing kept':>13} {'tool list kept':>15}")
    for index, label in enumerate(
        ("time to the first model request ms", "per turn after it ms", "CPU of the session ms")
    ):
        cold, warm = (statistics.median(r[index] for r in rows[k]) for k in (False, True))
        print(f"  {label:<34} {cold:>13.1f} {warm:>15.1f}")

    if args.oracle is not None:
        oracle_sessions(Path(args.oracle), hands, args.turns, session_runs)


if __name__ == "__main__":
    main()
