"""A loopback web server for the web tools' tests: pages, redirects, faults, encodings."""

from __future__ import annotations

import functools
import gzip
import io
import json
import threading
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, cast

import brotli
from PIL import Image

PAGE = """<!doctype html><html><head><title>The Guide</title>
<style>body { color: red }</style><script>alert("tracking")</script></head>
<body><nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<main><h1>Installing widgets</h1>
<p>Read the <a href="/docs/setup.html">setup notes</a> first.</p>
<h2>Steps</h2><pre><code>pip install widgets
widgets --init</code></pre>
<ul><li>one</li><li>two</li></ul></main>
<footer>Copyright nobody</footer></body></html>"""


def make_pdf(text: str) -> bytes:
    """A one-page PDF showing ``text`` in Helvetica."""
    stream = f"BT /F1 24 Tf 72 720 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets: list[int] = []
    for i, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % i + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(
        b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    )
    return out.getvalue()


def make_png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(out, format="PNG")
    return out.getvalue()


class WebServer(ThreadingHTTPServer):
    """Serves the routes below on 127.0.0.1; ``release`` ends stalled responses."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.release = threading.Event()
        self.hits: list[str] = []
        self.user_agents: list[str] = []
        self.extra: dict[str, Callable[[_Handler], None]] = {}

    @property
    def port(self) -> int:
        return self.server_address[1]

    def url(self, path: str, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send(self, status: int, body: bytes, ctype: str | None, **headers: str) -> None:
        self.send_response(status)
        if ctype is not None:
            self.send_header("Content-Type", ctype)
        for key, value in headers.items():
            self.send_header(key.replace("_", "-"), value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def redirect(self, location: str, status: int = 302) -> None:
        self.send(status, b"", "text/plain", Location=location)

    @property
    def web(self) -> WebServer:
        return cast(WebServer, self.server)

    def do_GET(self) -> None:
        path = self.path
        self.web.hits.append(path)
        self.web.user_agents.append(self.headers.get("User-Agent", ""))
        route = self.web.extra.get(path) or _ROUTES.get(path)
        if route is not None:
            route(self)
        elif path.startswith("/chain/"):
            n = int(path.rsplit("/", 1)[1])
            if n == 0:
                self.send(200, b"end of chain", "text/plain")
            else:
                self.redirect(f"/chain/{n - 1}")
        elif path.startswith("/status/"):
            code = int(path.rsplit("/", 1)[1])
            page = f"<html><body><p>error page {code}</p></body></html>"
            self.send(code, page.encode(), "text/html")
        else:
            self.send(404, b"no such route", "text/plain")

    def endless(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(2 * 1024**3))
        self.end_headers()
        chunk = b"a" * 65_536
        try:
            for _ in range(2 * 1024**3 // len(chunk)):
                self.wfile.write(chunk)
        except OSError:
            pass  # the client stopped reading: expected

    def stall(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", "1000")
        self.end_headers()
        self.wfile.write(b"<html><body>first bytes")
        self.wfile.flush()
        self.web.release.wait(30)


@contextmanager
def web_server() -> Iterator[WebServer]:
    server = WebServer()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.release.set()
        server.shutdown()
        server.server_close()


_HTML = "text/html; charset=utf-8"


@functools.cache
def brotli_bomb() -> bytes:
    """1 GiB of spaces, gzipped then brotli-compressed: about 1 KB on the wire."""
    gz = zlib.compressobj(1, zlib.DEFLATED, 31)
    block = b" " * (1 << 20)
    inner = b"".join(gz.compress(block) for _ in range(1024)) + gz.flush()
    return brotli.compress(inner)


_ROUTES: dict[str, Callable[[_Handler], None]] = {
    "/page.html": lambda h: h.send(200, PAGE.encode(), _HTML),
    "/same": lambda h: h.redirect("/page.html"),
    "/same-absolute": lambda h: h.redirect(f"http://127.0.0.1:{h.web.port}/page.html", 301),
    "/other": lambda h: h.redirect(f"http://localhost:{h.web.port}/page.html"),
    "/to-metadata": lambda h: h.redirect("http://169.254.169.254/latest/meta-data/"),
    "/loop-a": lambda h: h.redirect("/loop-b"),
    "/loop-b": lambda h: h.redirect("/loop-a"),
    "/gzip": lambda h: h.send(200, gzip.compress(PAGE.encode()), _HTML, Content_Encoding="gzip"),
    "/br": lambda h: h.send(200, brotli.compress(PAGE.encode()), _HTML, Content_Encoding="br"),
    "/bomb": lambda h: h.send(200, brotli_bomb(), "text/plain", Content_Encoding="gzip, br"),
    "/latin1": lambda h: h.send(
        200,
        "<html><body><p>Café crème, déjà vu</p></body></html>".encode("latin-1"),
        "text/html; charset=iso-8859-1",
    ),
    "/mislabelled": lambda h: h.send(
        200,
        "<html><body><p>Café crème, déjà vu, naïve façade</p></body></html>".encode("cp1252"),
        "text/html; charset=utf-8",
    ),
    "/utf8-as-latin1": lambda h: h.send(
        200,
        "<html><body><p>Grüße aus Köln</p></body></html>".encode(),
        "text/html; charset=iso-8859-1",
    ),
    "/meta-charset": lambda h: h.send(
        200,
        (
            '<html><head><meta charset="windows-1251"></head><body><p>Привет, мир</p></body></html>'
        ).encode("cp1251"),
        "text/html",
    ),
    "/malformed.html": lambda h: h.send(
        200,
        b"<html><body><div><p>unclosed <b>bold <i>both</div></span><p>after</table>",
        "text/html",
    ),
    "/data.json": lambda h: h.send(
        200, json.dumps({"name": "widgets", "versions": [1, 2]}).encode(), "application/json"
    ),
    "/notes.txt": lambda h: h.send(200, b"plain *text* stays as it is\n", "text/plain"),
    "/doc.pdf": lambda h: h.send(200, make_pdf("Hello from a PDF"), "application/pdf"),
    "/image.png": lambda h: h.send(200, make_png(40, 30), "image/png"),
    "/huge.png": lambda h: h.send(200, make_png(4000, 3000), "image/png"),
    "/binary": lambda h: h.send(200, b"\x00\x01\x02" * 100, "application/octet-stream"),
    "/long": lambda h: h.send(200, ("x" * 99 + "\n").encode() * 3_000, "text/plain"),
    "/huge": lambda h: h.endless(),
    "/stall": lambda h: h.stall(),
}
