"""The question asked before an untrusted folder's project input is used (the REPL)."""

from __future__ import annotations

import typer

from hands.config.project_trust import TrustVerdict


def trust_text(verdict: TrustVerdict) -> str:
    """Every item trusting the folder would enable, grouped by the file it comes from."""
    lines = [
        f"{verdict.workspace} supplies settings, servers, agents or skills that would run "
        "programs or loosen permissions if you trust it:"
    ]
    by_source: dict[str, list[str]] = {}
    for item in verdict.items:
        by_source.setdefault(item.source, []).append(f"{item.kind:<13}{item.detail}")
    for source, entries in by_source.items():
        lines.append(f"  {source}")
        lines.extend(f"    {entry}" for entry in entries)
    lines.append(
        "Only trust a folder whose files you know. If you answer no, none of this is used "
        "(deny and ask rules apply either way) and you are not asked again; "
        "`hands trust` changes the answer."
    )
    return "\n".join(lines)


def ask_to_trust(verdict: TrustVerdict) -> bool:
    """Ask once whether the folder's project input may be used; the answer is kept."""
    typer.echo(trust_text(verdict))
    return typer.confirm(f"Trust {verdict.workspace}?", default=False)
