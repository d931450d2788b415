"""The end of the ``hands`` command, without a last sweep over every object it made.

When the interpreter ends it clears each module and has the cyclic garbage collector go
over every object still tracked, several times: for a command that has built its tools,
pydantic models and MCP types, that was a quarter of its CPU (a ``hands -p`` session:
0.98 s of CPU with the sweep, 0.73 s without), spent on memory the operating system
takes back anyway. :func:`skip_final_sweep` has ``gc.freeze`` run as the last exit
handler the command registers: what is alive then moves to the collector's permanent
generation, which the interpreter's final collections leave alone. Everything else about
the exit is as before: every exit handler runs (the kept dataclass code is saved),
threads are joined, standard streams are flushed, modules are cleared and what their
reference counts free is freed (an open file is flushed and closed, ``__del__`` runs).
Only objects caught in a reference cycle at exit are left to the end of the process, as
Python already allows ("``__del__`` is not guaranteed to be called for objects that
still exist when the interpreter exits").
"""

from __future__ import annotations

import atexit
import gc


def skip_final_sweep() -> None:
    """Freeze the heap as the last exit handler (call before registering any other)."""
    atexit.register(gc.freeze)
