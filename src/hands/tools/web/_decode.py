"""A response body decoded as it arrives, and capped while it is decoded.

httpx decodes each raw chunk whole: a 64 KB chunk of a brotli or zstd bomb becomes
gigabytes before any cap is checked. Here every content coding is a layer that gives
out at most the bytes asked of it, pulled through the stack (``gzip, br`` is undone
as br, then gzip), so a body costs no more memory than the cap plus one slice of
output, whatever its compression ratio.
"""

from __future__ import annotations

import importlib.util
import zlib
from typing import Any, Protocol, cast

import brotli

SLICE = 64 * 1024
"""Bytes pulled from an inner layer at a time."""
_ZSTD_FEED = 64
"""zstd input fed per call: a 4-byte run-length block can stand for 128 KB, so 64 input
bytes make at most about 2 MB of output before the cap is checked again."""


_BROTLI_ERROR = cast("type[Exception]", brotli.error)


class DecodeError(Exception):
    """The body is not valid in its declared content coding."""


class _Layer(Protocol):
    def feed(self, data: bytes) -> None: ...

    def take(self, limit: int) -> bytes:
        """At most ``limit`` decoded bytes; empty when more input is needed."""
        ...


def accepted_encodings() -> str:
    """The ``Accept-Encoding`` this decoder can honour."""
    codings = ["gzip", "deflate", "br"]
    if _zstd_available():
        codings.append("zstd")
    return ", ".join(codings)


class CappedBody:
    """Raw bytes in, at most ``cap`` decoded bytes kept; ``truncated`` when more existed."""

    def __init__(self, content_encoding: str, cap: int) -> None:
        self.cap = cap
        self.body = bytearray()
        self.truncated = False
        codings = [c.strip().lower() for c in content_encoding.split(",") if c.strip()]
        # applied in the order listed: undone last first
        self._layers: list[_Layer] = [_Identity()]
        self._layers.extend(_layer(c) for c in reversed(codings) if c != "identity")

    @property
    def full(self) -> bool:
        """Whether the cap was reached (reading on would only be thrown away)."""
        return self.truncated

    def add(self, raw: bytes) -> None:
        """Decode ``raw``; stop keeping output at the cap. Raises :class:`DecodeError`."""
        if self.truncated:
            return
        self._layers[0].feed(raw)
        top = len(self._layers) - 1
        while not self.truncated:
            room = self.cap - len(self.body)
            out = self._pull(top, min(room + 1, SLICE) if room >= 0 else 1)
            if not out:
                return
            if len(out) > room:
                self.body += out[:room]
                self.truncated = True
                return
            self.body += out

    def _pull(self, index: int, limit: int) -> bytes:
        layer = self._layers[index]
        while True:
            try:
                out = layer.take(limit)
            except (zlib.error, _BROTLI_ERROR, ValueError) as exc:
                raise DecodeError(str(exc) or type(exc).__name__) from None
            except Exception as exc:  # zstandard's own error type
                raise DecodeError(f"{type(exc).__name__}: {exc}") from None
            if out or index == 0:
                return out
            more = self._pull(index - 1, SLICE)
            if not more:
                return b""
            layer.feed(more)


def _layer(coding: str) -> _Layer:
    if coding in ("gzip", "x-gzip"):
        return _Zlib(zlib.MAX_WBITS | 16)
    if coding == "deflate":
        return _Zlib(zlib.MAX_WBITS, raw_fallback=True)
    if coding == "br":
        return _Brotli()
    if coding == "zstd" and _zstd_available():
        return _Zstd()
    raise DecodeError(f"the content coding {coding!r} is not one hands can decode")


class _Identity:
    def __init__(self) -> None:
        self._pending = bytearray()

    def feed(self, data: bytes) -> None:
        self._pending += data

    def take(self, limit: int) -> bytes:
        out = bytes(self._pending[:limit])
        del self._pending[:limit]
        return out


class _Zlib:
    def __init__(self, wbits: int, *, raw_fallback: bool = False) -> None:
        self._decoder = zlib.decompressobj(wbits)
        self._pending = b""
        self._undecided = raw_fallback

    def feed(self, data: bytes) -> None:
        self._pending += data

    def take(self, limit: int) -> bytes:
        if self._undecided:
            if len(self._pending) < 2:
                return b""
            self._undecided = False
            cmf, flg = self._pending[0], self._pending[1]
            if cmf & 0x0F != 8 or (cmf * 256 + flg) % 31:
                # "deflate" sent without its zlib wrapper, as some servers do
                self._decoder = zlib.decompressobj(-zlib.MAX_WBITS)
        if not self._pending or self._decoder.eof:
            self._pending = b""
            return b""
        out = self._decoder.decompress(self._pending, limit)
        self._pending = self._decoder.unconsumed_tail
        return out


class _Brotli:
    def __init__(self) -> None:
        self._decoder: Any = brotli.Decompressor()
        self._pending = b""

    def feed(self, data: bytes) -> None:
        self._pending += data

    def take(self, limit: int) -> bytes:
        if self._decoder.is_finished():
            self._pending = b""
            return b""
        if self._decoder.can_accept_more_data():
            data, self._pending = self._pending, b""
            if not data:
                return b""
            return cast(bytes, self._decoder.process(data, output_buffer_limit=limit))
        return cast(bytes, self._decoder.process(b"", output_buffer_limit=limit))


class _Zstd:
    def __init__(self) -> None:
        import zstandard

        self._decoder: Any = zstandard.ZstdDecompressor().decompressobj()
        self._pending = bytearray()
        self._out = bytearray()

    def feed(self, data: bytes) -> None:
        self._pending += data

    def take(self, limit: int) -> bytes:
        while not self._out and self._pending:
            if getattr(self._decoder, "eof", False):
                self._pending.clear()  # bytes after the frame: not part of the body
                break
            piece = bytes(self._pending[:_ZSTD_FEED])
            del self._pending[:_ZSTD_FEED]
            self._out += self._decoder.decompress(piece)
        out = bytes(self._out[:limit])
        del self._out[:limit]
        return out


def _zstd_available() -> bool:
    return importlib.util.find_spec("zstandard") is not None


__all__ = ["CappedBody", "DecodeError", "accepted_encodings"]
