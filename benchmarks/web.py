"""Timing of the web application: a six-deck rule set answered the first time and from memory, and
20 concurrent clients asking 10 different six-deck rule sets.

Run:  python benchmarks/web.py          (needs the web extra: pip install 'bjexact[web]')

Starts ``bjexact serve --port 0`` (one worker process per core) as a separate process and talks to it
over HTTP on loopback, as a browser or a simulator would:

1. one client, a six-deck rule set nobody asked before (split once): ``/api/edge``, the time to the
   whole answer; target 2 s;
2. the same question 200 times, one after another: answered from memory; target 50 ms each (the
   median and the slowest are printed);
3. 20 clients at once, two per rule set, ten six-deck rule sets (S17/H17 x DAS or not x surrender,
   ...): each client's time to its answer (every rule set is solved once, so each waits for its own
   solve and the solves queue for the cores), then the same 20 requests at once again, from memory;
4. what a person opening the page for a new six-deck rule set waits for: the edge, the chart, the
   chart's edge and the dealer's table, asked at once as the page does.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

FIRST_TARGET, CACHED_TARGET = 2.0, 0.050
RULE_SETS = [
    "decks=6&split_hands=2", "decks=6&split_hands=2&h17=true", "decks=6&split_hands=2&das=false",
    "decks=6&split_hands=2&surrender=late", "decks=6&split_hands=2&h17=true&das=false",
    "decks=6&split_hands=2&h17=true&surrender=late", "decks=6&split_hands=2&bj_pays=6/5",
    "decks=6&split_hands=2&double=10-11", "decks=6&split_hands=2&hole_card=enhc",
    "decks=6&split_hands=2&double_soft=false",
]


def timed_get(url: str) -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=600) as response:
        response.read()
        assert response.status == 200
    return time.perf_counter() - start


def start_server() -> tuple[subprocess.Popen, str]:
    server = subprocess.Popen([sys.executable, "-m", "bjexact", "serve", "--port", "0"], stdout=subprocess.PIPE,
                              text=True)
    line = server.stdout.readline() if server.stdout else ""
    if "http://" not in line:
        server.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    url = line.split("open ", 1)[1].split(" ", 1)[0].rstrip("/")
    # the workers start with the server (each imports the engine): wait until it answers
    for _ in range(600):
        try:
            timed_get(url + "/api/defaults")
            return server, url
        except OSError:
            time.sleep(0.05)
    raise SystemExit("the server does not answer")


def main() -> int:
    server, url = start_server()
    try:
        first = timed_get(f"{url}/api/edge?decks=6&split_hands=2&h17=true&surrender=late&das=false")
        print(f"first answer, one six-deck rule set:   {first:6.2f} s   (target {FIRST_TARGET} s)")
        cached = [timed_get(f"{url}/api/edge?decks=6&split_hands=2&h17=true&surrender=late&das=false")
                  for _ in range(200)]
        print(f"from memory, 200 in a row:              median {1000 * statistics.median(cached):.1f} ms, "
              f"slowest {1000 * max(cached):.1f} ms   (target {1000 * CACHED_TARGET:.0f} ms)")

        asks = [f"{url}/api/edge?{RULE_SETS[i % 10]}" for i in range(20)]
        with ThreadPoolExecutor(20) as pool:
            start = time.perf_counter()
            waits = sorted(pool.map(timed_get, asks))
            total = time.perf_counter() - start
        print(f"20 clients, 10 new rule sets at once:   all answered in {total:.2f} s; each client waited "
              f"{waits[0]:.2f} .. {waits[-1]:.2f} s (median {statistics.median(waits):.2f} s)")
        with ThreadPoolExecutor(20) as pool:
            again = sorted(pool.map(timed_get, asks))
        print(f"the same 20 at once, from memory:       median {1000 * statistics.median(again):.1f} ms, "
              f"slowest {1000 * again[-1]:.1f} ms")

        page = "decks=6&split_hands=2&rsa=true&split_hands=4".replace("&split_hands=2", "")
        panels = [f"{url}/api/edge?{page}", f"{url}/api/chart?{page}&format=svg",
                  f"{url}/api/edge?{page}&strategy=chart", f"{url}/api/dealer?{page}"]
        with ThreadPoolExecutor(4) as pool:
            start = time.perf_counter()
            list(pool.map(timed_get, panels))
        print(f"a new page (6 decks, split to 4, RSA):  edge, chart, chart's edge, dealer in "
              f"{time.perf_counter() - start:.2f} s")
        ok = first <= FIRST_TARGET and statistics.median(cached) <= CACHED_TARGET
        print("targets met" if ok else "a target is missed")
        return 0 if ok else 1
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    sys.exit(main())
