"""Part 1: whole sessions with faults injected; every run's invariants checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from .faults import SESSION_BOUND_S, FaultJob, draw, fault_run, is_cli_seed
from .kit import REPORT, base_seed, scale
from .workers import in_workers, load_factor, worker_count


@pytest.mark.timeout(0)  # each run has its own bound (SESSION_BOUND_S)
def test_randomized_fault_runs(hands_home: Path) -> None:
    runs, cli_every, workers = scale("fault_runs"), scale("cli_every"), worker_count()
    first = base_seed()
    bound = SESSION_BOUND_S * load_factor(workers)
    jobs = [
        FaultJob(seed=seed, cli=is_cli_seed(seed, cli_every), bound_s=bound)
        for seed in range(first, first + runs)
    ]
    failures: list[str] = []
    done = 0
    for record in in_workers(fault_run, jobs, workers):
        job = record.job
        row = REPORT.row("faults: hands -p" if job.cli else "faults: query()")
        row.runs += 1
        row.faults += record.faults
        row.timings_ms.append(record.seconds * 1000)
        if record.seconds > 15 * load_factor(workers):
            print(f"slow run: seed {job.seed} {record.kinds} {record.seconds:.1f} s")
        row.note = (
            f"seeds {first}..{first + runs - 1}, {workers} worker(s), longest "
            f"{max(row.timings_ms) / 1000:.1f} s of a bound of {bound:.0f} s"
        )
        again = f"RELIABILITY_SEED={job.seed} RELIABILITY_FAULT_RUNS=1"
        for v in record.violations:
            line = f"seed {job.seed} {record.kinds}: {v} (again: {again})"
            print(f"violation: {line}", flush=True)  # seen with -s while a long run goes on
            row.violations.append(line)
            failures.append(line)
        done += 1
        if done % 500 == 0:
            print(f"{done} of {runs} runs, {len(failures)} violation(s) so far", flush=True)
    assert not failures, "\n".join(failures[:20])


@pytest.mark.parametrize("kind", ["all kinds drawn"])
def test_every_fault_kind_is_drawn(kind: str) -> None:
    from .faults import CLI_KINDS, KINDS

    def base(kind: str) -> str:
        return kind.removesuffix("(same server)")

    seen = {base(k) for n in range(400) for k in draw(n).kinds}
    assert seen == set(KINDS)
    seen_cli = {base(k) for n in range(400) for k in draw(n, cli=True).kinds}
    assert seen_cli == set(CLI_KINDS)
