"""A response body is capped while it is decoded: a bomb costs no more memory than the cap."""

from __future__ import annotations

import gzip
import tracemalloc
import zlib
from collections.abc import Callable

import brotli
import pytest
import zstandard

from hands.tools.web._decode import CappedBody, DecodeError, accepted_encodings

GIB = 1 << 30
MIB = 1 << 20
CAP = 1 * MIB
TEXT = b"<p>Installing widgets</p>\n" * 2000


def _zeros(compress: Callable[[bytes], bytes], finish: Callable[[], bytes]) -> bytes:
    block = b"\0" * MIB
    return b"".join(compress(block) for _ in range(GIB // MIB)) + finish()


@pytest.fixture(scope="module")
def bombs() -> dict[str, bytes]:
    """1 GiB of zeros in each coding (and stacked), each a few KB to a MB on the wire."""
    g = zlib.compressobj(9, zlib.DEFLATED, 31)
    gz = _zeros(g.compress, g.flush)
    b = brotli.Compressor(quality=5)
    br = _zeros(b.process, b.finish)
    z = zstandard.ZstdCompressor(level=3).compressobj()
    zs = _zeros(z.compress, z.flush)
    deflate = _zlib_from_gzip(gz)
    return {
        "gzip": gz,
        "br": br,
        "zstd": zs,
        "deflate": deflate,
        "gzip, br": brotli.compress(gz),
        "br, zstd": zstandard.ZstdCompressor().compress(br),
    }


def _zlib_from_gzip(gz: bytes) -> bytes:
    """The zlib stream of the same 1 GiB (``zlib.compressobj(9)``'s bytes), from the gzip
    one: both wrap the same deflate stream, so only the wrapper is made, not the 3 s of
    compressing again. gzip: 10-byte header, deflate, CRC-32 and size; zlib: 2-byte
    header (level 9), deflate, Adler-32 of the data."""
    adler, block = 1, b"\0" * MIB
    for _ in range(GIB // MIB):
        adler = zlib.adler32(block, adler)
    return b"\x78\xda" + gz[10:-8] + adler.to_bytes(4, "big")


def test_the_zlib_bomb_is_a_whole_zlib_stream_of_one_gib(bombs: dict[str, bytes]) -> None:
    # zlib checks the header and, at the end, the Adler-32 made above
    decoder = zlib.decompressobj()
    total = 0
    raw = bombs["deflate"]
    for start in range(0, len(raw), 64 * 1024):
        total += len(decoder.decompress(raw[start : start + 64 * 1024], 0))
    assert decoder.eof and not decoder.unused_data and total == GIB


def _feed(body: CappedBody, raw: bytes, size: int = 16 * 1024) -> None:
    for start in range(0, len(raw), size):
        body.add(raw[start : start + size])
        if body.full:
            return


@pytest.mark.parametrize("coding", ["gzip", "br", "zstd", "deflate", "gzip, br", "br, zstd"])
def test_a_one_gib_bomb_costs_about_the_cap(bombs: dict[str, bytes], coding: str) -> None:
    raw = bombs[coding]
    tracemalloc.start()
    try:
        body = CappedBody(coding, CAP)
        _feed(body, raw)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert body.truncated
    assert len(body.body) == CAP
    assert set(body.body) == {0}
    assert peak < 6 * CAP, f"{coding}: peak {peak:,} bytes for a {CAP:,}-byte cap"


@pytest.mark.parametrize(
    ("coding", "encode"),
    [
        ("gzip", gzip.compress),
        ("x-gzip", gzip.compress),
        ("br", brotli.compress),
        ("zstd", zstandard.ZstdCompressor().compress),
        ("deflate", zlib.compress),
        ("deflate", lambda d: zlib.compress(d)[2:-4]),  # raw deflate, no zlib wrapper
        ("", lambda d: d),
        ("identity", lambda d: d),
        ("gzip, br", lambda d: brotli.compress(gzip.compress(d))),
        ("GZIP , Br", lambda d: brotli.compress(gzip.compress(d))),
    ],
)
def test_bodies_decode_whole_under_the_cap(coding: str, encode: Callable[[bytes], bytes]) -> None:
    body = CappedBody(coding, CAP)
    for size in (1, 7, 4096):  # any split of the wire bytes gives the same body
        body = CappedBody(coding, CAP)
        _feed(body, encode(TEXT), size)
        assert bytes(body.body) == TEXT
        assert not body.truncated


def test_a_body_exactly_at_the_cap_is_not_truncated() -> None:
    body = CappedBody("gzip", len(TEXT))
    _feed(body, gzip.compress(TEXT))
    assert bytes(body.body) == TEXT and not body.truncated
    short = CappedBody("gzip", len(TEXT) - 1)
    _feed(short, gzip.compress(TEXT))
    assert bytes(short.body) == TEXT[:-1] and short.truncated


@pytest.mark.parametrize(
    ("coding", "raw"),
    [
        ("gzip", b"this is not gzip at all"),
        ("br", b"\xff\xff\xff\xff not brotli"),
        ("zstd", b"not zstd either, not at all"),
        ("compress", b"x"),
    ],
)
def test_a_broken_or_unknown_coding_is_a_clear_error(coding: str, raw: bytes) -> None:
    with pytest.raises(DecodeError) as caught:
        _feed(CappedBody(coding, CAP), raw)
    assert str(caught.value)


def test_accepted_encodings_lists_what_decodes() -> None:
    assert accepted_encodings() == "gzip, deflate, br, zstd"
