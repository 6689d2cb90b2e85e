"""The web application: the calculator page and the HTTP API under ``/api/``.

Built on FastAPI (Starlette underneath, served by uvicorn): typed routes, and the OpenAPI
description served at ``/openapi.json`` from the same declarations. The page and its script ship
in :mod:`bjexact.web` (``static/``); nothing is fetched from elsewhere, so the interactive API
pages that would load scripts from a CDN are off.

Every answer is the command line's (:mod:`bjexact.web.answers`): JSON with exact ``"p/q"`` strings
and floats beside them, under the keys of the command's ``--format json``, or its CSV, text,
Markdown or LaTeX with ``format=``. The rules are the query's (:mod:`bjexact.web.queries`). Bad
input is HTTP 400 with ``{"error": one line}``, the command line's line; a rule set beyond the
bound on one request's work is refused the same way, saying why.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Callable
from contextlib import asynccontextmanager
from importlib import resources
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from ..core.numbers import mpq, short
from ..core.rules import GameRules
from ..errors import BjexactError
from ..render.effects import RuleEffect, RuleEffects, rule_changes
from . import answers
from .queries import RULE_NAMES, refuse_heavy_work, rules_from_query
from .service import DEFAULT_MAX_SECONDS, STOPPING, Question, SolveService

__all__ = ["create_app", "PARAMETERS", "REQUEST_PARAMETERS"]

PARAMETERS = {"/api/edge": ("strategy", "format"), "/api/chart": ("format",),
              "/api/hand": ("cards", "upcard", "format"), "/api/decision": ("cards", "upcard"),
              "/api/cell": ("section", "row", "upcard"), "/api/dealer": ("format",), "/api/effects": (),
              "/api/progress": ()}
"""Each route's own query parameters, beside the rules."""
REQUEST_PARAMETERS = tuple(sorted({name for names in PARAMETERS.values() for name in names}))
"""Query parameters that are a request's, not rules."""

_MEDIA = {"json": "application/json", "csv": "text/csv; charset=utf-8", "text": "text/plain; charset=utf-8",
          "md": "text/markdown; charset=utf-8", "latex": "application/x-latex; charset=utf-8",
          "svg": "image/svg+xml"}
_RULE_HELP = ("a rule of the full game as its JSON form names it (default when left out): decks (a number or "
              "inf), shoe (ten counts A,2,...,9,T), true/false rules, bj_pays (3/2), double (any, 9-11, 10-11, "
              "none), split_hands (1..8), surrender (none, late, early), hole_card (peek, enhc), split_strategy "
              "(cdz, cdp1, cdp), charlie (5..)")


class BadInput(Exception):
    """A request's fault: answered with HTTP 400 and the one line."""


def _rules_dependency() -> Callable[..., GameRules]:
    """A FastAPI dependency that reads the rules of a request's query; it declares each rule as a query
    parameter (so the OpenAPI description lists them) and refuses unknown or repeated ones."""

    def rules_of(request: Request, **_declared: Any) -> GameRules:
        own = PARAMETERS.get(request.url.path, ())
        seen: set[str] = set()
        for key, _ in request.query_params.multi_items():
            name = key.replace("-", "_")
            if name in seen:
                raise BadInput(f"{short(key)} is given twice: give it once")
            seen.add(name)
            if name in REQUEST_PARAMETERS and name not in own:
                raise BadInput(f"{name} does not apply to {request.url.path} (its parameters: "
                               f"{', '.join(own + ('the rules',))})")
        try:
            rules = rules_from_query(dict(request.query_params), ignore=own)
            refuse_heavy_work(rules)
        except BjexactError as exc:
            raise BadInput(str(exc)) from None
        return rules

    declared = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=str | None,
                                  default=Query(None, description=_RULE_HELP)) for name in RULE_NAMES]
    request = inspect.Parameter("request", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Request)
    rules_of.__signature__ = inspect.Signature([request, *declared])  # type: ignore[attr-defined]
    return rules_of


_rules = _rules_dependency()
RulesOfQuery = Annotated[GameRules, Depends(_rules)]
"""A route's rules, read from its query."""
TableFormat = Annotated[str | None, Query(description="json (default), csv, text, md, latex")]
Cards = Annotated[str | None, Query(description="the player's cards, e.g. T,6")]
Upcard = Annotated[str | None, Query(description="the dealer's up-card, e.g. T")]


def _format(fmt: str | None, allowed: tuple[str, ...] = answers.TABLE_FORMATS) -> str:
    if fmt is None:
        return "json"
    if fmt not in allowed:
        raise BadInput(f"format must be one of {', '.join(allowed)}, not {fmt[:24]!r}")
    return fmt


def _cards(text: str | None, what: str) -> list[str]:
    if not text:
        raise BadInput(f"{what} is needed, e.g. {what}=T,6" if what == "cards" else f"{what} is needed, e.g. {what}=T")
    cards = [c.strip() for c in text.split(",")]
    if what == "upcard" and len(cards) > 1:
        raise BadInput(f"upcard is one card, not {len(cards)}")
    if len(cards) > 21:
        raise BadInput(f"{len(cards)} cards: a hand holds at most 21")
    return cards


def create_app(service: SolveService | None = None, *, workers: int | None = None,
               max_seconds: float = DEFAULT_MAX_SECONDS) -> FastAPI:
    """The application; ``service``: the solver to use (default: a :class:`SolveService` of
    ``workers`` processes and the bound ``max_seconds`` on a solve, started with the application
    and stopped with it)."""
    owned = service is None

    @asynccontextmanager
    async def lifespan(app: FastAPI):  # type: ignore[no-untyped-def]
        nonlocal service
        if service is None:
            service = SolveService(workers, max_seconds)
            await asyncio.get_running_loop().run_in_executor(None, service.warm_up)
        app.state.service = service
        yield
        if owned:
            service.close()

    app = FastAPI(title="bjexact", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Exact blackjack values: the house edge, the basic strategy chart, every move of a "
                              "hand, the dealer's outcomes, rule effects. Exact values are \"p/q\" strings, "
                              "floats beside them; the keys are those of the bjexact command line's JSON.")
    if service is not None:
        app.state.service = service  # usable without the lifespan (tests' in-process transports)
    app.mount("/static", StaticFiles(directory=str(resources.files("bjexact.web") / "static")), name="static")

    @app.exception_handler(BadInput)
    async def bad_input(request: Request, exc: BadInput) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"error": f"internal error: {type(exc).__name__} (please report it)"}, status_code=500)

    async def ask(request: Request, question: Question) -> Any:
        answer = await request.app.state.service.answer(question)
        if answer.error == STOPPING:
            raise StarletteHTTPException(503, STOPPING)
        if answer.internal:
            raise StarletteHTTPException(500, answer.error)
        if answer.error is not None:
            raise BadInput(answer.error)
        return answer.value

    def respond(text: str, fmt: str) -> Response:
        return Response(text, media_type=_MEDIA[fmt])

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def page() -> HTMLResponse:
        return HTMLResponse((resources.files("bjexact.web") / "static" / "index.html").read_text())

    @app.get("/api/edge", summary="The round's exact value and house edge (bjexact edge)")
    async def edge(request: Request, rules: RulesOfQuery,
                   strategy: Annotated[str | None, Query(description="optimal (default) or chart")] = None,
                   format: TableFormat = None) -> Response:
        if strategy not in (None, "optimal", "chart"):
            raise BadInput(f"strategy must be optimal or chart, not {strategy[:24]!r}")
        fmt = _format(format)
        return respond(await ask(request, Question(answers.edge_answer, rules, (strategy or "optimal", fmt))), fmt)

    @app.get("/api/chart", summary="The basic strategy chart (bjexact chart); format=svg: the colour chart")
    async def chart(request: Request, rules: RulesOfQuery,
                    format: Annotated[str | None, Query(description="json (default), csv, text, md, latex, svg")] = None
                    ) -> Response:
        fmt = _format(format, answers.TABLE_FORMATS + ("svg",))
        return respond(await ask(request, Question(answers.chart_answer, rules, (fmt,))), fmt)

    @app.get("/api/hand", summary="Every move of one hand with its exact value (bjexact hand)")
    async def hand(request: Request, rules: RulesOfQuery,
                   cards: Cards = None,
                   upcard: Upcard = None,
                   format: TableFormat = None) -> Response:
        fmt = _format(format)
        question = Question(answers.hand_answer, rules, (tuple(_cards(cards, "cards")), _cards(upcard, "upcard")[0],
                                                         fmt))
        return respond(await ask(request, question), fmt)

    @app.get("/api/decision", summary="A simulator's per-hand query: the best move and every move's value")
    async def decision(request: Request, rules: RulesOfQuery,
                       cards: Cards = None,
                       upcard: Upcard = None) -> JSONResponse:
        question = Question(answers.hand_answer, rules, (tuple(_cards(cards, "cards")), _cards(upcard, "upcard")[0],
                                                         "json"))
        document = json.loads(await ask(request, question))
        keys = ("cards", "upcard", "best", "moves", "moves_float")
        return JSONResponse({key: document[key] for key in keys if key in document})

    @app.get("/api/cell", summary="One chart cell: each of its two-card hands with every move's value")
    async def cell(request: Request, rules: RulesOfQuery,
                   section: Annotated[str | None, Query(description="hard, soft or pairs")] = None,
                   row: Annotated[str | None, Query(description="a total (hard, soft) or a rank (pairs)")] = None,
                   upcard: Upcard = None) -> Response:
        if not section or not row or not upcard:
            raise BadInput("a cell needs section, row and upcard, e.g. section=hard&row=16&upcard=T")
        return respond(await ask(request, Question(answers.cell_answer, rules, (section, row, upcard))), "json")

    @app.get("/api/dealer", summary="The dealer's final outcomes by up-card (bjexact dealer --naturals separate)")
    async def dealer(request: Request, rules: RulesOfQuery,
                     format: TableFormat = None
                     ) -> Response:
        fmt = _format(format)
        return respond(await ask(request, Question(answers.dealer_answer, rules, (fmt,))), fmt)

    @app.get("/api/effects", summary="The effect of each common rule change on the house edge")
    async def effects(request: Request, rules: RulesOfQuery) -> JSONResponse:
        service = request.app.state.service
        base = mpq((await ask(request, Question(answers.house_edge_answer, rules)))["house_edge"])
        changes = rule_changes(rules)
        edges = await asyncio.gather(*(service.answer(Question(answers.house_edge_answer, c.rules))
                                       for c in changes))
        for edge in edges:
            if edge.error == STOPPING or edge.internal:
                raise StarletteHTTPException(503 if edge.error == STOPPING else 500, edge.error)
        solved = [RuleEffect(c, mpq(e.value["house_edge"]), base) for c, e in zip(changes, edges) if e.error is None]
        unsolved = tuple((c, e.error) for c, e in zip(changes, edges) if e.error is not None)
        return JSONResponse(RuleEffects(rules, base, tuple(solved), unsolved).to_json())

    @app.get("/api/progress", summary="How far the solves of a rule set are")
    async def progress(request: Request, rules: RulesOfQuery) -> JSONResponse:
        return JSONResponse(request.app.state.service.progress(rules))

    @app.get("/api/defaults", summary="The default rules, and the names a query may use")
    async def defaults() -> JSONResponse:
        return JSONResponse({"rules": GameRules().to_json(), "names": list(RULE_NAMES)})

    return app

