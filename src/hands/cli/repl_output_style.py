"""``/output-style [NAME]``: the output styles, and the one new sessions here answer in.

With no name it lists the styles (the one in use marked); with a name it writes
``outputStyle`` to the folder's ``.claude/settings.local.json``. The style is part of the
system prompt, read when a session starts, so the change applies from the next session.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text

from hands.config.output_styles import chosen_style, load_styles
from hands.config.settings_edit import set_value
from hands.core.limits import hands_home

if TYPE_CHECKING:
    from hands.cli.repl import Repl


async def run(repl: Repl, arg: str) -> bool:
    """List the styles, or choose one for the sessions started in this folder."""
    settings = repl.setup.harness.settings
    cwd = repl.setup.cwd
    catalog = load_styles(
        project=cwd, home=settings.home, hands_home=hands_home(), trusted=settings.trusted
    )
    current, _ = chosen_style(catalog, settings.value("outputStyle"))
    name = arg.strip()
    if not name:
        table = Table(box=None, show_header=False, pad_edge=False)
        for style in catalog.styles:
            mark = "●" if style is current else " "
            table.add_row(mark, style.name, style.source, style.description)
        repl.console.print(table)
        for warning in catalog.warnings:
            repl.console.print(Text(f"warning: {warning}", style="yellow"))
        repl.console.print(Text("/output-style NAME chooses one for new sessions here."))
        return True
    style = catalog.find(name)
    if style is None:
        known = ", ".join(s.name for s in catalog.styles)
        repl.console.print(Text(f"No output style is called {name!r}. Styles: {known}.", "red"))
        return True
    path = cwd / ".claude" / "settings.local.json"
    try:
        set_value(path, "outputStyle", style.name)
    except OSError as exc:
        repl.console.print(Text(f"The style could not be saved: {exc}", style="red"))
        return True
    repl.console.print(
        Text(
            f"Output style {style.name} saved in {path}; it applies from the next session "
            "started here (the system prompt is read when a session starts).",
            style="cyan",
        )
    )
    return True
