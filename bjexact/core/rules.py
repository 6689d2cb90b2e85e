"""Rule sets: :class:`GameRules`, the one rules class (the shoe, the dealer's soft-17 rule, the
payout, what the player may do and how a hand is settled), and :class:`Rules`, its view for the
dealer's tables and the hit/stand game, with their naturals convention.

Naturals conventions (a *natural* is an ace and a ten-valued card as the first two cards;
:class:`Naturals` names them and says what each means for the game and for a dealer table):

``as21`` (default)
    The dealer's natural is simply a final 21: six outcomes 17..21, bust.
``separate``
    A two-card 21 is its own outcome, ``blackjack``; the 21 column holds only
    21s of three or more cards.
``peek``
    Every probability is conditioned on the dealer *not* holding a natural (the
    dealer checks the hole card first and the round ends at once when it is a
    natural). Only the A and T rows change: they are renormalised.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, Literal

from ..errors import BjexactError
from .cards import ACE, MAX_DECKS, Counts, FiniteShoe, InfiniteShoe, Shoe
from .hand import HandValue, hand_value, is_natural
from .numbers import as_rational, check_number_text, fraction_string, mpq, parse_fraction, short
from .settlement import hand_result, payout

__all__ = ["Rules", "Naturals", "NATURALS", "INFINITE", "parse_decks", "GameRules", "DOUBLE_RULES",
           "SURRENDER_RULES", "HOLE_CARD_RULES", "SPLIT_STRATEGIES", "MAX_SPLIT_HANDS", "CHARLIE_CARDS", "RULE_OPTIONS",
           "dealer_stands", "parse_bj_pays", "refuse_split_rules_without_splitting"]


class Naturals(StrEnum):
    """The naturals conventions, the one owner of their names (``--naturals``).

    Each is a string (``Naturals.PEEK == "peek"``). It combines two things that
    :attr:`dealer_peeks` and :attr:`natural_outcome` take apart: the game's hole-card rule
    (whether the dealer checks for a natural before the player acts) and the convention of a
    dealer table (a natural counted as a 21, as its own outcome, or conditioned away).
    """

    AS21 = "as21"
    SEPARATE = "separate"
    PEEK = "peek"

    @property
    def dealer_peeks(self) -> bool:
        """The game's hole-card rule: the dealer checks for a natural before the player acts,
        and the player's decisions are conditioned on there being none."""
        return self is Naturals.PEEK

    @property
    def natural_outcome(self) -> str | None:
        """The table convention: a dealer natural is the outcome ``"21"`` (``as21``), its own
        outcome ``"blackjack"`` (``separate``), or no outcome at all (``peek``: the rows are
        conditioned on no natural)."""
        return {Naturals.AS21: "21", Naturals.SEPARATE: "blackjack", Naturals.PEEK: None}[self]


NATURALS: tuple[str, ...] = tuple(n.value for n in Naturals)
INFINITE = math.inf
DEFAULT_DECKS = 2


def parse_decks(text: str, what: str = "--decks") -> int | float:
    """A number of decks as people write it (``--decks``, a grid file's ``decks``), the one parser:
    a whole number from 1 to :data:`~bjexact.core.cards.MAX_DECKS` in ASCII digits, or ``inf``
    (``infinite``, ``infinity``, any case) for the infinite deck (:data:`INFINITE`); anything else
    is refused in one line naming ``what``.

    Examples
    --------
    >>> parse_decks("6"), parse_decks(" Inf ")
    (6, inf)
    >>> parse_decks("0")
    Traceback (most recent call last):
    ...
    bjexact.errors.BjexactError: --decks must be a whole number >= 1 or 'inf', not '0'
    """
    body = text.strip()
    if body.lower() in ("inf", "infinite", "infinity"):
        return INFINITE
    if not body.isascii() or not body.isdigit() or not body.lstrip("0"):  # not '²', '-1', '+inf', '0'
        raise BjexactError(f"{what} must be a whole number >= 1 or 'inf', not {short(body)!r}")
    if len(body.lstrip("0")) > len(str(MAX_DECKS)) or int(body) > MAX_DECKS:  # not 5,000 digits
        raise BjexactError(f"{what} is too large: at most {MAX_DECKS:,}, not {short(body)}")
    return int(body)


def _parse_decks(decks: Any) -> int | float | None:
    """A rule set's ``decks`` from Python or JSON: text as :func:`parse_decks` reads it, a whole
    number, or ``math.inf``."""
    if decks is None:
        return None
    if isinstance(decks, str):
        return parse_decks(decks)
    if decks == INFINITE:
        return INFINITE
    if isinstance(decks, bool) or not isinstance(decks, int) or decks < 1:
        raise BjexactError(f"the number of decks must be a whole number >= 1 or inf, not {short(repr(decks))}")
    if decks > MAX_DECKS:
        raise BjexactError(f"the number of decks is too large: at most {MAX_DECKS:,}, not {short(str(decks))}")
    return decks


def _set_shoe_or_decks(rules: Any) -> None:
    """Check and normalise a rule set's ``shoe`` (ten counts) or ``decks`` (default 2), not both."""
    if rules.shoe is not None:
        if rules.decks is not None:
            raise BjexactError("give a number of decks or a shoe, not both")
        object.__setattr__(rules, "shoe", Shoe.of_counts(rules.shoe).counts)
    else:
        object.__setattr__(rules, "decks", DEFAULT_DECKS if rules.decks is None else _parse_decks(rules.decks))


def _shoe_words(rules: Any) -> str:
    """A rule set's shoe for people: ``shoe 4,4,...``, ``infinite deck`` or ``6 decks``."""
    if rules.shoe is not None:
        return "shoe " + ",".join(map(str, rules.shoe))
    if rules.infinite:
        return "infinite deck"
    return f"{rules.decks} deck{'s' if rules.decks != 1 else ''}"


def dealer_stands(h17: bool, hand: HandValue) -> bool:
    """Whether the dealer stands on ``hand``: 17 or more, except soft 17 when the dealer hits it
    (``h17``). The one owner of the dealer's drawing rule.

    Examples
    --------
    >>> dealer_stands(False, hand_value([1, 6])), dealer_stands(True, hand_value([1, 6]))
    (True, False)
    """
    if hand.total > 17:
        return True
    return hand.total == 17 and not (h17 and hand.soft)


def parse_bj_pays(text: str, what: str = "--bj-pays") -> mpq:
    """What a player's natural pays, as people type it (``--bj-pays``, a grid file's ``bj_pays``):
    a short fraction, ratio or decimal such as ``3/2``, ``6:5`` or ``1.2``, refused in one line
    naming ``what`` when it is too long, out of range, or no number."""
    try:
        return parse_fraction(check_number_text(text, what).replace(":", "/", 1))
    except ValueError:
        raise BjexactError(f"{what} must be a fraction such as 3/2 or 6:5, not {short(text)!r}") from None


def refuse_split_rules_without_splitting(rules: GameRules) -> GameRules:
    """``rules``, unless a rule of split hands is set where nothing is split (``split_hands`` 1):
    ``hit_split_aces``, or a ``split_strategy`` other than cdz, is refused as ``rsa`` is.

    For rule sets people give (options, grid files). The engine itself takes them: a hand that
    is already split plays on under ``split_hands`` 1 (no further split) with its rules.
    """
    if rules.split_hands == 1:
        if rules.hit_split_aces:
            raise BjexactError("--hit-split-aces (drawing to split aces) needs splitting: --split-hands 2 or more")
        if rules.split_strategy != "cdz":
            raise BjexactError(f"--split-strategy {rules.split_strategy} (how split hands are played) needs "
                               "splitting: --split-hands 2 or more")
    return rules


def _payout(value: Any) -> mpq:
    """The blackjack payout as an exact non-negative fraction: ``3/2`` as ``mpq(3, 2)``,
    ``Fraction(3, 2)``, ``"3/2"`` or ``"3:2"`` (a float is refused: it is not exact)."""
    if isinstance(value, str) and value.count(":") == 1:
        value = value.replace(":", "/")
    try:
        bj_pays = as_rational(value)
    except (ValueError, TypeError, ZeroDivisionError):
        hint = " (a float is not exact)" if isinstance(value, float) else ""
        raise BjexactError(f"bj_pays must be an exact fraction such as \"3/2\", \"6:5\" or Fraction(6, 5), "
                           f"not {value!r}{hint}") from None
    if bj_pays < 0:
        raise BjexactError(f"bj_pays must not be negative ({value})")
    return bj_pays


@dataclass(frozen=True)
class Rules:
    """The dealer's tables and the hit/stand game: a view of a :class:`GameRules`.

    ``decks``: a whole number of 52-card decks, or ``math.inf`` / ``"inf"`` for the
    infinite deck (default: 2). ``shoe``: ten custom counts (A, 2, ..., 9, T) instead
    of decks (giving both is an error); then ``decks`` is ``None``. ``h17``: the dealer hits soft 17 (default:
    stands on all 17s). ``naturals``: see the module docstring. ``bj_pays``: what a
    player's natural pays under ``separate`` and ``peek`` (player analysis only).

    The rule set itself is :attr:`game`, the one rules class: the hit/stand game is the full game
    with no doubling, no splitting and no surrender; ``peek`` is its peek hole-card rule, ``separate``
    ENHC and ``as21`` its ``plain_naturals``. These fields are checked and normalised there, and the
    shoe and the dealer's drawing rule are its. What is left here is the naturals convention of a
    dealer table and the table's JSON and words.
    """

    decks: int | float | str | None = None
    h17: bool = False
    naturals: Naturals | str = Naturals.AS21
    shoe: Counts | None = None
    bj_pays: mpq = field(default_factory=lambda: mpq(3, 2))
    game: GameRules = field(init=False, repr=False, compare=False)
    """The rule set these rules view (:meth:`of` gives it back)."""

    def __post_init__(self) -> None:
        if self.naturals not in NATURALS:
            raise BjexactError(
                f"unknown naturals convention {self.naturals!r} (use {', '.join(NATURALS)})"
            )
        naturals = Naturals(self.naturals)
        game = GameRules(decks=self.decks, shoe=self.shoe, h17=self.h17, bj_pays=self.bj_pays, double="none",
                         split_hands=1, hole_card="enhc" if naturals is Naturals.SEPARATE else "peek",
                         plain_naturals=naturals is Naturals.AS21)
        for name in ("decks", "shoe", "bj_pays"):  # as the rule set has normalised them
            object.__setattr__(self, name, getattr(game, name))
        object.__setattr__(self, "naturals", naturals)
        object.__setattr__(self, "game", game)

    @classmethod
    def of(cls, rules: GameRules) -> Rules:
        """The dealer's tables and the hit/stand game of a rule set: its shoe, H17/S17, payout and
        naturals (:attr:`GameRules.naturals`); doubling, splitting and surrender left out.

        Examples
        --------
        >>> Rules.of(GameRules(decks=6, hole_card="enhc", surrender="early")).describe()
        '6 decks, S17, naturals separate'
        """
        return cls(decks=rules.decks, shoe=rules.shoe, h17=rules.h17, naturals=rules.naturals, bj_pays=rules.bj_pays)

    @classmethod
    def hit_stand(cls, rules: Rules | GameRules) -> Rules:
        """``rules`` as the hit/stand game: these rules as they are, or a :class:`GameRules` with no
        doubling, no splitting, no surrender and no Charlie viewed by :meth:`of`; a rule set with
        any of those is an error naming it (the full game's solver values it).

        Examples
        --------
        >>> Rules.hit_stand(GameRules(decks=1, double="none", split_hands=1)) == Rules(decks=1, naturals="peek")
        True
        >>> Rules.hit_stand(GameRules(decks=1))
        Traceback (most recent call last):
        ...
        bjexact.errors.BjexactError: the hit/stand game has no doubling: these rules double (double any); ...
        """
        if isinstance(rules, Rules):
            return rules
        extra = [(rules.double != "none", f"no doubling: these rules double (double {rules.double})"),
                 (rules.split_hands != 1, f"no splitting: these rules split (split_hands {rules.split_hands})"),
                 (rules.surrender != "none", f"no surrender: these rules have {rules.surrender} surrender"),
                 (rules.charlie is not None, f"no Charlie: these rules have a {rules.charlie}-card Charlie")]
        for found, words in extra:
            if found:
                raise BjexactError(f"the hit/stand game has {words}; solve the full game (solve_game, bjexact edge)")
        return cls.of(rules)

    @property
    def infinite(self) -> bool:
        return self.game.infinite

    def make_shoe(self) -> InfiniteShoe | FiniteShoe:
        """The full shoe before any card is dealt."""
        return self.game.full_shoe()

    def finite_shoe(self, needs: str = "this") -> FiniteShoe:
        """The full shoe of a finite rule set; for the infinite deck an error: ``needs`` a finite shoe."""
        shoe = self.make_shoe()
        if not isinstance(shoe, FiniteShoe):
            raise BjexactError(f"{needs} needs a finite shoe")
        return shoe

    def dealer_stands(self, hand: HandValue) -> bool:
        """Whether the dealer stands on ``hand``: 17 or more, except soft 17 under H17."""
        return self.game.dealer_stands(hand)

    @property
    def dealer_peeks(self) -> bool:
        """The game's hole-card rule (see :attr:`Naturals.dealer_peeks`)."""
        return Naturals(self.naturals).dealer_peeks

    def game_rules(self) -> GameRules:
        """The hit/stand game of these rules as a rule set of the full game (:attr:`game`): no
        doubling, no splitting, no surrender; ``peek`` is the peek hole-card rule, ``separate``
        ENHC (a dealer natural beats every other hand) and ``as21`` plain naturals. Its value from
        the deal (objective ``ev``) by :func:`~bjexact.player.game.solve_game` is the hit/stand
        game's, exactly, under each convention.

        Examples
        --------
        >>> Rules(decks=6, naturals="separate").game_rules().describe()
        '6 decks, S17, blackjack pays 3/2, no doubling, no splitting, ENHC, CDZ-'
        """
        return self.game

    def to_json(self, *, bj_pays: bool = False) -> dict[str, Any]:
        """The JSON form, the one owner: ``{"decks": 2 | "inf" | null, "h17", "naturals", "shoe"}``,
        and ``"bj_pays"`` (a fraction string) when asked for, as the player's analyses do.

        Examples
        --------
        >>> Rules(decks="inf").to_json(bj_pays=True)
        {'decks': 'inf', 'h17': False, 'naturals': 'as21', 'shoe': None, 'bj_pays': '3/2'}
        """
        document: dict[str, Any] = {
            "decks": "inf" if self.infinite else self.decks,
            "h17": self.h17,
            "naturals": str(self.naturals),
            "shoe": list(self.shoe) if self.shoe is not None else None,
        }
        if bj_pays:
            document["bj_pays"] = fraction_string(self.bj_pays)
        return document

    def describe(self) -> str:
        """One line for people.

        Examples
        --------
        >>> Rules(decks=6, h17=True, naturals="peek").describe()
        '6 decks, H17, naturals peek'
        """
        shoe = _shoe_words(self)
        text = f"{shoe}, {'H17' if self.h17 else 'S17'}, naturals {self.naturals}"
        if self.naturals != "as21" and self.bj_pays != mpq(3, 2):
            text += f", blackjack pays {fraction_string(self.bj_pays)}"
        return text


# --- the full game ---------------------------------------------------------------

DOUBLE_RULES = ("any", "9-11", "10-11", "none")
SURRENDER_RULES = ("none", "late", "early")
HOLE_CARD_RULES = ("peek", "enhc")
SPLIT_STRATEGIES = ("cdz", "cdp1", "cdp", "optimal")
MAX_SPLIT_HANDS = 8  # the most hands splitting may make (split_hands)
CHARLIE_CARDS = tuple(range(4, 11))  # the Charlie counts a rule set may name (charlie)
# the full game's rules set by command-line options, each with the option that moves it off its default
# (a flag for a True/False rule, an option with a value otherwise); the shoe, H17 and the payout aside
RULE_OPTIONS: dict[str, str] = {
    "double": "--double", "surrender": "--surrender", "hole_card": "--hole-card",
    "split_strategy": "--split-strategy", "split_hands": "--split-hands", "double_soft": "--no-double-soft",
    "das": "--no-das", "rsa": "--rsa", "hit_split_aces": "--hit-split-aces", "obo": "--obo",
    "double_split_aces": "--double-split-aces", "double_after_hit": "--double-after-hit", "charlie": "--charlie",
}



@dataclass(frozen=True)
class GameRules:
    """The rules of the full game. Defaults: 2 decks, S17, 3:2, double any two cards,
    DAS, up to 4 hands by splitting, no resplitting aces, one card to each split ace
    (split aces never double unless ``double_split_aces``), no surrender, peek, CDZ-
    post-split strategy, doubling on two cards only, no Charlie. ``double="none"`` with
    ``split_hands=1`` is the hit/stand game.

    ``split_hands``: the most hands splitting can make, 1 (no splitting) to
    :data:`MAX_SPLIT_HANDS`. ``double_after_hit``: a hand of any number of cards may double,
    under the ``double`` totals rule (and, split, DAS). ``charlie``: a hand reaching that many
    cards without busting wins 1:1 at once (:meth:`is_charlie`). ``plain_naturals``: a natural
    is a plain 21 on either side, neither paid nor settled first (``--naturals as21``), the
    convention of the hit/stand game of :class:`Rules` only (no doubling, splitting, surrender
    or Charlie with it); :func:`~bjexact.player.game.solve_game` values it as the hit/stand
    solver does, exactly.

    The one owner of what the rules allow: :meth:`may_double`, :meth:`may_hit_split`,
    :meth:`split_limit`, :meth:`may_split`, :meth:`dealer_stands`; and of what a finished hand
    or round is worth: :meth:`settle`, :meth:`dealer_natural_loss`
    (see :mod:`bjexact.core.settlement`). Every caller that plays or values a round (the
    solver, the table at the terminal, the round simulators, counting) asks these.

    ``split_strategy``, how split hands are played: ``"cdz"`` (CDZ-: the unsplit hand's
    strategy for the same cards), ``"cdp1"`` (the first split hand's optimal strategy, the
    other pair card gone too, for every split hand) or ``"cdp"`` (optimal with the other
    split hands' pair cards gone too, as many as are on the table when the hand is played), or
    ``"optimal"`` (perfect post-split play, every split hand knowing every card seen in the round:
    :mod:`bjexact.player.optimal_split`; one hand's moves, the round's value, charts and sweeps,
    no distribution of the net result).
    """

    decks: int | float | str | None = None
    shoe: Counts | None = None
    h17: bool = False
    bj_pays: mpq = field(default_factory=lambda: mpq(3, 2))
    double: Literal["any", "9-11", "10-11", "none"] = "any"
    double_soft: bool = True
    das: bool = True
    split_hands: int = 4
    rsa: bool = False
    hit_split_aces: bool = False
    surrender: Literal["none", "late", "early"] = "none"
    hole_card: Literal["peek", "enhc"] = "peek"
    obo: bool = False
    split_strategy: Literal["cdz", "cdp1", "cdp", "optimal"] = "cdz"
    double_split_aces: bool = False
    double_after_hit: bool = False
    charlie: int | None = None
    plain_naturals: bool = False

    def __post_init__(self) -> None:
        _set_shoe_or_decks(self)
        for name in ("h17", "double_soft", "das", "rsa", "hit_split_aces", "obo", "double_split_aces",
                     "double_after_hit", "plain_naturals"):
            if not isinstance(getattr(self, name), bool):
                raise BjexactError(f"{name} must be True or False, not {getattr(self, name)!r}")
        object.__setattr__(self, "bj_pays", _payout(self.bj_pays))
        _choice("--double", self.double, DOUBLE_RULES)
        _choice("--surrender", self.surrender, SURRENDER_RULES)
        _choice("--hole-card", self.hole_card, HOLE_CARD_RULES)
        _choice("--split-strategy", self.split_strategy, SPLIT_STRATEGIES)
        if type(self.split_hands) is not int or self.split_hands not in range(1, MAX_SPLIT_HANDS + 1):
            raise BjexactError(f"--split-hands must be 1 (no splitting) to {MAX_SPLIT_HANDS}, not {self.split_hands!r}")
        if self.charlie is not None and (type(self.charlie) is not int or self.charlie not in CHARLIE_CARDS):
            raise BjexactError(f"--charlie must be a number of cards from {CHARLIE_CARDS[0]} to {CHARLIE_CARDS[-1]} "
                               f"(5: five-card Charlie), not {self.charlie!r}")
        if self.double_after_hit and self.double == "none":
            raise BjexactError("--double-after-hit (doubling a hand of three or more cards) needs doubling: "
                               "not with --double none")
        if self.obo and self.hole_card != "enhc":
            raise BjexactError("--obo (original bets only) applies to --hole-card enhc only")
        if self.rsa and self.split_hands <= 2:
            raise BjexactError("--rsa (resplit aces) needs --split-hands 3 or more")
        if self.surrender == "late" and self.hole_card == "enhc":
            raise BjexactError(
                "late surrender comes after the dealer's peek: with --hole-card enhc use --surrender early")
        if self.double_split_aces and not (self.hit_split_aces and self.das and self.double != "none"):
            raise BjexactError("--double-split-aces needs --hit-split-aces and doubling after splitting (DAS)")
        if self.plain_naturals and self.hole_card != "peek":
            raise BjexactError("--naturals as21 counts a natural as a plain 21, so no hole-card rule applies: "
                               "not with --hole-card enhc")
        if self.plain_naturals and (self.double != "none" or self.split_hands != 1 or self.surrender != "none"
                                    or self.charlie is not None):
            raise BjexactError("--naturals as21 (a natural as a plain 21) is the hit/stand game's convention: "
                               "no doubling, splitting, surrender or Charlie with it")

    @property
    def naturals(self) -> Naturals:
        """The naturals convention of the rules (the module docstring): ``as21`` with
        ``plain_naturals``, else ``peek`` or ``separate`` (ENHC) by the hole-card rule."""
        if self.plain_naturals:
            return Naturals.AS21
        return Naturals.PEEK if self.hole_card == "peek" else Naturals.SEPARATE

    # --- what the rules allow: the one owner ---

    def may_double(self, hand: HandValue, *, split_pair: int | None = None, cards: int = 2) -> bool:
        """Whether a hand of ``cards`` cards worth ``hand`` may double: the totals ``double``
        allows, soft ones only with ``double_soft``; a split hand of ``split_pair`` only with DAS,
        and a split ace only with ``double_split_aces`` (which needs ``hit_split_aces``); a hand
        of three or more cards (after hitting) only with ``double_after_hit``, under the same
        totals rule (and, split, DAS).

        Examples
        --------
        >>> rules = GameRules(double="10-11", double_soft=False)
        >>> [rules.may_double(hand_value(cards)) for cards in ([5, 6], [1, 9], [8, 8])]
        [True, False, False]
        >>> [GameRules(double_after_hit=dah).may_double(hand_value([2, 3, 5]), cards=3) for dah in (False, True)]
        [False, True]
        """
        if cards != 2 and not (cards > 2 and self.double_after_hit):
            return False
        if split_pair is not None and not (self.das and (split_pair != ACE or self.double_split_aces)):
            return False
        if self.double == "none" or (hand.soft and not self.double_soft):
            return False
        if self.double == "9-11":
            return 9 <= hand.total <= 11
        if self.double == "10-11":
            return 10 <= hand.total <= 11
        return True

    def may_hit_split(self, pair: int) -> bool:
        """Whether a split hand of ``pair`` may draw past its second card (split aces get one card
        each unless ``hit_split_aces``)."""
        return pair != ACE or self.hit_split_aces

    def split_limit(self, pair: int) -> int:
        """The most hands splitting ``pair`` can make (aces are resplit only with ``rsa``)."""
        return self.split_hands if pair != ACE or self.rsa else min(self.split_hands, 2)

    def may_split(self, ranks: Sequence[int], hands: int = 1) -> bool:
        """Whether a hand of two cards ``ranks`` may split with ``hands`` hands on the table."""
        return len(ranks) == 2 and ranks[0] == ranks[1] and hands < self.split_limit(ranks[0])

    def dealer_stands(self, hand: HandValue) -> bool:
        """Whether the dealer stands on ``hand`` (see :func:`dealer_stands`)."""
        return dealer_stands(self.h17, hand)

    # --- what a hand is worth: the one settlement ---

    def payout(self, result: str) -> mpq:
        """The net result of a hand per unit of its stake: ``natural`` pays ``bj_pays``, ``win`` 1,
        ``push`` 0, ``loss`` -1 (:data:`bjexact.core.settlement.RESULTS`)."""
        return payout(result, self.bj_pays)

    def is_charlie(self, cards: int, hand: HandValue) -> bool:
        """Whether a hand of ``cards`` cards worth ``hand`` is a Charlie: with ``charlie`` set, it
        has that many cards (or more) and has not busted. A Charlie wins its stake 1:1 at once
        (:func:`bjexact.core.settlement.hand_result`), whatever the dealer holds, except a dealer
        natural: under peek that is settled before the player plays; under ENHC a dealer natural
        found afterwards takes the Charlie's stake like any other bet (or, with OBO, the original
        bet only). Split hands are Charlies alike; a doubled hand is one when its card makes it so
        (three cards, or more with ``double_after_hit``) and then wins its doubled stake.

        Examples
        --------
        >>> rules = GameRules(charlie=5)
        >>> rules.is_charlie(5, hand_value([2, 3, 2, 4, 5])), rules.is_charlie(4, hand_value([2, 3, 2, 4]))
        (True, False)
        """
        return self.charlie is not None and cards >= self.charlie and not hand.bust

    def settle(self, player: Sequence[int], dealer: Sequence[int], stake: Any = 1, *, split: bool = False) -> mpq:
        """The net result of a finished hand of cards ``player`` (ranks) with ``stake`` on it (2 once
        doubled) against the dealer's cards ``dealer`` (all of them). A split hand's two-card 21
        is no natural. A dealer natural takes the hand's stake (under ENHC with OBO the round
        loses the original bet only: :meth:`dealer_natural_loss`). A Charlie (:meth:`is_charlie`)
        wins its stake against anything but a dealer natural.

        Examples
        --------
        >>> str(GameRules(bj_pays="6/5").settle([1, 10], [10, 7])), str(GameRules().settle([5, 6, 9], [10, 1], 2))
        ('6/5', '-2')
        >>> [str(GameRules(charlie=c).settle([2, 3, 2, 4, 5], [10, 9])) for c in (5, None)]
        ['1', '-1']
        """
        value = hand_value(player)
        result = hand_result(value, hand_value(dealer), player_natural=self.is_natural(player, split=split),
                             dealer_natural=self.is_natural(dealer), charlie=self.is_charlie(len(player), value))
        return mpq(stake) * self.payout(result)

    def is_natural(self, cards: Sequence[int], *, split: bool = False) -> bool:
        """Whether ``cards`` (ranks) are a natural under these rules: an ace and a ten-valued card as
        the first two cards, not of a split hand, and not under ``plain_naturals``."""
        return not split and not self.plain_naturals and is_natural(cards)

    @property
    def largest_stake(self) -> int:
        """The most a round can have at stake, in units of the initial bet (so the most it can win or
        lose, a natural's payout aside): 2 for a doubled hand, or with splitting ``split_hands`` hands of
        2 each where they may double (DAS), 1 each where not.

        Examples
        --------
        >>> GameRules(split_hands=4).largest_stake, GameRules(das=False).largest_stake
        (8, 4)
        >>> GameRules(double="none", split_hands=1).largest_stake
        1
        """
        per_hand = 2 if self.double != "none" else 1
        split = self.split_hands * (per_hand if self.das else 1) if self.split_hands > 1 else 0
        return max(per_hand, split)

    def dealer_natural_loss(self, stakes: Sequence[Any], original: Any = 1) -> mpq:
        """What a dealer natural found after the player has played (ENHC) takes from hands whose
        stakes are ``stakes`` (doubles and splits included): every bet, or with ``obo`` the
        ``original`` bet only.

        Examples
        --------
        >>> [str(GameRules(hole_card="enhc", obo=obo).dealer_natural_loss([2, 1])) for obo in (False, True)]
        ['-3', '-1']
        """
        return -mpq(original) if self.obo else -sum((mpq(s) for s in stakes), mpq(0))

    @property
    def infinite(self) -> bool:
        return self.shoe is None and self.decks == float("inf")

    def full_shoe(self) -> InfiniteShoe | FiniteShoe:
        """The full shoe before any card is dealt (the infinite deck, N decks, or the custom ``shoe``)."""
        if self.shoe is not None:
            return Shoe.of_counts(self.shoe)
        if self.infinite or not isinstance(self.decks, int):
            return Shoe.infinite()
        return Shoe.of_decks(self.decks)

    def make_shoe(self) -> InfiniteShoe | FiniteShoe:
        """The full shoe (:meth:`full_shoe`); one that cannot deal a round (two cards each) is an error."""
        if self.shoe is not None and sum(self.shoe) < 4:
            raise BjexactError(f"the shoe is too small to deal a round: {sum(self.shoe)} cards, "
                               "and a round deals 2 to the player and 2 to the dealer")
        return self.full_shoe()

    def dealer_rules(self) -> Rules:
        """The dealer's rules (for its outcome tables): naturals kept apart."""
        return Rules(decks=self.decks, shoe=self.shoe, h17=self.h17, naturals="separate")

    @property
    def excludes_natural(self) -> bool:
        """Whether a dealer natural costs the original bet only (peek, or enhc with obo)."""
        return self.hole_card == "peek" or self.obo

    def to_json(self) -> dict[str, Any]:
        """The JSON form, the one owner: every field (:func:`dataclasses.fields`) by its name, ``decks``
        as a number, ``"inf"`` or ``null`` (a shoe), ``shoe`` as a list, ``bj_pays`` as a fraction
        string. A rule added since 0.1 (:data:`_LATER_RULES`) is written only when it is set, so a
        rule set of those days keeps its JSON (and what is keyed by it)."""
        document: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "decks":
                value = None if self.shoe is not None else ("inf" if self.infinite else self.decks)
            elif f.name == "shoe":
                value = list(value) if value is not None else None
            elif f.name == "bj_pays":
                value = fraction_string(value)
            elif f.name in _LATER_RULES and value == _LATER_RULES[f.name]:
                continue
            document[f.name] = value
        return document

    @classmethod
    def from_json(cls, document: Mapping[str, Any]) -> GameRules:
        """The rule set of a mapping in the form of :meth:`to_json` (keys missing or ``null``: the
        default); an unknown key is an error that names it.

        Examples
        --------
        >>> GameRules.from_json(GameRules(decks=6, surrender="late").to_json()) == GameRules(decks=6, surrender="late")
        True
        """
        names = {f.name for f in fields(cls)}
        unknown = [key for key in document if key not in names]
        if unknown:
            raise BjexactError(f"unknown rule {unknown[0]!r} (rules: {', '.join(sorted(names))})")
        options = {k: v for k, v in document.items() if v is not None}
        if "shoe" in options:
            if not isinstance(options["shoe"], (list, tuple)):
                raise BjexactError(f"shoe must be a list of ten counts (A,2,...,9,T), not {options['shoe']!r}")
            options["shoe"] = tuple(options["shoe"])
        if "bj_pays" in options and isinstance(options["bj_pays"], str):
            options["bj_pays"] = _payout(options["bj_pays"].strip())
        return cls(**options)

    def rule_options(self) -> tuple[str, ...]:
        """The command-line options (:data:`RULE_OPTIONS`) that make these rules from the defaults,
        the shoe, H17 and the payout aside.

        Examples
        --------
        >>> GameRules(double="10-11", das=False, charlie=5, split_hands=2).rule_options()
        ('--double', '10-11', '--split-hands', '2', '--no-das', '--charlie', '5')
        """
        default = GameRules()
        options: list[str] = []
        for name, option in RULE_OPTIONS.items():
            value = getattr(self, name)
            if value != getattr(default, name):
                options += [option] if isinstance(value, bool) else [option, str(value)]
        return tuple(options)

    def describe(self) -> str:
        shoe = _shoe_words(self)
        parts = [shoe, "H17" if self.h17 else "S17", f"blackjack pays {fraction_string(self.bj_pays)}"]
        parts.append({"any": "double any two", "none": "no doubling"}.get(self.double, f"double {self.double}"))
        if not self.double_soft:
            parts.append("no soft doubling")
        if self.double != "none":
            parts.append("DAS" if self.das else "no DAS")
        parts.append("no splitting" if self.split_hands == 1 else f"split to {self.split_hands} hands")
        if self.rsa:
            parts.append("RSA")
        if self.hit_split_aces:
            parts.append("hit split aces")
        if self.double_split_aces:
            parts.append("double split aces")
        if self.double_after_hit:
            parts.append("double after hitting")
        if self.charlie is not None:
            parts.append(f"{self.charlie}-card Charlie")
        if self.surrender != "none":
            parts.append(f"{self.surrender} surrender")
        if self.plain_naturals:
            parts.append("naturals as plain 21s")
        else:
            parts.append("ENHC" + (" OBO" if self.obo else "") if self.hole_card == "enhc" else "peek")
        parts.append({"cdz": "CDZ-", "cdp1": "CDP1", "cdp": "CDP", "optimal": "optimal post-split play"}[
            self.split_strategy])
        return ", ".join(parts)


# rules added since 0.1, with their defaults: GameRules.to_json writes them only when set
_LATER_RULES: dict[str, Any] = {"double_split_aces": False, "double_after_hit": False, "charlie": None,
                                "plain_naturals": False}


def _choice(flag: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise BjexactError(f"{flag} must be one of {', '.join(allowed)}, not {value!r}")
