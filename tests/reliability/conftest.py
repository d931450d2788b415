"""The reliability suite: its processes' orphans come back here, its report is printed last."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from .kit import REPORT, become_subreaper, scale_name


@pytest.fixture(scope="session", autouse=True)
def subreaper() -> Iterator[None]:
    become_subreaper()
    yield


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not REPORT.rows:
        return
    table = REPORT.table()
    terminalreporter.write_sep("=", f"reliability report ({scale_name()})")
    terminalreporter.write_line(table)
    out = Path(os.environ.get("RELIABILITY_REPORT", "reliability-report.md"))
    out.write_text(table, encoding="utf-8")
    terminalreporter.write_line(f"written to {out}")
