"""Serving the application: the listening socket, bound first, and uvicorn on it."""

from __future__ import annotations

import errno
import socket
from types import FrameType

import uvicorn
from fastapi import FastAPI

from ..errors import BjexactError

__all__ = ["bound_socket", "serve"]


def bound_socket(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port`` (port 0: any free one); a taken port or an address this
    machine does not have is a one-line error, before anything starts."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror:
        raise BjexactError(f"--host {host[:60]!r}: no such address on this machine") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a port left in TIME_WAIT is free to reuse
    try:
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise BjexactError(f"port {port} on {host} is taken: choose another with --port "
                               "(or stop the program that holds it)") from None
        raise BjexactError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


class _Server(uvicorn.Server):
    """uvicorn's server, which also tells the application's solver when it is asked to stop, so that
    requests waiting for a solve are answered at once (HTTP 503) and the server stops in a moment."""

    def __init__(self, config: uvicorn.Config, app: FastAPI):
        super().__init__(config)
        self.application = app

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        service = getattr(self.application.state, "service", None)
        if service is not None:
            service.stop()
        super().handle_exit(sig, frame)


def serve(app: FastAPI, sock: socket.socket) -> None:
    """Run ``app`` on ``sock`` until Ctrl-C (uvicorn; its log: warnings and errors only)."""
    config = uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=5)
    _Server(config, app).run(sockets=[sock])
