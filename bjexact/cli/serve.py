"""``bjexact serve``: the exact calculator in the browser, and the HTTP API (:mod:`bjexact.web`)."""

from __future__ import annotations

import argparse

from ..errors import BjexactError
from .common import bounded_int

EXAMPLES = """\
examples:
  bjexact serve                          # http://127.0.0.1:8000/ : open it in a browser
  bjexact serve --port 8080 --workers 2
  bjexact serve --host 0.0.0.0           # reachable from other machines (no authentication!)

The page: every rule of the full game as a form; the exact house edge with optimal
(composition-dependent) play and with the basic strategy chart (click it for the fraction);
the colour chart, each cell clickable for its hands' every move with exact values; the
dealer's outcomes; each rule change's effect; a link that encodes the rules; downloads
of the command line's CSV and JSON.

The API (JSON, exact "p/q" values with floats beside them, the command line's keys;
format=csv|text|md|latex for the command line's other outputs):
  /api/edge?decks=6&split_hands=2            # bjexact edge --decks 6 --split-hands 2
  /api/edge?decks=6&strategy=chart&format=csv
  /api/chart?decks=1&h17=true                # format=svg: the colour chart
  /api/hand?decks=6&cards=T,6&upcard=T       # bjexact hand T 6 --upcard T --decks 6
  /api/decision?decks=6&cards=T,6&upcard=T   # a simulator's per-hand query: best move, values
  /api/cell?decks=6&section=hard&row=16&upcard=T
  /api/dealer?decks=6   /api/effects?decks=6   /api/progress?decks=6
  /openapi.json                              # the API's description (OpenAPI)
Rules are named as in the JSON "rules" object: decks, shoe, h17, bj_pays, double,
double_soft, das, split_hands, rsa, hit_split_aces, surrender, hole_card, obo,
split_strategy (cdz, cdp1, cdp), double_split_aces, double_after_hit, charlie.
Bad input: HTTP 400 with {"error": the command line's one line}.

Each rule set is solved once, in one of the worker processes, and its answers are kept
for the life of the server; a second request for the same rules waits for the first.
Perfect post-split play (split_strategy=optimal: minutes per rule set) is refused, and a
solve past --max-seconds is stopped and its request refused, saying so.
Needs the web extra: pip install 'bjexact[web]'.
"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "serve", help="the exact calculator in a browser, and an HTTP API for simulators",
        description="Start the web application: the calculator page and the HTTP API under /api/.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default: 127.0.0.1, this machine only)")
    parser.add_argument("--port", type=bounded_int(0, 65535), default=8000,
                        help="the port (default: 8000; 0: any free port)")
    parser.add_argument("--workers", type=bounded_int(1, 64), default=None, metavar="N",
                        help="solver processes (default: one per core)")
    parser.add_argument("--max-seconds", type=bounded_int(1, 86_400), default=60, metavar="S",
                        help="the bound on one rule set's solve: a solve past S seconds is stopped and the "
                             "request refused, saying so (default: 60)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        from ..web.app import create_app
        from ..web.server import bound_socket, serve
    except ImportError:
        raise BjexactError("bjexact serve needs the web extra: pip install 'bjexact[web]'") from None

    sock = bound_socket(args.host, args.port)  # a taken port is refused before any worker starts
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    print(f"bjexact serve: open http://{shown}:{port}/ (Ctrl-C stops it)", flush=True)
    serve(create_app(workers=args.workers, max_seconds=args.max_seconds), sock)
    return 0
