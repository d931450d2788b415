"""Frozen slotted dataclasses built on the hot path without ``object.__setattr__``.

A frozen dataclass's ``__init__`` stores each field through ``object.__setattr__`` (the
class's own ``__setattr__`` refuses), about 1,200 instructions a field: a nine-field value
costs some 19,000 instructions to make, and every tool call makes several. A
:func:`builder` makes the same value for about a fifth of that: it builds a plain slotted
twin of the class (whose ``__init__`` stores each field with one instruction), then gives
the object the frozen class. The twin has the same slots in the same order, so CPython
allows the switch, and what comes out is an instance of the frozen class in every way:
its type, equality, hash, repr and the ``__setattr__`` that refuses a change.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar, cast

T = TypeVar("T")


def twin(cls: type[Any]) -> type[Any]:
    """A plain (mutable) slotted dataclass with the fields of the frozen ``cls``, in order.

    An instance of it, its fields set, becomes a ``cls`` value by taking the class:
    ``made.__class__ = cls``. Raises ``TypeError`` when ``cls`` is not a frozen dataclass
    with ``slots=True`` (the layouts would differ and CPython would refuse the switch).
    """
    params: Any = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen:
        raise TypeError(f"{cls.__name__} is not a frozen dataclass")
    fields = tuple(f.name for f in dataclasses.fields(cls))
    if getattr(cls, "__slots__", None) != fields:
        raise TypeError(f"{cls.__name__} must have slots=True and no other slots")
    # the same base too: CPython compares the classes below the first one adding slots
    bases: tuple[type, ...] = getattr(cls, "__orig_bases__", cls.__bases__)
    return dataclasses.make_dataclass(
        f"_{cls.__name__}Twin",
        [(name, object) for name in fields],
        bases=bases,
        slots=True,
        eq=False,
    )


def builder(cls: type[T], *names: str) -> Callable[..., T]:
    """A positional constructor of the frozen slotted dataclass ``cls``.

    ``names`` are every field of ``cls`` in declaration order, written out where the
    builder is made so that its callers can be read against them; a list that differs
    from the class's fields is an error at once (at import), never a value with its
    fields swapped.
    """
    made_like = twin(cls)
    fields = tuple(f.name for f in dataclasses.fields(made_like))
    if names != fields:
        raise TypeError(f"{cls.__name__}'s fields are {', '.join(fields)}; got {', '.join(names)}")
    # One frame, as a dataclass's own ``__init__`` is made: the twin without its
    # ``__init__`` (no call through the type, no second frame), each slot stored, the
    # class given. The names are the class's fields, so identifiers.
    name = f"build_{cls.__name__}"
    stores = "".join(f"    _made.{field} = {field}\n" for field in fields)
    source = (
        f"def {name}({', '.join(fields)}):\n    _made = _new(_twin)\n{stores}"
        "    _made.__class__ = _cls\n    return _made\n"
    )
    scope: dict[str, Any] = {"_new": object.__new__, "_twin": made_like, "_cls": cls}
    if set(scope) & set(fields) or "_made" in fields:
        raise TypeError(f"{cls.__name__} has a field named like the builder's own names")
    exec(source, scope)
    return cast(Callable[..., T], scope[name])
