"""A whole batch: the tasks not done yet, an engine, the results file, progress."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Generator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from hands.batch.engines import Engine
from hands.batch.results import ResultsFile
from hands.batch.session import RunSettings
from hands.batch.tasks import BatchTask


@dataclass(kw_only=True)
class Tally:
    """Counts as the batch goes: what the bar and the summary show."""

    total: int
    skipped: int = 0
    running: int = 0
    statuses: Counter[str] = field(default_factory=lambda: Counter[str]())
    durations: list[float] = field(default_factory=lambda: list[float]())
    tool_calls: int = 0
    cost_usd: float = 0.0
    started: float = field(default_factory=time.monotonic)

    @property
    def done(self) -> int:
        """Tasks with a result."""
        return sum(self.statuses.values())

    @property
    def failed(self) -> int:
        """Tasks with a result that is neither passed nor completed."""
        return sum(n for s, n in self.statuses.items() if s not in ("passed", "completed"))

    def add(self, result: dict[str, Any]) -> None:
        """Count one finished task."""
        self.running = max(0, self.running - 1)
        self.statuses[str(result.get("status", "error"))] += 1
        self.durations.append(float(result.get("duration_s") or 0.0))
        self.tool_calls += int(result.get("tool_calls") or 0)
        self.cost_usd += float(result.get("cost_usd") or 0.0)


def run_batch(
    tasks: Sequence[BatchTask],
    *,
    engine: Engine,
    settings: RunSettings,
    results: ResultsFile,
    console: Console | None = None,
) -> Tally:
    """Run the tasks whose ids are not in ``results`` yet; write each result as it ends."""
    todo = [t for t in tasks if t.id not in results]
    tally = Tally(total=len(todo), skipped=len(tasks) - len(todo))
    lock = threading.Lock()
    with _progress(console, tally) as refresh:

        def started(task: BatchTask) -> None:
            with lock:
                tally.running += 1
            refresh()

        def finished(result: dict[str, Any]) -> None:
            with lock:
                if results.write(result):
                    tally.add(result)
            refresh()

        engine.run(todo, settings, on_start=started, on_result=finished)
    if console is not None:
        console.print(summary(tally))
    return tally


@contextmanager
def _progress(console: Console | None, tally: Tally) -> Generator[Any]:
    if console is None:
        yield lambda: None
        return
    columns = (
        TextColumn("[bold]batch"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[counts]}"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=False) as progress:
        bar = progress.add_task("batch", total=tally.total, counts="")

        def refresh() -> None:
            elapsed = max(time.monotonic() - tally.started, 1e-9)
            counts = (
                f"{tally.done - tally.failed} ok · {tally.failed} failed · {tally.running} running"
                f" · {tally.done / elapsed * 60:.1f}/min"
            )
            progress.update(bar, completed=tally.done, counts=counts)

        refresh()
        yield refresh


def summary(tally: Tally) -> Table:
    """The end-of-batch table: how many of each status, time and tool calls."""
    table = Table(title="hands batch", show_header=True)
    table.add_column("status")
    table.add_column("tasks", justify="right")
    for status, count in sorted(tally.statuses.items()):
        table.add_row(status, str(count))
    if tally.skipped:
        table.add_row("skipped (already in results)", str(tally.skipped))
    elapsed = time.monotonic() - tally.started
    durations = sorted(tally.durations)
    median = durations[len(durations) // 2] if durations else 0.0
    table.add_section()
    table.add_row("wall time", f"{elapsed:.1f} s")
    table.add_row("median task", f"{median:.1f} s")
    table.add_row("tool calls", str(tally.tool_calls))
    if tally.cost_usd:
        table.add_row("cost", f"${tally.cost_usd:.4f}")
    return table


def results_path_default(tasks_path: Path) -> Path:
    """``TASKS.results.jsonl`` beside the task file."""
    return tasks_path.with_name(tasks_path.stem + ".results.jsonl")
