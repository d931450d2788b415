"""Part 1: whole sessions with faults injected; every run's invariants checked."""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path

import anyio
import pytest

from .faults import draw, run_cli, run_in_process
from .kit import REPORT, reap_orphans, scale

BASE_SEED = int(os.environ.get("RELIABILITY_SEED") or random.SystemRandom().randrange(1 << 30))


@pytest.mark.timeout(0)  # each run has its own bound (SESSION_BOUND_S)
def test_randomized_fault_runs(hands_home: Path) -> None:
    runs, cli_every = scale("fault_runs"), scale("cli_every")
    failures: list[str] = []
    for n in range(runs):
        seed = BASE_SEED + n
        cli = cli_every > 0 and n % cli_every == cli_every - 1
        plan = draw(seed, cli=cli)
        with tempfile.TemporaryDirectory(prefix="hands-rel-") as tmp:
            root, home = Path(tmp), Path(tmp) / "home"
            home.mkdir()
            if cli:
                outcome = run_cli(plan, root, home)
            else:
                outcome = anyio.run(run_in_process, plan, root, home)
        reap_orphans()
        row = REPORT.row("faults: hands -p" if cli else "faults: query()")
        row.runs += 1
        row.faults += len(plan.kinds)
        row.timings_ms.append(outcome.seconds * 1000)
        if outcome.seconds > 15:
            print(f"slow run: seed {seed} {outcome.kinds} {outcome.seconds:.1f} s")
        row.note = f"seeds {BASE_SEED}..{BASE_SEED + runs - 1}"
        for v in outcome.violations:
            row.violations.append(f"seed {seed} {plan.kinds}: {v}")
            failures.append(f"seed {seed} {outcome.kinds}: {v}")
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
