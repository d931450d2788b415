"""Runs inside the sandbox, in front of the command: the command's way to the network proxy.

The sandbox has its own network namespace, so the only thing it can reach is the unix
socket of the host-side proxy (:mod:`hands.tools.bash.sandbox.netproxy`), bound into it. This
program listens on the sandbox's own loopback, points the usual proxy variables at that
listener, forks a relay that copies every connection to the unix socket, and then
replaces itself with the command (so the command keeps its pid, exit status and fds).
The relay lives in the command's process group and pid namespace, so it ends with them.

It is bound read-only into the sandbox and run as ``python -I -S forwarder.py SOCKET
NO_PROXY COMMAND...``, so it must only use the standard library.
"""

from __future__ import annotations

import os
import socket
import sys
import threading

PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy",
                   "all_proxy")  # fmt: skip
CHUNK = 65536


def main(argv: list[str]) -> None:
    """Listen, export the proxy variables, fork the relay, exec the command."""
    if len(argv) < 3:
        sys.stderr.write("usage: forwarder SOCKET NO_PROXY COMMAND...\n")
        os._exit(2)
    socket_path, no_proxy, command = argv[0], argv[1], argv[2:]
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.bind(("127.0.0.1", 0))
        listener.listen(128)
    except OSError as exc:
        sys.stderr.write(f"sandbox network forwarder: cannot listen on loopback: {exc}\n")
        os._exit(126)
    url = f"http://127.0.0.1:{listener.getsockname()[1]}"
    for name in PROXY_VARIABLES:
        os.environ[name] = url
    os.environ["NO_PROXY"] = os.environ["no_proxy"] = no_proxy
    if os.fork() == 0:
        _relay_forever(listener, socket_path)
    listener.close()
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        sys.stderr.write(f"sandbox network forwarder: cannot run {command[0]}: {exc}\n")
        os._exit(127)


RELAY_NAME = "hands-relay"
"""The relay's process name, so a command's leftovers are told from the sandbox's own."""


def _relay_forever(listener: socket.socket, socket_path: str) -> None:
    try:
        try:
            with open("/proc/self/comm", "w") as comm:  # noqa: PTH123  (runs with -I -S)
                comm.write(RELAY_NAME)
        except OSError:
            pass
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        keep = listener.fileno()
        os.closerange(3, keep)
        os.closerange(keep + 1, 1 << 16)
        while True:
            try:
                conn, _ = listener.accept()
            except InterruptedError:
                continue
            except OSError:
                threading.Event().wait(0.05)
                continue
            threading.Thread(target=_bridge, args=(conn, socket_path), daemon=True).start()
    finally:
        os._exit(0)


def _bridge(conn: socket.socket, socket_path: str) -> None:
    upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        upstream.connect(socket_path)
    except OSError:
        upstream.close()
        conn.close()
        return
    back = threading.Thread(target=_pipe, args=(upstream, conn), daemon=True)
    back.start()
    _pipe(conn, upstream)
    back.join()
    conn.close()
    upstream.close()


def _pipe(src: socket.socket, dst: socket.socket) -> None:
    """Copy until end of stream, then half-close; on an error tear both sides down."""
    try:
        while True:
            data = src.recv(CHUNK)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        return
    try:
        dst.shutdown(socket.SHUT_WR)
    except OSError:
        pass


if __name__ == "__main__":
    main(sys.argv[1:])
