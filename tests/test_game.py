"""The console game: settling, stakes, every move of the full game in scripted sessions, the log and
its replay, and the exact advice checked against brute force and by hand."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections import Counter
from fractions import Fraction

import pytest

from bjexact.apps.table import (
    SUITS,
    Advice,
    DealingShoe,
    Game,
    GameConfig,
    card,
    chips_text,
    insurance_advice,
    move_advice,
    parse_move,
    parse_stake,
    read_log,
    replay_reader,
    settle,
    value_of,
)
from bjexact.core.numbers import fraction_string, mpq
from bjexact.core.rules import GameRules
from bjexact.errors import BjexactError
from bjexact.player.game import hand_moves


def cards(text):
    return [card(face) for face in text.split()]


def stacked(*faces, decks=1):
    """A full shoe whose top cards are ``faces`` (dealt player, dealer up, player, dealer hole, ...);
    a face without a suit takes the next suit still free."""
    used = Counter()
    top = []
    for face in faces:
        if face[-1] in SUITS:
            top.append(card(face))
        else:
            suit = next(s for s in SUITS if used[(face, s)] < decks)
            top.append(card(face + suit))
        used[(top[-1].face, top[-1].suit)] += 1
    rest = DealingShoe.full(decks)
    for c in top:
        rest.remove(c)
    random.Random(0).shuffle(rest)
    return DealingShoe(tuple(top + rest), decks)


def plain(text):
    """A transcript without suits: ``10 7`` for ``10♠ 7♥``."""
    return re.sub("[♠♥♦♣]", "", text)


def rules(**options):
    return GameRules(decks=options.pop("decks", 1), **options)


def session(answers, *, shoe=None, advisor=None, log=None, **config):
    """Play a session with scripted answers (echoed after the prompts): (game, transcript)."""
    config.setdefault("hints", False)
    config.setdefault("rules", rules())
    out = []
    feed = iter(answers)

    def read(prompt):
        answer = next(feed, None)
        out.append(prompt.rstrip() if answer is None else prompt + answer)   # as the command line echoes
        return answer

    game = Game(GameConfig(**config), read, out.append, shoe=shoe, advisor=advisor, log=log)
    game.run()
    return game, "\n".join(out)


def play(answers, **kwargs):
    """(final balance, transcript without suits)."""
    game, log = session(answers, **kwargs)
    return game.balance, plain(log)


def unseen_of(shoe_top, seen, decks=1):
    """The counts of a full shoe less the ``seen`` faces."""
    counts = [4 * decks] * 9 + [16 * decks]
    for face in seen:
        counts[card(face).rank - 1] -= 1
    return tuple(counts)


# --- settling -----------------------------------------------------------------------------


@pytest.mark.parametrize("player, dealer, stake, bj_pays, outcome, net", [
    ("A K", "9 7 2", 10, "3/2", "blackjack", 15),
    ("A K", "9 7 2", 5, "3/2", "blackjack", Fraction(15, 2)),
    ("Q A", "10 9", 10, "1", "blackjack", 10),
    ("A K", "K A", 10, "3/2", "push", 0),
    ("7 4 K", "A Q", 10, "3/2", "loss", -10),        # the dealer's natural beats a three-card 21
    ("10 9", "A 10", 10, "3/2", "loss", -10),
    ("10 6 9", "10 6 8", 10, "3/2", "loss", -10),    # a bust player loses even if the dealer busts
    ("10 8", "10 6 8", 10, "3/2", "win", 10),
    ("10 8", "9 9", 10, "3/2", "push", 0),
    ("10 7", "10 8", 7, "3/2", "loss", -7),
    ("3 A 2 6 A", "9 A 3", 10, "3/2", "push", 0),   # hard 13 against hard 13
])
def test_settle(player, dealer, stake, bj_pays, outcome, net):
    result = settle(cards(player), cards(dealer), stake, bj_pays)
    assert (result.outcome, result.net) == (outcome, mpq(Fraction(net)))


def test_a_split_hands_21_is_no_blackjack():
    assert settle(cards("A K"), cards("10 9"), 10, split=True).outcome == "win"
    assert settle(cards("A K"), cards("10 9"), 10, split=True).net == 10
    assert settle(cards("A K"), cards("5 6 10"), 10, split=True).outcome == "push"


def test_ace_values():
    assert (value_of(cards("A 6")).total, value_of(cards("A 6")).soft) == (17, True)
    assert (value_of(cards("A 6 10")).total, value_of(cards("A 6 10")).soft) == (17, False)
    after = value_of(cards("3 A 2 6 A"))
    assert (after.total, after.bust) == (13, False)


def test_cards_and_suits():
    assert card("10♥").label == "10♥" and card("10♥").rank == 10 and card("10♥").red
    assert card("Q").label == "Q♠" and not card("Q").red
    for bad in ("11", "Z♠", "♠", "10x"):
        with pytest.raises(BjexactError):
            card(bad)


# --- the deal, naturals, the dealer ---------------------------------------------------------


def test_ace_cases_in_play():
    balance, log = play(["10", "h", "s", "q"], shoe=stacked("A", "9", "6", "8", "10"))
    assert "You: A 6  (soft 17)" in log and "You draw 10: A 6 10  (17)" in log
    assert "Push" in log and balance == 100


def test_player_natural_pays_bj_pays_without_a_decision():
    balance, log = play(["10", "q"], shoe=stacked("A", "9", "K", "7"))
    assert "? [s/h" not in log and "Blackjack! You win 15" in log and balance == 115
    balance, log = play(["5", "q"], shoe=stacked("A", "9", "K", "7"))
    assert "Balance: 107.5." in log and balance == mpq(215, 2)
    balance, _ = play(["10", "q"], shoe=stacked("A", "9", "K", "7"), rules=rules(bj_pays=1))
    assert balance == 110


def test_dealer_natural_wins_and_both_push():
    balance, log = play(["10", "n", "q"], shoe=stacked("9", "A", "7", "K"))
    assert "? [s/h" not in log and "Dealer: A K  (blackjack)" in log and balance == 90
    balance, log = play(["10", "n", "q"], shoe=stacked("A", "A", "Q", "J"))   # even money declined
    assert "both have blackjack" in log and balance == 100


def test_dealer_peeks_under_an_ace_or_ten():
    _, log = play(["10", "s", "q"], shoe=stacked("9", "10", "7", "5"))
    assert "The dealer checks the hole card: no blackjack." in log
    _, log = play(["10", "s", "q"], shoe=stacked("9", "6", "7", "5"))
    assert "checks the hole card" not in log


def test_dealer_draws_to_17_and_h17():
    _, log = play(["10", "n", "s", "q"], shoe=stacked("10", "A", "8", "6", "2"))
    assert "Dealer draws" not in log and "18 beats 17" in log
    _, log = play(["10", "n", "s", "q"], shoe=stacked("10", "A", "8", "6", "2"), rules=rules(h17=True))
    assert "Dealer draws 2: A 6 2  (soft 19)" in log and "the dealer's 19 beats 18" in log


def test_player_bust_ends_the_hand_and_21_stands_by_itself():
    balance, log = play(["10", "h", "q"], shoe=stacked("10", "7", "6", "9", "K"))
    assert "You draw K: 10 6 K  (bust, 26)" in log and "Dealer draws" not in log and balance == 90
    _, log = play(["10", "h", "q"], shoe=stacked("10", "7", "6", "9", "5"))
    assert "21: you stand." in log and log.count("? [s/h") == 1


# --- stakes, moves and leaving ---------------------------------------------------------------


def test_parse_stake():
    balance = mpq(50)
    assert parse_stake("10", balance) == 10 and parse_stake(" 50 ", balance) == 50
    assert parse_stake("", balance, last=20) == 20
    for bad, message in [("0", "minimum is 1 chip"), ("-5", "negative"), ("51", "only 50"), ("1.5", "whole number"),
                         ("ten", "whole number"), ("", "type a number"), ("²", "whole number")]:
        with pytest.raises(BjexactError, match=message):
            parse_stake(bad, balance)
    with pytest.raises(BjexactError):
        parse_stake("", mpq(15), last=20)   # the last stake is more than the balance now
    assert parse_stake("5", balance, minimum=5, maximum=25) == 5
    with pytest.raises(BjexactError, match="table minimum is 5 chips"):
        parse_stake("4", balance, minimum=5, maximum=25)
    with pytest.raises(BjexactError, match="table maximum is 25 chips"):
        parse_stake("26", balance, minimum=5, maximum=25)


def test_parse_move():
    allowed = ("stand", "hit", "double", "split")
    assert [parse_move(t, allowed) for t in ("h", "HIT", " s ", "Stand", "d", "p", "split", "r", "q", "x", "")] == [
        "hit", "hit", "stand", "stand", "double", "split", "split", None, "quit", None, None]
    assert parse_move("r", ("stand", "hit", "surrender")) == "surrender"


def test_bad_stakes_and_moves_are_asked_again():
    answers = ["abc", "0", "-5", "500", "1.5", "", "10", "x", "p", "s", "q"]
    balance, log = play(answers, shoe=stacked("10", "7", "9", "K"))
    assert log.count("Stake (1-100, q to quit)") == 7
    for message in ("'abc' is not a whole number", "minimum is 1 chip", "cannot be negative",
                    "you have only 100 chips", "'1.5' is not a whole number", "type a number",
                    "Type s (stand), h (hit), d (double) or q to quit."):
        assert message in log
    assert log.count("Stand, hit or double? [s/h/d, q to quit]:") == 3
    assert "You win 10 (19 beats 17)" in log and balance == 110


def test_table_limits():
    balance, log = play(["2", "30", "25", "s", "", "q"], shoe=stacked("10", "7", "9", "K", "10", "7", "9", "K"),
                        min_bet=5, max_bet=25)
    assert "Stake (5-25, q to quit): 2" in log and "the table minimum is 5 chips; try again." in log
    assert "the table maximum is 25 chips; try again." in log and "Stake (5-25, Enter = 25, q to quit):" in log


def test_leaving_mid_hand_loses_the_stake():
    balance, log = play(["10", "q"], shoe=stacked("10", "7", "6", "K"))
    assert "the 10 chips on the table are lost" in log and balance == 90
    assert "Final balance: 90 chips (-10 over 1 hand)." in log
    balance, log = play(["10"], shoe=stacked("10", "7", "6", "K"))      # end of input
    assert "Leaving the table (end of input)." in log and balance == 90


def test_end_of_input_and_ctrl_c_print_the_summary():
    balance, log = play([])
    assert log.endswith("Final balance: 100 chips (+0 over 0 hands).") and balance == 100

    def interrupted(prompt):
        raise KeyboardInterrupt

    out = []
    assert Game(GameConfig(hints=False), interrupted, out.append).run() == 100
    assert out[-3:] == ["Leaving the table (interrupted).", "", "Final balance: 100 chips (+0 over 0 hands)."]


@pytest.mark.parametrize("interrupted_at, balance", [("Dealer draws", 90), ("You win", 110)])
def test_ctrl_c_while_the_dealer_plays_counts_the_stake_once(interrupted_at, balance):
    out, raised = [], []

    def write(line):
        if plain(line).startswith(interrupted_at) and not raised:
            raised.append(line)
            raise KeyboardInterrupt
        out.append(line)

    answers = iter(["10", "s"])
    shoe = stacked("10", "7", "8", "5", "4", "10")   # 18 against 7,5 +4 +10: the dealer busts
    assert Game(GameConfig(hints=False), lambda p: next(answers, None), write, shoe=shoe).run() == balance
    assert raised and out[-2].startswith(f"Final balance: {balance} chips")


def test_config_is_checked():
    for bad in ({"rules": GameRules(decks=9)}, {"rules": GameRules(decks="inf")},
                {"rules": GameRules(shoe=(4,) * 9 + (16,))}, {"chips": 0}, {"chips": 2.5}, {"min_bet": 0},
                {"min_bet": 5, "max_bet": 4}, {"penetration": 0}, {"penetration": mpq(5, 4)},
                {"penetration": "x"}):
        with pytest.raises(BjexactError):
            GameConfig(**bad)


def test_chips_text():
    assert [chips_text(mpq(x)) for x in (95, Fraction(215, 2), Fraction(-3, 4), Fraction(1, 3))] == [
        "95", "107.5", "-0.75", "1/3"]


# --- the shoe -----------------------------------------------------------------------------


def test_shoe_composition_and_seeded_shuffles():
    shoe = DealingShoe.shuffled(2, random.Random(5))
    assert len(shoe.cards) == 104 and shoe.counts == (8,) * 9 + (32,)
    assert Counter(c.label for c in shoe.cards) == Counter({f + s: 2 for f in "A 2 3 4 5 6 7 8 9 10 J Q K".split()
                                                            for s in SUITS})
    assert shoe.cards == DealingShoe.shuffled(2, random.Random(5)).cards
    assert shoe.cards != DealingShoe.shuffled(2, random.Random(6)).cards
    rest = DealingShoe.shuffled(1, random.Random(1), held=cards("A K 5"))
    assert len(rest.cards) == 49 and rest.counts == (3, 4, 4, 4, 3, 4, 4, 4, 4, 15)


def test_penetration():
    shoe = DealingShoe.shuffled(2, random.Random(0))
    cut = DealingShoe(shoe.cards[78:], 2)             # 78 of 104 dealt: exactly 3/4
    assert cut.needs_shuffle(mpq(3, 4)) and not DealingShoe(shoe.cards[77:], 2).needs_shuffle(mpq(3, 4))
    assert not cut.needs_shuffle(mpq(4, 5))
    assert DealingShoe(shoe.cards[85:], 2).needs_shuffle(mpq(1))   # 19 left: under the least cut


def test_the_game_reshuffles_at_the_penetration_and_says_so():
    answers = ["1"] + ["s", "n", ""] * 40
    _, log = play(answers, seed=2, chips=1000, penetration=mpq(1, 2))
    headers = [line for line in log.splitlines() if line.startswith("--- Hand")]
    left = [int(h.split("· ")[2].split()[0]) for h in headers]
    assert re.search(r"Reshuffling the shoe \((2[6-9]|[3-4]\d) of 52 cards dealt\)\.", log)
    assert "the shoe is reshuffled once 50% of it is dealt; exact" in log
    _, log = play([], penetration=mpq(3, 4))
    assert "the shoe is reshuffled once 75% of it is dealt (or fewer than 20 cards are left)" in log
    assert min(left) > 26 and left.count(52) >= 2


def test_empty_shoe_mid_hand_reshuffles_all_but_the_table():
    game = Game(GameConfig(hints=False, seed=3), lambda p: None, [].append)
    game.shoe = DealingShoe((), 1)
    drawn = game.draw(cards("A♠ K♠ 5♠ 5♥"))
    left = [c.rank for c in game.shoe.cards] + [drawn.rank]
    assert tuple(left.count(r) for r in range(1, 11)) == (3, 4, 4, 4, 2, 4, 4, 4, 4, 15)


def test_advice_errors_do_not_stop_the_game():
    def advisor(compute):
        raise BjexactError("the shoe is too small")

    _, log = play(["10", "s", "q"], shoe=stacked("10", "7", "5", "K"), advisor=advisor, hints=True)
    assert "(no exact advice here: the shoe is too small)" in log and "You lose 10" in log


def test_the_spinner_turns_only_past_its_delay_and_wipes_itself():
    import io
    import time

    from bjexact.cli.play import _spinner

    stream = io.StringIO()
    advise = _spinner(stream, after=0.05)
    assert advise(lambda: 7) == 7 and stream.getvalue() == ""
    assert advise(lambda: time.sleep(0.4) or 8) == 8
    text = stream.getvalue()
    assert text.startswith("\r  working out the exact values |") and text.endswith("\r\x1b[K")


def test_hints_off_never_asks_for_advice():
    def advisor(compute):
        raise AssertionError("no advice wanted")

    _, log = play(["10", "s", "q"], shoe=stacked("10", "7", "5", "K"), advisor=advisor, hints=False)
    assert "Exact values" not in log and "Decisions: 1 (advice off: not priced)." in log


# --- the full game, scripted ------------------------------------------------------------------


def _decisions(events):
    return [d for e in events if e["event"] == "hand" for d in e["decisions"]]


def test_split_resplit_and_double_after_split():
    """8,8 against a 6: split, resplit, double the first hand, stand the second, the third busts."""
    events = []
    shoe = stacked("8♠", "6♠", "8♥", "10♠", "8♦", "3♣", "7♣", "2♠", "5♦", "10♥", "9♣")
    game, log = session(["10", "p", "p", "d", "s", "h", "q"], shoe=shoe, hints=True, log=events.append)
    text = plain(log)
    assert "You split: 2 hands. Hand 1 gets 8." in text and "You split: 3 hands. Hand 1 gets 3." in text
    assert "Your hands: ▶1: 8 3  (11)  │  2: 8  │  3: 8" in text
    assert "Hand 1: double and draw 7." in text and "Hand 2 of 3 gets 2." in text
    assert "Hand 3: draw 10." in text and "Dealer draws 9: 6 10 9  (bust, 25)" in text
    assert "Hand 1: You win 20" in text and "Hand 2: You win 10" in text
    assert "Hand 3: You lose 10 (bust with 23)" in text
    assert game.balance == 120
    first, resplit, double, second, third = _decisions(events)
    # each decision's values: the engine's, for a shoe of exactly the cards unseen then (the hole card too)
    moves = hand_moves(GameRules(decks=1), (8, 8), 6)              # the deal: the full deck less 8, 8, 6
    assert first["values"] == {m: fraction_string(moves.value(m)) for m in ("stand", "hit", "double", "split")}
    assert first["best"] == "split" and first["cost"] == "0"
    # the resplit: three more hands' worth of room (4 in all, 2 on the table), the third 8 seen
    unseen = unseen_of(None, ["8", "6", "8", "8"])
    shoe_now = tuple(u + 2 * (r == 8) + (r == 6) for r, u in enumerate(unseen, 1))
    moves = hand_moves(GameRules(shoe=shoe_now, split_hands=3), (8, 8), 6)
    assert resplit["values"] == {m: fraction_string(moves.value(m)) for m in ("stand", "hit", "double", "split")}
    assert resplit["cards"] == ["8♠", "8♦"] and resplit["chosen"] == "split"
    # hand 2 (8,2) after hand 1 drew 3 and 7: no pair, stand, hit, double only
    unseen = unseen_of(None, ["8", "6", "8", "8", "3", "7", "2"])
    moves = hand_moves(GameRules(shoe=tuple(u + (r in (8, 2)) + (r == 6) for r, u in enumerate(unseen, 1)),
                                 split_hands=1), (8, 2), 6)
    assert second["values"] == {m: fraction_string(moves.value(m)) for m in ("stand", "hit", "double")}
    assert (double["hand"], second["hand"], third["hand"]) == (1, 2, 3)
    assert third["cards"] == ["8♥", "5♦"] and third["chosen"] == "hit"


def test_no_double_after_split_and_split_aces_take_one_card():
    _, log = play(["10", "p", "s", "q"], shoe=stacked("8", "6", "8", "10", "3", "2"), rules=rules(das=False))
    assert "Stand or hit? [s/h, q to quit]:" in log and "double" not in log.split("You split")[1]
    balance, log = play(["10", "p", "q"], shoe=stacked("A", "6", "A", "10", "9", "K", "10"))
    assert "Hand 1: split aces take one card each; it stands." in log and "Hand 2: 21, it stands." in log
    assert "Hand 2: You win 10" in log and "Blackjack!" not in log and balance == 120


def test_split_limit_and_chips_limit_the_moves():
    _, log = play(["10", "p", "s", "s", "q"], shoe=stacked("8", "6", "8", "10", "8", "3"), rules=rules(split_hands=2))
    assert "Stand, hit or double? [s/h/d, q to quit]: s" in log      # 8,8 again: no resplit with 2 hands
    _, log = play(["10", "s", "q"], shoe=stacked("8", "6", "8", "10"), chips=15)
    assert "Stand or hit? [s/h, q to quit]: s" in log                 # 5 chips free: no double, no split


def test_late_surrender():
    balance, log = play(["10", "r", "q"], shoe=stacked("10", "10", "6", "7"), rules=rules(surrender="late"))
    assert "Stand, hit, double or surrender? [s/h/d/r, q to quit]: r" in log
    assert "You lose 5 (surrendered, half the bet)." in log and balance == 95


def test_early_surrender_comes_before_the_check():
    surrender = rules(surrender="early")
    balance, log = play(["10", "y", "q"], shoe=stacked("10", "10", "6", "7"), rules=surrender, hints=True)
    assert "Surrender now, before the dealer checks for blackjack? [y/n, q to quit]: y" in log
    assert "surrender  -0.50000  = -1/2   <- best" in log and balance == 95
    # against a dealer blackjack early surrender still saves half the stake
    balance, log = play(["10", "n", "y", "q"], shoe=stacked("10", "A", "6", "K"), rules=surrender)
    assert "Dealer: A K  (blackjack)" in log and "You surrendered: half the stake, 5, is lost." in log
    assert balance == 95
    # declined: the check, then the other moves without surrender
    balance, log = play(["10", "n", "s", "q"], shoe=stacked("10", "10", "6", "7"), rules=surrender)
    assert "Stand, hit or double? [s/h/d, q to quit]: s" in log and balance == 90
    # with a small card up there is no check: surrender is one of the moves
    _, log = play(["10", "r", "q"], shoe=stacked("10", "6", "6", "7"), rules=surrender)
    assert "Stand, hit, double or surrender? [s/h/d/r, q to quit]: r" in log


def test_early_surrender_values_are_unconditional():
    events = []
    session(["10", "n", "q"], shoe=stacked("10", "10", "6", "7"), rules=rules(surrender="early"), hints=True,
            log=events.append)
    offer = _decisions(events)[0]
    unseen = unseen_of(None, ["10", "10", "6"])
    moves = hand_moves(GameRules(decks=1, surrender="early"), (10, 6), 10)
    assert sum(unseen) == 49
    best_other = max(moves.unconditional(m) for m in ("stand", "hit", "double"))
    assert offer["values"] == {"surrender": "-1/2", "play on": fraction_string(best_other)}
    assert offer["kind"] == "early surrender" and offer["cost"] == fraction_string((best_other + mpq(1, 2)) * -10)


def test_insurance_taken_against_a_blackjack_and_lost_otherwise():
    balance, log = play(["10", "y", "q"], shoe=stacked("10", "A", "9", "K"))
    assert "Insurance (5 chips, pays 2:1 if the dealer has blackjack)? [y/n, q to quit]: y" in log
    assert "The insurance pays 2:1: you win 10." in log and "You lose 10 (the dealer has blackjack)." in log
    assert balance == 100
    balance, log = play(["10", "y", "s", "q"], shoe=stacked("10", "A", "9", "5", "3"))
    assert "The dealer has no blackjack: the insurance of 5 is lost." in log
    assert "You win 10 (19 beats 17)" not in log or balance == 105
    assert log.count("insurance of 5 is lost") == 1


def test_insurance_can_be_right_in_a_depleted_shoe():
    """10,9 against an ace with 12 tens among the 21 unseen cards: P(ten) = 4/7, insuring is worth
    (3 x 4/7 - 1) / 2 = 5/14 per chip of the stake (by hand)."""
    top = cards("10♠ A♠ 9♠ 5♠")
    rest = cards("10♥ 10♦ 10♣ J♠ J♥ J♦ J♣ Q♠ Q♥ Q♦ Q♣ K♠ 2♠ 3♠ 4♠ 6♠ 7♠ 8♠ 2♥ 3♥")
    events = []
    game, log = session(["10", "y", "s", "q"], shoe=DealingShoe(tuple(top + rest), 1), hints=True, log=events.append)
    assert "insure        +0.35714  = 5/14   <- best" in log
    assert "no insurance  +0.00000  = 0" in log
    offer = _decisions(events)[0]
    assert offer["values"] == {"insure": "5/14", "no insurance": "0"} and offer["cost"] == "0"
    full_deck = insurance_advice(GameRules(decks=1), (10, 9), unseen_of(None, ["10", "A", "9"]))
    assert full_deck.values["insure"] == mpq(-2, 49)   # 15 tens among 49: (45/49 - 1) / 2


def test_even_money():
    balance, log = play(["10", "y", "q"], shoe=stacked("A", "A", "K", "5"), hints=True)
    # 15 tens among the 49 unseen cards: declining is worth (1 - 15/49) x 3/2 = 51/49
    assert "no even money  +1.04082  = 51/49   <- best" in log and "Even money: you win 10." in log
    assert "Taking even money was not the best move" in log and balance == 110
    balance, log = play(["10", "n", "q"], shoe=stacked("A", "A", "K", "5", "2"))
    assert "Blackjack! You win 15" in log and balance == 115


def test_no_hole_card():
    enhc = rules(hole_card="enhc")
    balance, log = play(["10", "d", "q"], shoe=stacked("5", "10", "6", "9", "A"), rules=enhc)
    assert "Dealer: 10 (no hole card)" in log and "checks" not in log
    assert "Dealer: 10 A  (blackjack)" in log and "You lose 20 (the dealer has blackjack)." in log and balance == 80
    # original bets only: a split against a later blackjack loses the stake alone
    balance, log = play(["10", "p", "s", "s", "q"], shoe=stacked("8", "10", "8", "9", "2", "A"),
                        rules=rules(hole_card="enhc", obo=True))
    assert "only the original stake is lost, OBO" in log and balance == 90


def test_running_out_of_chips_ends_the_session():
    events = []
    game, log = session(["10", "s"], shoe=stacked("10", "10", "6", "7"), chips=10, log=events.append)
    assert "You cannot cover the table minimum of 1 chip." in log and game.balance == 0
    assert events[-1]["event"] == "end" and events[-1]["how"] == "out of chips"
    _, log = session(["12", "s"], shoe=stacked("10", "10", "6", "7"), chips=20, min_bet=10)
    assert "You cannot cover the table minimum of 10 chips." in plain(log)


def test_quitting_in_the_middle_of_a_split_keeps_the_log_whole():
    for leave in (["q"], [], KeyboardInterrupt):
        events, out = [], []
        answers = iter(["10", "p", "s"] + (leave if isinstance(leave, list) else []))

        def read(prompt, answers=answers, leave=leave):
            answer = next(answers, None)
            if answer is None and leave is KeyboardInterrupt:
                raise KeyboardInterrupt
            return answer

        log = [json.dumps(e, ensure_ascii=False) for e in []]
        game = Game(GameConfig(hints=False), read, out.append, shoe=stacked("8", "6", "8", "10", "2", "A"),
                    log=lambda e, log=log, events=events: (events.append(e), log.append(json.dumps(e))))
        assert game.run() == 80
        text = plain("\n".join(out))
        assert "You leave mid-hand: the 20 chips on the table are lost." in text
        assert "Final balance: 80 chips (-20 over 1 hand)." in text
        hand = [e for e in events if e["event"] == "hand"][0]
        assert hand["ended"] == "left" and hand["player"] == [["8♠", "2♠"], ["8♥", "A♠"]] and hand["net"] == "-20"
        assert events[-1]["event"] == "end" and events[-1]["balance"] == "80"
        assert all(json.loads(line) for line in log)


def _replay(lines):
    config, shoes, answers, how = read_log(lines)
    out = []
    game = Game(config, replay_reader(answers, how, out.append), out.append, shoes=iter(shoes))
    game.run()
    return game.balance, "\n".join(out)


@pytest.mark.parametrize("seed", range(6))
def test_random_sessions_add_up_and_replay_the_same(seed):
    choices = random.Random(seed)
    table = rules(decks=2, surrender=("late", "early")[seed % 2], split_hands=(4, 3, 2)[seed % 3], rsa=seed % 3 == 0,
                  hole_card="enhc" if seed == 5 else "peek", h17=seed % 2 == 1)
    if seed == 5:
        table = rules(decks=2, surrender="early", hole_card="enhc", obo=True)
    answers = [str(choices.randint(1, 12))] + [choices.choice(["h", "s", "d", "p", "r", "y", "n", "", "x"])
                                              for _ in range(150)]
    lines = []
    game, log = session(answers, seed=seed, chips=200, rules=table, hints=seed < 2, log=lambda e: lines.append(
        json.dumps(e, ensure_ascii=False)))
    events = [json.loads(line) for line in lines]
    hands = [e for e in events if e["event"] == "hand"]
    assert game.balance == 200 + sum(Fraction(e["net"]) for e in hands)
    assert Fraction(events[-1]["balance"]) == game.balance and events[-1]["hands"] == len(hands)
    costs = [Fraction(d["cost"]) for e in hands for d in e["decisions"] if "cost" in d]
    assert sum(costs) == Fraction(events[-1]["cost"])
    balance, again = _replay(lines)
    assert (balance, again) == (game.balance, log)


def test_replay_through_the_command_line(tmp_path):
    path = tmp_path / "session.jsonl"
    command = [sys.executable, "-m", "bjexact", "play", "--seed", "4", "--decks", "2", "--surrender", "late"]
    first = subprocess.run([*command, "--log", str(path)], input="10\np\ns\ns\n\nd\ns\nq\n", capture_output=True,
                           text=True, timeout=120)
    assert first.returncode == 0 and first.stderr == ""
    again = subprocess.run([sys.executable, "-m", "bjexact", "play", "--replay", str(path)], capture_output=True,
                           text=True, timeout=120)
    assert again.returncode == 0 and again.stdout == f"Replaying {path}.\n" + first.stdout


@pytest.mark.parametrize("text, words", [
    ("", "holds no session"),
    ("not json\n", "line 1: not a play log record"),
    ('{"event": "shuffle", "cards": []}\n', "does not start with the session"),
    ('{"event": "session", "version": 99}\n', "not a play log of version 1"),
    ('{"event": "session", "version": 1}\n', "line 1: not a play log record"),
])
def test_malformed_logs_are_refused(text, words):
    with pytest.raises(BjexactError, match=words):
        read_log(text.splitlines())


def test_a_tampered_shuffle_is_refused():
    lines = []
    session(["10", "s", "q"], seed=1, log=lambda e: lines.append(json.dumps(e, ensure_ascii=False)))
    shuffle = json.loads(lines[1])
    shuffle["cards"][0] = shuffle["cards"][1]
    lines[1] = json.dumps(shuffle, ensure_ascii=False)
    with pytest.raises(BjexactError, match="the log line 2: the shuffle is not 1 deck"):
        _replay(lines)


def test_whole_game_through_stdin():
    answers = "10\nh\ns\n\ns\n20\ns\n\n\nq\n"
    command = [sys.executable, "-m", "bjexact", "play", "--seed", "3", "--hints", "off"]  # 2 decks, as every command
    first = subprocess.run(command, input=answers, capture_output=True, text=True, timeout=60)
    second = subprocess.run(command, input=answers, capture_output=True, text=True, timeout=60)
    assert first.returncode == 0 and first.stderr == "" and first.stdout == second.stdout
    lines = first.stdout.splitlines()
    assert lines[0].startswith("Blackjack: 2 decks, S17, blackjack pays 3/2")
    assert "Stake (1-100, q to quit): 10" in lines and "\x1b[" not in first.stdout   # not a terminal: no colour
    assert any(line.startswith("Final balance: ") for line in lines[-2:])


@pytest.mark.parametrize("args", [["--decks", "0"], ["--decks", "9"], ["--chips", "0"], ["--bj-pays", "x"],
                                  ["--bj-pays", "-1"], ["--min-bet", "0"], ["--min-bet", "5", "--max-bet", "4"],
                                  ["--penetration", "0"], ["--penetration", "1.5"], ["--penetration", "x"],
                                  ["--obo"], ["--rsa", "--split-hands", "2"], ["--replay", "/nonexistent/x"],
                                  ["--log", "/nonexistent/dir/x.jsonl"], ["--replay", "x", "--log", "y"],
                                  ["--min-bet", "200"], ["--chips", "-5"], ["--replay", "x", "--decks", "6"]])
def test_bad_options_exit_2(args):
    done = subprocess.run([sys.executable, "-m", "bjexact", "play", *args], input="", capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    # argument errors name the command (argparse), the others the program
    assert len(done.stderr.strip().splitlines()) == 1 and re.match(r"bjexact( play)?: error:", done.stderr), \
        done.stderr


@pytest.mark.parametrize("args, words", [
    (["--min-bet", "200"], "--min-bet 200 is more than the 100 chips you start with"),
    (["--chips", "-5"], "between 1 and"),
    (["--penetration", "1.5"], "not 1.5"),
    (["--replay", "x", "--decks", "6", "--h17"], "--decks, --h17 cannot change them"),
])
def test_bad_options_name_the_problem(args, words):
    done = subprocess.run([sys.executable, "-m", "bjexact", "play", *args], input="", capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and words in done.stderr, done.stderr


def test_a_replay_says_when_the_logged_values_differ(tmp_path):
    lines = []
    session(["10", "s", "q"], seed=1, hints=True, log=lambda e: lines.append(json.dumps(e, ensure_ascii=False)))
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    same = subprocess.run([sys.executable, "-m", "bjexact", "play", "--replay", str(path)], capture_output=True,
                          text=True, timeout=120)
    assert same.returncode == 0 and "differs" not in same.stdout
    hand = json.loads(lines[2])
    assert hand["event"] == "hand"
    hand["decisions"][0]["values"] = {move: "1/2" for move in hand["decisions"][0]["values"]}
    lines[2] = json.dumps(hand, ensure_ascii=False)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    edited = subprocess.run([sys.executable, "-m", "bjexact", "play", "--replay", str(path)], capture_output=True,
                            text=True, timeout=120)
    assert edited.returncode == 1
    assert edited.stdout.splitlines()[-1].startswith("Hand 1 of the log differs from its replay")


# --- exact advice, independently ---------------------------------------------------------------


def test_advice_is_for_the_unseen_cards_and_bad_moves_are_priced(bf):
    """10,9 against a ten, the dealer peeked: standing's value by brute force over the unseen cards."""
    _, log = play(["10", "h", "q"], shoe=stacked("10", "10", "9", "7", "2"), hints=True)
    unseen = unseen_of(None, ["10", "10", "9"])
    row = bf.dealer_row(tuple(u + (r == 10) for r, u in enumerate(unseen, start=1)), 10, naturals="peek")
    stand = _stand_value(row, 19)
    assert f"stand   {float(stand):+.5f}  = {stand.numerator}/{stand.denominator}   <- best" in log
    assert "Hitting was not the best move: stand was worth" in log


def _stand_value(dealer_row, total):
    """EV of standing on ``total`` (not a natural) against a dealer distribution."""
    value = Fraction(0)
    for outcome, p in dealer_row.items():
        if outcome == "bust" or int(outcome) < total:
            value += p
        elif int(outcome) > total:
            value -= p
    return value




class _Exhausted(Exception):
    """The shoe runs out in some line of play: the case is not a fair test."""


def _brute_advice(cards, upcard, unseen):
    """(stand, hit, double) exact values conditioned on no dealer natural, by enumerating the hole card.

    Own model, independent of bjexact: the hole card and the player's next card are two
    different uniform draws from the unseen cards (the order of dealing does not matter
    for a shuffled deck). Values are first computed as E[payoff; no natural], which the
    best move maximises as well, then divided by P(no natural).
    """
    from functools import cache

    from tests.conftest import value

    natural = {1: 10, 10: 1}.get(upcard)

    def take(rest, rank):
        return tuple(n - (r == rank) for r, n in enumerate(rest, start=1))

    def no_natural(rest):
        return Fraction(1) if natural is None else 1 - Fraction(rest[natural - 1], sum(rest))

    @cache
    def dealer(hand, rest):
        total, _ = value(hand)
        if total > 21:
            return {"bust": Fraction(1)}
        if total >= 17:
            return {total: Fraction(1)}
        if not sum(rest):
            raise _Exhausted
        result = {}
        for rank, n in enumerate(rest, start=1):
            if n:
                for outcome, q in dealer(tuple(sorted(hand + (rank,))), take(rest, rank)).items():
                    result[outcome] = result.get(outcome, 0) + Fraction(n, sum(rest)) * q
        return result

    def stand(hand, rest):
        total, _ = value(hand)
        raw = Fraction(0)
        for hole, n in enumerate(rest, start=1):
            if n and hole != natural:
                for outcome, q in dealer(tuple(sorted((upcard, hole))), take(rest, hole)).items():
                    sign = 1 if outcome == "bust" or outcome < total else (0 if outcome == total else -1)
                    raw += Fraction(n, sum(rest)) * q * sign
        return raw

    def hit(hand, rest):
        raw = Fraction(0)
        for rank, n in enumerate(rest, start=1):
            if n:
                left = take(rest, rank)
                if not sum(left):
                    raise _Exhausted
                after = tuple(sorted(hand + (rank,)))
                future = -no_natural(left) if value(after)[0] > 21 else best(after, left)
                raw += Fraction(n, sum(rest)) * future
        return raw

    @cache
    def best(hand, rest):
        return max(stand(hand, rest), hit(hand, rest))

    def double(hand, rest):
        raw = Fraction(0)
        for rank, n in enumerate(rest, start=1):
            if n:
                left = take(rest, rank)
                after = tuple(sorted(hand + (rank,)))
                bust = value(after)[0] > 21
                raw += Fraction(n, sum(rest)) * (-2 * no_natural(left) if bust else 2 * stand(after, left))
        return raw

    hand = tuple(sorted(cards))
    scale = no_natural(unseen)
    return stand(hand, unseen) / scale, hit(hand, unseen) / scale, double(hand, unseen) / scale




@pytest.mark.parametrize("seed", range(12))
def test_exact_advice_late_in_a_deck_matches_brute_force(seed, bf):
    """Late in a deck (13 to 17 unseen cards), any up-card, the player's two cards as dealt: the values of
    standing, hitting and doubling the game shows equal an enumeration of its own."""
    rng = random.Random(seed)
    deck = [r for r in range(1, 11) for _ in range(16 if r == 10 else 4)]
    while True:
        rng.shuffle(deck)
        player, upcard = deck[:2], deck[2]
        if seed % 3 == 0:
            upcard = (1, 10)[seed % 2]
            if upcard not in deck[3:]:
                continue
            rest = deck[3:]
            rest.remove(upcard)
            rest.append(deck[2])
        else:
            rest = deck[3:]
        unseen_cards = rest[: rng.randint(13, 17)]
        unseen = tuple(unseen_cards.count(r) for r in range(1, 11))
        natural = {1: 10, 10: 1}.get(upcard)
        if sorted(player) == [1, 10] or (natural is not None and unseen[natural - 1] == len(unseen_cards)):
            continue
        try:
            stand, hit, double = _brute_advice(player, upcard, unseen)
        except _Exhausted:
            continue
        break
    advice = move_advice(GameRules(decks=1, split_hands=1), tuple(player), upcard, unseen, ["stand", "hit", "double"])
    assert {m: bf.as_fraction(v) for m, v in advice.values.items()} == {"stand": stand, "hit": hit, "double": double}
    assert advice.best == max(("stand", stand), ("hit", hit), ("double", double), key=lambda m: m[1])[0]


def test_advice_best_and_cost():
    advice = Advice({"stand": mpq(-1, 3), "hit": mpq(1, 7), "double": mpq(1, 7)})
    assert advice.best == "hit" and advice.cost("double") == 0 and advice.cost("stand") == mpq(10, 21)


def test_split_aces_that_may_be_hit_double_only_with_double_split_aces():
    # A,A v 6 split; hand 1 gets a 4 (soft 15): stand or hit, and double only with double_split_aces
    faces = ("A", "6", "A", "10", "4", "9")
    _, log = play(["10", "p", "s", "s", "q"], shoe=stacked(*faces), rules=rules(hit_split_aces=True))
    after = log.split("You split")[1]
    assert "Stand or hit? [s/h, q to quit]: s" in after and "double" not in after
    _, log = play(["10", "p", "s", "s", "q"], shoe=stacked(*faces),
                  rules=rules(hit_split_aces=True, double_split_aces=True))
    assert "Stand, hit or double? [s/h/d, q to quit]: s" in log.split("You split")[1]


# --- rules simulators offer: doubling after hitting, Charlie ------------------------------


def test_settle_a_charlie():
    """A five-card Charlie wins 1:1 against a dealer 20, but not against a dealer blackjack."""
    won = settle(cards("2 3 2 4 5"), cards("10 Q"), 10, charlie=5)
    assert (won.outcome, won.net, won.reason) == ("win", mpq(10), "a 5-card Charlie")
    assert settle(cards("2 3 2 4 5"), cards("10 Q"), 10).outcome == "loss"           # no Charlie rule: 16 v 20
    assert settle(cards("2 3 2 4 5"), cards("A Q"), 10, charlie=5).outcome == "loss"


def test_a_charlie_stops_the_hand_and_wins():
    """2,3 against a 10: hit to five cards (2 3 2 2 4, 13) and the hand stops, winning against the dealer's 20."""
    balance, log = play(["10", "h", "h", "h", "q"], shoe=stacked("2", "10", "3", "Q", "2", "2", "4", "5"),
                        rules=rules(charlie=5))
    assert "5-card Charlie: it wins, unless the dealer has blackjack." in log
    assert "You win 10 (a 5-card Charlie)" in log and balance == 110
    assert "Dealer draws" not in log


def test_doubling_after_hitting_is_offered_only_with_the_rule():
    """2,3 against a 6, hit a 5: ten with three cards doubles only with double_after_hit, and the double wins 2."""
    shoe = stacked("2", "6", "3", "10", "5", "10", "9")
    _, log = play(["10", "h", "s", "q"], shoe=shoe)
    assert "Stand or hit? [s/h, q to quit]: s" in log
    balance, log = play(["10", "h", "d", "q"], shoe=shoe, rules=rules(double_after_hit=True))
    assert "Stand, hit or double? [s/h/d, q to quit]: d" in log and "You double and draw 10" in log
    assert "You win 20 (the dealer busts with 25)" in log and balance == 120
