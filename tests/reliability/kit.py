"""The reliability suite's tools: its scale, the process table, invariants and the report."""

from __future__ import annotations

import ctypes
import functools
import json
import os
import random
import statistics
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hands.agent.events import BlockEvent, QueryEvent, ResultEvent
from hands.core.messages import Message, ToolResultBlock
from hands.orchestration.events import ToolResultEvent
from hands.tools.file._atomic import BACKUP_PREFIX, TEMP_PREFIX

SCALES: dict[str, dict[str, int]] = {
    # runs of each part; `ci` is what CI runs after `make test`; `workers`: processes
    # (or threads) the fault runs and crash trials are spread over
    "ci": {
        "fault_runs": 500,
        "cli_every": 25,
        "fuzz_examples": 60,
        "crash_trials": 12,
        "concurrent_sessions": 200,
        "session_turns": 20,
        "processes": 20,
        "sequential_sessions": 300,
        "workers": 4,
    },
    "full": {
        "fault_runs": 10_000,
        "cli_every": 25,
        "fuzz_examples": 600,
        "crash_trials": 200,
        "concurrent_sessions": 200,
        "session_turns": 20,
        "processes": 20,
        "sequential_sessions": 1_000,
        "workers": 8,
    },
}


def scale_name() -> str:
    name = os.environ.get("RELIABILITY_SCALE", "ci").strip() or "ci"
    if name not in SCALES:
        raise ValueError(f"RELIABILITY_SCALE must be one of {sorted(SCALES)}, not {name!r}")
    return name


def scale(key: str) -> int:
    """The run count ``key`` at this scale; ``RELIABILITY_<KEY>`` overrides it."""
    override = os.environ.get(f"RELIABILITY_{key.upper()}")
    return int(override) if override else SCALES[scale_name()][key]


@functools.cache
def base_seed() -> int:
    """The seed every part draws from: ``RELIABILITY_SEED``, or a new one per test run."""
    given = os.environ.get("RELIABILITY_SEED", "").strip()
    return int(given) if given else random.SystemRandom().randrange(1 << 30)


# -- the process table --------------------------------------------------------------------

_PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> None:
    """Orphans of anything this process starts are re-parented to it, not to init.

    Every process a run leaves behind, daemonized or not, stays in this process's
    subtree, where :func:`descendants` finds it.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")


def _table() -> dict[int, tuple[int, str, str]]:
    out: dict[int, tuple[int, str, str]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        command = cmdline.replace(b"\0", b" ").decode("utf-8", "replace")
        out[int(entry)] = (int(fields[1]), fields[0], command)
    return out


def descendants(root: int | None = None) -> dict[int, str]:
    """Live (non-zombie) processes below ``root`` (this process): pid → command line."""
    root = os.getpid() if root is None else root
    table = _table()
    children: dict[int, list[int]] = {}
    for pid, (ppid, _state, _cmd) in table.items():
        children.setdefault(ppid, []).append(pid)
    found: dict[int, str] = {}
    todo = list(children.get(root, []))
    while todo:
        pid = todo.pop()
        ppid_state_cmd = table.get(pid)
        if ppid_state_cmd is None:
            continue
        if ppid_state_cmd[1] != "Z":
            found[pid] = ppid_state_cmd[2]
        todo.extend(children.get(pid, []))
    return found


def reap_orphans(known: Iterable[int] = ()) -> None:
    """Reap zombie children that are not ``known`` (re-parented orphans nobody waits for)."""
    keep = set(known)
    for pid, (ppid, state, _cmd) in _table().items():
        if ppid == os.getpid() and state == "Z" and pid not in keep:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass


def leftovers(before: Iterable[int], *, grace_s: float = 3.0) -> dict[int, str]:
    """Processes started since ``before`` that are still alive after ``grace_s``."""
    base = set(before)
    deadline = time.monotonic() + grace_s
    while True:
        left = {pid: cmd for pid, cmd in descendants().items() if pid not in base}
        if not left or time.monotonic() >= deadline:
            return left
        time.sleep(0.05)


def kill_all(pids: Iterable[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, 9)
        except ProcessLookupError:
            pass


# -- invariants ------------------------------------------------------------------------------


def result_order_violations(messages: Sequence[Message]) -> list[str]:
    """Each assistant message's tool_uses answered by the next message, one each, in order."""
    out: list[str] = []
    for i, message in enumerate(messages):
        uses = [b.id for b in message.tool_uses] if message.role == "assistant" else []
        if not uses:
            continue
        nxt = messages[i + 1] if i + 1 < len(messages) else None
        got = (
            [b.tool_use_id for b in nxt.content if isinstance(b, ToolResultBlock)]
            if nxt is not None and nxt.role == "user"
            else []
        )
        if got != uses:
            out.append(f"message {i}: tool_use ids {uses} answered by {got}")
    return out


def event_violations(events: Sequence[QueryEvent]) -> list[str]:
    """Every tool_use the stream produced got exactly one result event; the run ended."""
    out: list[str] = []
    asked = Counter(
        e.block.id
        for e in events
        if isinstance(e, BlockEvent) and e.block.type == "tool_use"  # type: ignore[union-attr]
    )
    answered = Counter(e.tool_use.id for e in events if isinstance(e, ToolResultEvent))
    if asked != answered:
        out.append(f"tool_use ids {dict(asked)} got result events {dict(answered)}")
    if not events or not isinstance(events[-1], ResultEvent):
        out.append("the run did not end with a result event")
    return out


def temp_file_violations(root: Path) -> list[str]:
    """Temporary or backup files of an atomic write left anywhere under ``root``."""
    found = [
        str(p.relative_to(root))
        for p in root.rglob("*")
        if p.name.startswith((TEMP_PREFIX, BACKUP_PREFIX))
    ]
    return [f"temp files left: {found}"] if found else []


def transcript_violations(path: Path, messages: Sequence[Message] | None = None) -> list[str]:
    """The transcript's every line is a JSON object and it reads back to ``messages``."""
    from hands.agent.transcript import load

    if not path.exists():
        return [f"no transcript at {path.name}"]
    out: list[str] = []
    for n, raw in enumerate(path.read_bytes().splitlines(), 1):
        try:
            entry = json.loads(raw.decode("utf-8"))
        except ValueError as exc:
            out.append(f"transcript line {n} does not parse: {exc}")
            continue
        if not isinstance(entry, dict):
            out.append(f"transcript line {n} is not an object")
    loaded = load(path)
    if loaded.skipped:
        out.append(f"transcript: {loaded.skipped} line(s) skipped on load")
    if messages is not None and [m.to_wire() for m in loaded.messages] != [
        m.to_wire() for m in _settled(messages)
    ]:
        out.append("transcript does not read back to the conversation")
    return out


def _settled(messages: Sequence[Message]) -> list[Message]:
    kept = list(messages)
    while kept and kept[-1].role == "assistant" and kept[-1].tool_uses:
        kept.pop()
    return kept


# -- the report ------------------------------------------------------------------------------


@dataclass
class Row:
    """One line of the report."""

    scenario: str
    runs: int = 0
    faults: int = 0
    violations: list[str] = field(default_factory=lambda: list[str]())
    timings_ms: list[float] = field(default_factory=lambda: list[float]())
    peak_rss_kb: float | None = None
    note: str = ""

    def percentile(self, q: float) -> float | None:
        if not self.timings_ms:
            return None
        if len(self.timings_ms) == 1:
            return self.timings_ms[0]
        cuts = statistics.quantiles(self.timings_ms, n=100, method="inclusive")
        return cuts[int(q) - 1]


class Report:
    """Rows gathered over the run, printed as one table at the end and written to a file."""

    def __init__(self) -> None:
        self.rows: dict[str, Row] = {}

    def row(self, scenario: str) -> Row:
        return self.rows.setdefault(scenario, Row(scenario=scenario))

    def table(self) -> str:
        def ms(v: float | None) -> str:
            return "-" if v is None else f"{v:.1f}"

        head = (
            "| scenario | runs | faults injected | violations | p50 ms | p99 ms | peak RSS | note |"
        )
        lines = [
            f"reliability report, scale {scale_name()}, RELIABILITY_SEED={base_seed()}, "
            f"load {_load()}",
            "",
            head,
            "|---|---:|---:|---:|---:|---:|---:|---|",
        ]
        for r in self.rows.values():
            rss = "-" if r.peak_rss_kb is None else f"{r.peak_rss_kb / 1024:.1f} MB"
            lines.append(
                f"| {r.scenario} | {r.runs} | {r.faults} | {len(r.violations)} | "
                f"{ms(r.percentile(50))} | {ms(r.percentile(99))} | {rss} | {r.note} |"
            )
        bad = [(r.scenario, v) for r in self.rows.values() for v in r.violations[:5]]
        if bad:
            lines += ["", "violations (first 5 per scenario):"]
            lines += [f"- {name}: {v}" for name, v in bad]
        return "\n".join(lines) + "\n"


def _load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def rss_kb(pid: int | None = None) -> int:
    """Resident memory of ``pid`` (this process) in KiB."""
    for line in Path(f"/proc/{pid or 'self'}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def peak_rss_kb(pid: int | None = None) -> int:
    for line in Path(f"/proc/{pid or 'self'}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


REPORT = Report()


def any_of(rng: Any, items: Sequence[Any]) -> Any:
    return items[rng.randrange(len(items))]
