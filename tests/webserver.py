"""A real bjexact web server for tests: uvicorn on a free loopback port, in a thread of the test process."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed: pip install 'bjexact[web]'")

import uvicorn  # noqa: E402

from bjexact.web.app import create_app  # noqa: E402
from bjexact.web.server import bound_socket  # noqa: E402
from bjexact.web.service import SolveService  # noqa: E402


@dataclass
class Running:
    """A server under test: its address and its solver (whose ``solves`` count questions sent to workers)."""

    url: str
    service: SolveService

    def get(self, path: str, timeout: float = 120) -> tuple[int, str, str]:
        """(HTTP status, content type, body) of GET ``path``."""
        try:
            with urllib.request.urlopen(self.url + path, timeout=timeout) as response:
                return response.status, response.headers["content-type"], response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.headers["content-type"], error.read().decode()

    def json(self, path: str) -> dict:
        status, _, body = self.get(path)
        assert status == 200, body
        return json.loads(body)


@contextmanager
def running_server(workers: int = 2, max_seconds: float = 60) -> Iterator[Running]:
    """The application on 127.0.0.1, a free port, until the block ends."""
    service = SolveService(workers, max_seconds)
    service.warm_up()
    sock = bound_socket("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(create_app(service), log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        yield Running(f"http://127.0.0.1:{sock.getsockname()[1]}", service)
    finally:
        server.should_exit = True
        thread.join(10)
        service.close()
        sock.close()
