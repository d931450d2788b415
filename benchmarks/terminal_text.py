"""What showing text without obeying it costs: rich's console against hands' console.

The same renderables are printed to a terminal-like console (forced colour, 100 columns,
writing to a string buffer) by rich's ``Console`` and by ``ShownConsole``, which passes
every text segment through ``neutralise``; interleaved repetitions, medians and the ratio.

* markdown   a 400-line model answer as Markdown (headings, lists, code)
* tool       a 2,000-line tool result as Text, with colour codes and a few escapes
* clean      ``neutralise`` alone on 1 MB of text with no control character

    .venv/bin/python benchmarks/terminal_text.py [--quick]
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from collections.abc import Callable

from rich.console import Console, RenderableType
from rich.markdown import Markdown
from rich.text import Text

from hands.cli.console import ShownConsole
from hands.core.terminal_text import neutralise


def _markdown() -> RenderableType:
    parts = []
    for n in range(40):
        parts.append(f"## Part {n}\n\n- item one `code`\n- item two **bold**\n\n")
        parts.append(
            "```python\ndef f(x):\n    return x * 2\n```\n\n" + "Some prose. " * 20 + "\n\n"
        )
    return Markdown("".join(parts))


def _tool() -> RenderableType:
    lines = [f"line {n}: \x1b[32mok\x1b[0m value={n * 7}" for n in range(2000)]
    lines[500] = "evil \x1b]0;title\x07 here"
    return Text("\n".join(lines))


def _print_with(kind: type[Console], renderable: RenderableType) -> Callable[[], None]:
    def run() -> None:
        console = kind(file=io.StringIO(), force_terminal=True, color_system="standard", width=100)
        console.print(renderable)

    return run


def _median(run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    repeats = 5 if parser.parse_args().quick else 21
    print(f"{'case':<10} {'rich ms':>9} {'hands ms':>9} {'ratio':>6}")
    for name, renderable in (("markdown", _markdown()), ("tool", _tool())):
        plain, shown = [], []
        for _ in range(repeats):  # interleaved, so a busy machine hits both alike
            plain.append(_median(_print_with(Console, renderable), 1))
            shown.append(_median(_print_with(ShownConsole, renderable), 1))
        a, b = statistics.median(plain), statistics.median(shown)
        print(f"{name:<10} {a * 1000:>9.1f} {b * 1000:>9.1f} {b / a:>6.2f}")
    clean = "plain text without any control character, repeated. " * 20_000
    took = _median(lambda: neutralise(clean), repeats)
    print(f"clean      neutralise alone on {len(clean) / 1e6:.1f} MB: {took * 1000:.2f} ms")


if __name__ == "__main__":
    main()
