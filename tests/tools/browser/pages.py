"""A loopback web server with the pages the browser tests drive."""

from __future__ import annotations

import html
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, cast
from urllib.parse import parse_qs, urlsplit

LOGIN = """<!doctype html><title>Sign in</title>
<h1>Sign in</h1>
<form method="post" action="/login">
<label>User name <input name="user"></label>
<label>Password <input type="password" name="password"></label>
<button type="submit">Sign in</button>
</form>"""

JS_LIST = """<!doctype html><title>Fruit</title><h1>Fruit</h1><ul id="list"></ul>
<script>
window.addEventListener("load", () => {
  fetch("/api/fruit").then(r => r.json()).then(items => {
    for (const name of items) {
      const li = document.createElement("li"); li.textContent = name;
      document.getElementById("list").appendChild(li);
    }
  });
});
</script>"""

IFRAME = """<!doctype html><title>Outer</title><h1>Contact</h1>
<iframe src="/inner-form" title="contact form"></iframe>"""

INNER_FORM = """<!doctype html><title>Inner</title>
<label>Email <input id="email"></label>
<button onclick="document.getElementById('out').textContent = 'Sent to ' +
  document.getElementById('email').value">Send</button>
<p id="out"></p>"""

DIALOG = """<!doctype html><title>Dialog</title>
<button onclick="document.getElementById('out').textContent =
  confirm('Delete the file?') ? 'Deleted' : 'Kept'">Delete</button>
<p id="out">Nothing yet</p>"""

CHOICES = """<!doctype html><title>Choices</title>
<label>Colour <select id="colour" onchange="show()">
<option value="r">Red</option><option value="g">Green</option><option value="b">Blue</option>
</select></label>
<label><input type="checkbox" id="news" onchange="show()"> Send me news</label>
<p id="out">colour=r news=false</p>
<script>function show() {
  document.getElementById('out').textContent = 'colour=' +
    document.getElementById('colour').value + ' news=' + document.getElementById('news').checked;
}</script>"""

DOWNLOAD = """<!doctype html><title>Files</title><a href="/report.csv">Get the report</a>"""

POPUP = """<!doctype html><title>Opener</title>
<button onclick="window.open('/popped')">Open help</button>"""

POPPED = """<!doctype html><title>Help</title><h1>Help page</h1>"""

NAV_A = """<!doctype html><title>A</title><h1>Page A</h1>
<button onclick="this.textContent='Pressed'">Press me</button><a href="/nav-b">Go to B</a>"""

NAV_B = """<!doctype html><title>B</title><h1>Page B</h1><button>Another button</button>"""

INFINITE = """<!doctype html><title>Feed</title><ul id="feed"></ul>
<script>
let next = 0, busy = false;
function more() {
  if (busy) return; busy = true;
  fetch("/api/more?from=" + next).then(r => r.json()).then(items => {
    for (const text of items) {
      const li = document.createElement("li"); li.textContent = text; li.style.height = "60px";
      document.getElementById("feed").appendChild(li);
    }
    next += items.length; busy = false;
  });
}
window.addEventListener("scroll", () => {
  if (window.innerHeight + window.scrollY >= document.body.offsetHeight - 200) more();
});
more();
</script>"""

ECHO = """<!doctype html><title>Echo</title><input aria-label="Box"><p>static text</p>"""


def todo_page(n: int) -> str:
    """``n`` tasks, each finished by its own button; one button finishes them all."""
    items = "".join(
        f'<li><span id="t{i}">Task {i}</span> '
        f'<button onclick="finish({i})">Finish {i}</button></li>'
        for i in range(n)
    )
    return (
        f"<!doctype html><title>Tasks</title><h1>Tasks</h1><ul>{items}</ul>"
        '<button onclick="for (let i = 0; i < ' + str(n) + '; i++) finish(i)">Finish all</button>'
        "<script>function finish(i) {"
        "document.getElementById('t' + i).textContent = 'Task ' + i + ' done'; }</script>"
    )


def big_page(n: int) -> str:
    """``n`` buttons in a list: a page of about ``n`` elements with refs."""
    items = "".join(f"<li><button>Item {i}</button></li>" for i in range(n))
    return f"<!doctype html><title>Big {n}</title><h1>{n} items</h1><ul>{items}</ul>"


class PageServer(ThreadingHTTPServer):
    """The test pages on 127.0.0.1; ``release`` ends the stalled page."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.release = threading.Event()
        self.hits: list[str] = []
        self.full_hits: list[str] = []
        """Paths with their queries."""

    def url(self, path: str, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.server_address[1]}{path}"


_PAGES = {
    "/login": LOGIN,
    "/js-list": JS_LIST,
    "/iframe": IFRAME,
    "/inner-form": INNER_FORM,
    "/dialog": DIALOG,
    "/choices": CHOICES,
    "/download": DOWNLOAD,
    "/popup": POPUP,
    "/popped": POPPED,
    "/nav-a": NAV_A,
    "/nav-b": NAV_B,
    "/echo": ECHO,
    "/infinite": INFINITE,
}

_MADE = {  # pages about another URL, given as ?to=
    "/open": (
        "<!doctype html><title>Opener</title><button onclick=\"window.open('{to}')\">Open</button>"
    ),
    "/frame": '<!doctype html><title>Framed</title><iframe src="{to}" title="inner"></iframe>',
    "/ws": """<!doctype html><title>Socket</title><p id="out">connecting</p>
<script>const ws = new WebSocket("{to}"), out = document.getElementById("out");
ws.onopen = () => out.textContent = "open"; ws.onerror = () => out.textContent = "failed";
</script>""",
}


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send(
        self, status: int, body: str | bytes, ctype: str = "text/html", **headers: str
    ) -> None:
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        for key, value in headers.items():
            self.send_header(key.replace("_", "-"), value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    @property
    def pages(self) -> PageServer:
        return cast(PageServer, self.server)

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        self.pages.hits.append(parts.path)
        self.pages.full_hits.append(self.path)
        if parts.path in _PAGES:
            self.send(200, _PAGES[parts.path])
        elif parts.path == "/link":
            to = html.escape(parse_qs(parts.query)["to"][0])
            self.send(200, f'<!doctype html><title>Links</title><a href="{to}">Elsewhere</a>')
        elif parts.path in _MADE:
            to = html.escape(parse_qs(parts.query)["to"][0])
            self.send(200, _MADE[parts.path].format(to=to))
        elif parts.path == "/redirect":
            self.send(302, "", Location=parse_qs(parts.query)["to"][0])
        elif parts.path == "/api/more":
            start = int(parse_qs(parts.query)["from"][0])
            items = ", ".join(f'"Post {i}"' for i in range(start, start + 20))
            self.send(200, f"[{items}]", "application/json")
        elif parts.path == "/api/fruit":
            self.send(200, '["Apple", "Banana", "Cherry"]', "application/json")
        elif parts.path == "/report.csv":
            self.send(200, "a,b\n1,2\n", "text/csv", Content_Disposition="attachment")
        elif parts.path == "/todo":
            self.send(200, todo_page(20))
        elif parts.path == "/big":
            n = int(parse_qs(parts.query).get("n", ["100"])[0])
            self.send(200, big_page(n))
        elif parts.path == "/stall":
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", "100000")
            self.end_headers()
            self.wfile.write(b"<!doctype html><title>Slow</title><h1>Partly loaded</h1>")
            self.wfile.flush()
            self.pages.release.wait(10)
        else:
            self.send(404, "<title>Not found</title><p>no such page</p>")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        form = parse_qs(self.rfile.read(length).decode())
        user = form.get("user", [""])[0]
        if self.path == "/login" and user == "alice" and form.get("password") == ["s3cret"]:
            self.send(200, f"<title>Home</title><h1>Signed in as {html.escape(user)}</h1>")
        else:
            self.send(401, "<title>Sign in</title><p>Wrong user name or password</p>")


@contextmanager
def page_server() -> Iterator[PageServer]:
    server = PageServer()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.release.set()
        server.shutdown()
        server.server_close()
