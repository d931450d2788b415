from __future__ import annotations

import io

from rich.console import Console

from hands.cli.demo.run import run_demo


def test_demo_runs_the_whole_session_offline() -> None:
    out = io.StringIO()
    code = run_demo(console=Console(file=out, width=120, color_system=None))
    text = out.getvalue()
    assert code == 0, text
    # parallel exploration, an edit with its diff, the sample's tests failing then passing
    for expected in ("● Glob(", "● Grep(", "● Read(", "● Edit(", "● Bash("):
        assert expected in text
    assert "-         return sum(item.unit_price for item in self.items.values())" in text
    assert "FAILED (failures=1)" in text
    assert text.rstrip().splitlines()[-1].startswith("success · 5 turns")
    assert any(line.strip() == "OK" for line in text.splitlines())
