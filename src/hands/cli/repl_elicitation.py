"""A server's elicitation in the REPL: a form from the requested schema, or a link to open.

Form mode first offers to fill the form, decline or cancel; then asks each field in
the schema's order: text and numbers as a line (Enter keeps the default shown in
brackets, or leaves an optional field out), yes/no and single choices from a list,
multiple choices as a comma-separated line of numbers or values. Answers are checked
against the schema (type, bounds, lengths, choices) and asked again when they do not fit.

URL mode shows the link and offers to open it (accept), decline or cancel; the link
opens in a browser when there is a display, else it stays on screen to open by hand.
Ctrl-C (or Esc) anywhere cancels. The caller holds the screen while this runs.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any, cast

import anyio
from rich.console import Console
from rich.text import Text

from hands.cli.repl_questions import Answer, Choose
from hands.mcp.elicitation import ElicitationAnswer, ElicitationRequest

_OMIT = object()
"""An optional field left empty."""


async def answer_elicitation(
    request: ElicitationRequest, console: Console, pick: Choose, answer: Answer
) -> ElicitationAnswer:
    """The user's answer to ``request`` (``KeyboardInterrupt``/``EOFError`` propagate)."""
    console.print(
        Text.assemble(("[MCP " + request.server + "] ", "bold cyan"), (request.message, "bold")),
        markup=False,
        highlight=False,
    )
    if request.mode == "url":
        return await _url(request, console, pick)
    schema = request.requested_schema
    properties = cast(Mapping[str, Any], schema.get("properties") or {})
    required = set(cast(Sequence[str], schema.get("required") or ()))
    fields = ", ".join(str(_spec(s).get("title") or n) for n, s in properties.items())
    console.print(Text(f"  fields: {fields or '(none)'}", style="dim"))
    choice = await pick([(0, "Fill in the form"), (1, "Decline"), (2, "Cancel")], 0)
    if choice != 0:
        return ElicitationAnswer(action="decline" if choice == 1 else "cancel")
    content: dict[str, Any] = {}
    for name, raw in properties.items():
        value = await _field(name, _spec(raw), name in required, console, pick, answer)
        if value is not _OMIT:
            content[name] = value
    return ElicitationAnswer(action="accept", content=content)


def _spec(raw: object) -> Mapping[str, Any]:
    return cast(Mapping[str, Any], raw) if isinstance(raw, Mapping) else {}


def _choices(spec: Mapping[str, Any]) -> list[tuple[Any, str]] | None:
    """(value, label) of a single- or multi-choice field's options; None when not one."""
    if "enum" in spec:
        values = list(cast(Sequence[Any], spec["enum"]))
        names = list(cast(Sequence[Any], spec.get("enumNames") or values))
        return [(v, str(names[i]) if i < len(names) else str(v)) for i, v in enumerate(values)]
    options = spec.get("oneOf") or spec.get("anyOf")
    if isinstance(options, list):
        out: list[tuple[Any, str]] = []
        for option in cast(list[Any], options):
            o = _spec(option)
            if "const" in o:
                out.append((o["const"], str(o.get("title") or o["const"])))
        return out or None
    return None


async def _field(
    name: str,
    spec: Mapping[str, Any],
    required: bool,
    console: Console,
    pick: Choose,
    answer: Answer,
) -> Any:
    label = str(spec.get("title") or name)
    described = f" — {spec['description']}" if spec.get("description") else ""
    mark = "" if required else " (optional)"
    console.print(Text(f"  {label}{mark}{described}"), markup=False, highlight=False)
    kind = spec.get("type")
    has_default = "default" in spec
    default = spec.get("default")
    if kind == "boolean":
        return await pick([(1, "yes"), (0, "no")], 1 if default is True else 0) == 1
    if kind == "array":
        return await _many(label, spec, required, console, answer)
    choices = _choices(spec)
    if choices is not None:
        options = [(i, text) for i, (_, text) in enumerate(choices)]
        if not required and not has_default:
            options.append((-1, "(leave empty)"))
        start = next((i for i, (v, _) in enumerate(choices) if v == default), 0)
        got = await pick(options, start)
        return _OMIT if got == -1 else choices[got][0]
    shown = f" [{default}]" if has_default else ""
    while True:
        text = (await answer(f"  {label}{shown}: ")).strip()
        if not text:
            if has_default:
                return default
            if not required:
                return _OMIT
            _complain(console, "this field is required")
            continue
        value, problem = _parse(text, spec)
        if problem:
            _complain(console, problem)
            continue
        return value


async def _many(
    label: str, spec: Mapping[str, Any], required: bool, console: Console, answer: Answer
) -> Any:
    choices = _choices(_spec(spec.get("items"))) or []
    for number, (_, text) in enumerate(choices, start=1):
        console.print(Text(f"    {number}. {text}"), markup=False, highlight=False)
    low = int(spec.get("minItems") or 0)
    high = spec.get("maxItems")
    default = spec.get("default")
    shown = f" [{', '.join(str(v) for v in cast(list[Any], default))}]" if default else ""
    while True:
        text = (await answer(f"  {label} (numbers or values, comma-separated){shown}: ")).strip()
        if not text:
            if default is not None:
                return default
            if not required and low == 0:
                return _OMIT
        picked: list[Any] = []
        bad: list[str] = []
        for part in (p.strip() for p in text.split(",") if p.strip()):
            found = next((v for v, t in choices if part in (str(v), t)), _OMIT)
            if found is _OMIT and part.isdigit() and 1 <= int(part) <= len(choices):
                found = choices[int(part) - 1][0]
            if found is _OMIT:
                bad.append(part)
            elif found not in picked:
                picked.append(found)
        if bad:
            _complain(console, f"not a choice: {', '.join(bad)}")
        elif len(picked) < low or (isinstance(high, int) and len(picked) > high):
            _complain(console, f"choose between {low} and {high if high is not None else 'any'}")
        else:
            return picked


def _parse(text: str, spec: Mapping[str, Any]) -> tuple[Any, str]:
    """The typed value of ``text`` for ``spec``, or a problem to show."""
    kind = spec.get("type", "string")
    if kind in ("integer", "number"):
        try:
            value: Any = int(text) if kind == "integer" else float(text)
        except ValueError:
            return None, f"enter {'a whole number' if kind == 'integer' else 'a number'}"
        low, high = spec.get("minimum"), spec.get("maximum")
        if isinstance(low, int | float) and value < low:
            return None, f"at least {low}"
        if isinstance(high, int | float) and value > high:
            return None, f"at most {high}"
        return value, ""
    low, high = spec.get("minLength"), spec.get("maxLength")
    if isinstance(low, int) and len(text) < low:
        return None, f"at least {low} characters"
    if isinstance(high, int) and len(text) > high:
        return None, f"at most {high} characters"
    if spec.get("format") == "email" and "@" not in text:
        return None, "enter an email address"
    return text, ""


def _complain(console: Console, problem: str) -> None:
    console.print(Text(f"  ⎿ {problem}; try again", style="yellow"))


async def _url(request: ElicitationRequest, console: Console, pick: Choose) -> ElicitationAnswer:
    console.print(Text(f"  {request.url}", style="underline"), markup=False, highlight=False)
    choice = await pick([(0, "Open the link"), (1, "Decline"), (2, "Cancel")], 0)
    if choice != 0:
        return ElicitationAnswer(action="decline" if choice == 1 else "cancel")
    if await open_in_browser(request.url):
        console.print(Text("  ⎿ opened in the browser", style="dim"))
    else:
        console.print(Text("  ⎿ no browser here: open the link above yourself", style="dim"))
    return ElicitationAnswer(action="accept")


async def open_in_browser(url: str) -> bool:
    """Open ``url`` in a browser when there is a display to show it on."""
    graphical = sys.platform in ("darwin", "win32") or bool(
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )
    if not graphical or not url.startswith(("https://", "http://")):
        return False
    import webbrowser

    return await anyio.to_thread.run_sync(webbrowser.open, url)
