"""The console game: settling, the ace cases, stakes, whole games with a seed, exact advice."""

from __future__ import annotations

import random
import subprocess
import sys
from fractions import Fraction

import pytest

from bjexact.apps.game import (
    FACES,
    Advice,
    DealingShoe,
    Game,
    GameConfig,
    card,
    chips_text,
    exact_advice,
    parse_move,
    parse_stake,
    settle,
    value_of,
)
from bjexact.core.numbers import fraction_string, mpq
from bjexact.errors import BjexactError


def cards(text):
    return [card(face) for face in text.split()]


def stacked(*faces, decks=1):
    """A full shoe whose top cards are ``faces`` (dealt player, dealer up, player, dealer hole, ...)."""
    top = [card(f) for f in faces]
    rest = [card(f) for f in FACES for _ in range(4 * decks)]
    for c in top:
        rest.remove(c)
    random.Random(0).shuffle(rest)
    return DealingShoe(tuple(top + rest), decks)


def play(answers, *, shoe=None, advisor=None, **config):
    """Play a session with scripted answers; return (final balance, transcript)."""
    config.setdefault("hints", False)
    out = []
    feed = iter(answers)

    def read(prompt):
        answer = next(feed, None)
        out.append(prompt + ("" if answer is None else answer))
        return answer

    kwargs = {} if advisor is None else {"advisor": advisor}
    balance = Game(GameConfig(**config), read, out.append, shoe=shoe, **kwargs).run()
    return balance, "\n".join(out)


# --- settling -----------------------------------------------------------------------------


@pytest.mark.parametrize("player, dealer, stake, bj_pays, outcome, net", [
    ("A K", "9 7 2", 10, "3/2", "blackjack", 15),
    ("A K", "9 7 2", 5, "3/2", "blackjack", Fraction(15, 2)),
    ("Q A", "10 9", 10, "1", "blackjack", 10),
    ("A K", "K A", 10, "3/2", "push", 0),
    ("A J", "7 4 K", 10, "3/2", "blackjack", 15),    # a three-card 21 is no natural
    ("7 4 K", "A Q", 10, "3/2", "loss", -10),        # the dealer's natural beats a three-card 21
    ("10 9", "A 10", 10, "3/2", "loss", -10),
    ("10 6 9", "10 6 8", 10, "3/2", "loss", -10),    # a bust player loses even if the dealer busts
    ("10 8", "10 6 8", 10, "3/2", "win", 10),
    ("10 8", "9 9", 10, "3/2", "push", 0),
    ("10 9", "10 8", 7, "3/2", "win", 7),
    ("10 7", "10 8", 7, "3/2", "loss", -7),
    ("3 A 2 6 A", "9 A 3", 10, "3/2", "push", 0),   # hard 13 against hard 13 (settle only compares)
])
def test_settle(player, dealer, stake, bj_pays, outcome, net):
    result = settle(cards(player), cards(dealer), stake, bj_pays)
    assert result.outcome == outcome
    assert result.net == mpq(Fraction(net))


def test_settle_tie_at_soft_and_hard_totals():
    assert settle(cards("10 8"), cards("9 A"), 10).outcome == "loss"  # 18 against 20
    assert settle(cards("A 7"), cards("10 8"), 10).outcome == "push"  # soft 18 against 18


# --- the ace cases of the student project ---------------------------------------------------


def test_ace_values():
    assert (value_of(cards("A 6")).total, value_of(cards("A 6")).soft) == (17, True)
    assert (value_of(cards("A 6 10")).total, value_of(cards("A 6 10")).soft) == (17, False)
    assert value_of(cards("3 A 2 6")).total == 12
    after = value_of(cards("3 A 2 6 A"))
    assert (after.total, after.bust) == (13, False)
    assert value_of(cards("A A")).total == 12 and value_of(cards("A A K")).total == 12


def test_ace_cases_in_play():
    # A,6 then 10 -> hard 17; the dealer's 9,8 = 17 -> push
    balance, log = play(["10", "h", "s", "q"], shoe=stacked("A", "9", "6", "8", "10"))
    assert "You: A 6  (soft 17)" in log and "You draw 10: A 6 10  (17)" in log
    assert "Push" in log and balance == 100
    # 3,A then 2 and 6 -> 12; then an ace -> 13, not a bust; the dealer's 10,7 beats it
    balance, log = play(["10", "h", "h", "h", "s", "q"], shoe=stacked("3", "10", "A", "7", "2", "6", "A"))
    assert "You draw 6: 3 A 2 6  (12)" in log
    assert "You draw A: 3 A 2 6 A  (13)" in log
    assert "the dealer's 17 beats your 13" in log and balance == 90


# --- naturals are settled before the player acts --------------------------------------------


def test_player_natural_pays_bj_pays_without_a_decision():
    balance, log = play(["10", "q"], shoe=stacked("A", "9", "K", "7"))
    assert "Hit or stand" not in log
    assert "Blackjack! You win 15" in log and balance == 115
    balance, log = play(["5", "q"], shoe=stacked("A", "9", "K", "7"))
    assert "Balance: 107.5." in log and balance == mpq(215, 2)
    balance, _ = play(["10", "q"], shoe=stacked("A", "9", "K", "7"), bj_pays=1)
    assert balance == 110


def test_dealer_natural_wins_and_both_push():
    balance, log = play(["10", "q"], shoe=stacked("9", "A", "7", "K"))
    assert "Hit or stand" not in log and "Dealer: A K  (blackjack)" in log and balance == 90
    balance, log = play(["10", "q"], shoe=stacked("A", "A", "Q", "J"))
    assert "Hit or stand" not in log and "both have blackjack" in log and balance == 100


def test_dealer_peeks_under_an_ace_or_ten():
    _, log = play(["10", "s", "q"], shoe=stacked("9", "A", "7", "5"))
    assert "The dealer checks the hole card: no blackjack." in log
    _, log = play(["10", "s", "q"], shoe=stacked("9", "6", "7", "5"))
    assert "checks the hole card" not in log


def test_dealer_draws_to_17_and_h17():
    # the dealer's A,6 is soft 17: stands (S17) or draws (H17)
    _, log = play(["10", "s", "q"], shoe=stacked("10", "A", "8", "6", "2"))
    assert "Dealer draws" not in log and "18 beats 17" in log
    _, log = play(["10", "s", "q"], shoe=stacked("10", "A", "8", "6", "2"), h17=True)
    assert "Dealer draws 2: A 6 2  (soft 19)" in log and "the dealer's 19 beats your 18" in log


def test_player_bust_ends_the_hand_and_21_stands_by_itself():
    balance, log = play(["10", "h", "q"], shoe=stacked("10", "7", "6", "9", "K"))
    assert "You draw K: 10 6 K  (bust, 26)" in log and "Dealer draws" not in log and balance == 90
    _, log = play(["10", "h", "q"], shoe=stacked("10", "7", "6", "9", "5"))
    assert "21: you stand." in log and log.count("Hit or stand") == 1


# --- stakes, moves and leaving ---------------------------------------------------------------


def test_parse_stake():
    balance = mpq(50)
    assert parse_stake("10", balance) == 10 and parse_stake(" 50 ", balance) == 50
    assert parse_stake("", balance, last=20) == 20
    for bad, message in [("0", "at least 1"), ("-5", "negative"), ("51", "only 50"), ("1.5", "whole number"),
                         ("ten", "whole number"), ("", "type a number"), ("1e3", "whole number"),
                         ("²", "whole number"), ("5_0", "whole number")]:
        with pytest.raises(BjexactError, match=message):
            parse_stake(bad, balance)
    with pytest.raises(BjexactError):
        parse_stake("", mpq(15), last=20)   # the last stake is more than the balance now


def test_parse_move():
    assert [parse_move(t) for t in ("h", "HIT", " s ", "Stand", "q", "x", "")] == [
        "hit", "hit", "stand", "stand", "quit", None, None]


def test_bad_stakes_are_refused_and_asked_again():
    answers = ["abc", "0", "-5", "500", "1.5", "", "10", "s", "q"]
    balance, log = play(answers, shoe=stacked("10", "7", "9", "K"))
    assert log.count("Stake (1-100, q to quit)") == 7
    for message in ("'abc' is not a whole number", "at least 1 chip", "cannot be negative",
                    "you have only 100 chips", "'1.5' is not a whole number", "type a number"):
        assert message in log
    assert "You win 10 (19 beats 17)" in log and balance == 110


def test_unknown_move_is_asked_again():
    _, log = play(["10", "x", "s", "q"], shoe=stacked("10", "7", "9", "K"))
    assert "Type h to hit, s to stand or q to quit." in log and log.count("Hit or stand") == 2


def test_leaving_mid_hand_loses_the_stake_and_prints_the_balance():
    balance, log = play(["10", "q"], shoe=stacked("10", "7", "6", "K"))
    assert "the stake of 10 is lost" in log and balance == 90
    assert log.endswith("Final balance: 90 chips (-10 over 1 hand).")
    balance, log = play(["10"], shoe=stacked("10", "7", "6", "K"))      # end of input
    assert "Leaving the table (end of input)." in log and balance == 90


def test_end_of_input_and_ctrl_c_print_the_final_balance():
    balance, log = play([])
    assert log.endswith("Final balance: 100 chips (+0 over 0 hands).") and balance == 100

    def interrupted(prompt):
        raise KeyboardInterrupt

    out = []
    assert Game(GameConfig(hints=False), interrupted, out.append).run() == 100
    assert out[-2:] == ["Leaving the table (interrupted).", "Final balance: 100 chips (+0 over 0 hands)."]


@pytest.mark.parametrize("interrupted_at, balance", [("Dealer draws", 90), ("You win", 110)])
def test_ctrl_c_while_the_dealer_plays_counts_the_stake_once(interrupted_at, balance):
    out, raised = [], []

    def write(line):
        if line.startswith(interrupted_at) and not raised:
            raised.append(line)
            raise KeyboardInterrupt
        out.append(line)

    answers = iter(["10", "s"])
    shoe = stacked("10", "7", "8", "5", "4", "10")   # 18 against 7,5 +4 +10: the dealer busts
    assert Game(GameConfig(hints=False), lambda p: next(answers, None), write, shoe=shoe).run() == balance
    assert raised and out[-1].startswith(f"Final balance: {balance} chips")


def test_broke_player_leaves():
    balance, log = play(["1", "s"], shoe=stacked("10", "7", "6", "K"), chips=1)
    assert "You cannot cover the smallest stake of 1 chip." in log and balance == 0


def test_config_is_checked():
    for bad in ({"decks": 0}, {"decks": 9}, {"chips": 0}, {"chips": 2.5}, {"bj_pays": "-1"}):
        with pytest.raises(BjexactError):
            GameConfig(**bad)


def test_chips_text():
    assert [chips_text(mpq(x)) for x in (95, Fraction(215, 2), Fraction(-3, 4), Fraction(1, 3))] == [
        "95", "107.5", "-0.75", "1/3"]


# --- the shoe -----------------------------------------------------------------------------


def test_shoe_composition_and_seeded_shuffles():
    shoe = DealingShoe.shuffled(2, random.Random(5))
    assert len(shoe.cards) == 104 and shoe.counts == (8,) * 9 + (32,)
    assert shoe.cards == DealingShoe.shuffled(2, random.Random(5)).cards
    assert shoe.cards != DealingShoe.shuffled(2, random.Random(6)).cards
    held = cards("A K 5")
    rest = DealingShoe.shuffled(1, random.Random(1), held=held)
    assert len(rest.cards) == 49 and rest.counts == (3, 4, 4, 4, 3, 4, 4, 4, 4, 15)


def _most_cards_a_hand_can_use(decks):
    """1 + the most cards of the shoe whose values (aces 1) add up to at most 21 + 16: smallest first."""
    budget, used = 21 + 16, 0
    for rank in range(1, 11):
        for _ in range(4 * decks * (4 if rank == 10 else 1)):
            if budget < rank:
                return used + 1
            budget -= rank
            used += 1
    return used + 1


@pytest.mark.parametrize("decks", range(1, 9))
def test_the_cut_leaves_more_cards_than_a_hand_can_use(decks):
    shoe = DealingShoe.shuffled(decks, random.Random(0))
    assert shoe.cut >= _most_cards_a_hand_can_use(decks) and shoe.cut >= shoe.size // 4
    assert _most_cards_a_hand_can_use(1) == 16 and _most_cards_a_hand_can_use(8) == 35


def test_advice_errors_do_not_stop_the_game():
    def advisor(*args):
        raise BjexactError("the shoe is too small")

    _, log = play(["10", "s", "q"], shoe=stacked("10", "7", "5", "K"), advisor=advisor, hints=True)
    assert "(no exact advice for this hand: the shoe is too small)" in log and "You lose 10" in log


def test_empty_shoe_mid_hand_reshuffles_all_but_the_table():
    game = Game(GameConfig(hints=False, seed=3), lambda p: None, [].append)
    game.shoe = DealingShoe((), 1)
    table = cards("A K 5 5")
    drawn = game.draw(table)
    left = [c.rank for c in game.shoe.cards] + [drawn.rank]
    assert len(left) == 48
    assert tuple(left.count(r) for r in range(1, 11)) == (3, 4, 4, 4, 2, 4, 4, 4, 4, 15)


def test_reshuffle_when_the_shoe_runs_low():
    answers = ["1"] + ["s", ""] * 40
    _, log = play(answers, seed=2, chips=1000)
    headers = [line for line in log.splitlines() if line.startswith("--- Hand")]
    counts = [int(h.split("· ")[2].split()[0]) for h in headers]
    assert "Reshuffling the shoe." in log
    assert min(counts) >= 20 and counts.count(52) >= 2
    assert all(later < earlier or later == 52 for earlier, later in zip(counts, counts[1:], strict=False))


# --- whole games with a seed ------------------------------------------------------------------


def _settled_nets(log):
    """Sum of the amounts the transcript says were won and lost."""
    total = Fraction(0)
    for line in log.splitlines():
        if line.startswith(("You win", "Blackjack! You win")):
            total += Fraction(line.split(" win ")[1].split(" ")[0])
        elif line.startswith("You lose"):
            total -= Fraction(line.split("You lose ")[1].split(" ")[0])
        elif "is lost" in line:
            total -= Fraction(line.split("stake of ")[1].split(" ")[0])
    return total


@pytest.mark.parametrize("seed", range(8))
def test_seeded_games_are_reproducible_and_add_up(seed):
    moves = random.Random(seed)
    answers = [str(moves.randint(1, 12))] + [moves.choice(["h", "s", "s", ""]) for _ in range(120)]
    balance, log = play(answers, seed=seed, chips=100)
    again, log_again = play(answers, seed=seed, chips=100)
    assert (balance, log) == (again, log_again)
    assert balance == 100 + _settled_nets(log)
    assert log.splitlines()[-1].startswith(f"Final balance: {chips_text(balance)} chips")


def test_whole_game_through_stdin():
    answers = "10\nh\ns\n\ns\n20\ns\n\n\nq\n"
    command = [sys.executable, "-m", "bjexact", "play", "--seed", "3", "--hints", "off"]
    first = subprocess.run(command, input=answers, capture_output=True, text=True, timeout=60)
    second = subprocess.run(command, input=answers, capture_output=True, text=True, timeout=60)
    assert first.returncode == 0 and first.stderr == ""
    assert first.stdout == second.stdout
    lines = first.stdout.splitlines()
    assert lines[0].startswith("Blackjack, 1 deck: dealer stands on soft 17, blackjack pays 3/2")
    assert "Stake (1-100, q to quit): 10" in lines            # answers are echoed after the prompts
    assert lines[-1].startswith("Final balance: ")
    balance = Fraction(lines[-1].split()[2])
    assert balance == 100 + _settled_nets(first.stdout)


@pytest.mark.parametrize("args", [["--decks", "0"], ["--chips", "0"], ["--bj-pays", "x"],
                                  ["--bj-pays", "-1"]])
def test_bad_options_exit_2(args):
    done = subprocess.run([sys.executable, "-m", "bjexact", "play", *args], input="", capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and done.stderr.startswith("bjexact: error:")


# --- exact advice -----------------------------------------------------------------------------


def test_advice_is_shown_and_bad_moves_are_priced():
    fixed = Advice(stand=mpq(-1, 3), hit=mpq(1, 7), best="hit", dealer={"17": mpq(1, 2), "bust": mpq(1, 2)})
    seen = []

    def advisor(rules, player, upcard, unseen):
        seen.append((player, upcard, unseen))
        return fixed

    _, log = play(["10", "s", "q"], shoe=stacked("10", "7", "5", "K"), advisor=advisor, hints=True)
    # the unseen cards: the whole deck but the player's two and the up-card (the hole card is unseen)
    assert seen == [((10, 5), 7, (4, 4, 4, 4, 3, 4, 3, 4, 4, 15))]
    assert "Dealer with 7 up, if you stand now: 17 50.00%  bust 50.00%" in log
    assert "stand  -0.33333  = -1/3" in log and "hit    +0.14286  = 1/7   <- best" in log
    cost = mpq(1, 7) + mpq(1, 3)
    assert f"to hit was worth +0.47619 more per chip\n  (exact {fraction_string(cost)}), 4.762 chips" in log
    _, log = play(["10", "h", "s", "q"], shoe=stacked("10", "7", "5", "K", "2"), advisor=advisor, hints=True)
    assert "was not the best move" not in log.split("You draw")[0]
    # after the hit, the 2 is no longer unseen
    assert seen[-1] == ((10, 5, 2), 7, (4, 3, 4, 4, 3, 4, 3, 4, 4, 15))


def test_hints_off_never_asks_for_advice():
    def advisor(*args):
        raise AssertionError("no advice wanted")

    _, log = play(["10", "s", "q"], shoe=stacked("10", "7", "5", "K"), advisor=advisor, hints=False)
    assert "Expected value" not in log


def _stand_value(dealer_row, total):
    """EV of standing on ``total`` (not a natural) against a dealer distribution."""
    value = Fraction(0)
    for outcome, p in dealer_row.items():
        if outcome == "bust" or int(outcome) < total:
            value += p
        elif int(outcome) > total:
            value -= p
    return value


def test_exact_advice_matches_brute_force(bf):
    """10,10 against a 6 and 10,9 against a ten, from the full deck, checked by own enumeration."""
    deck = [4] * 9 + [16]
    rules = GameConfig(decks=1).rules
    # 10,10 v 6: standing is 20 against the dealer; hitting only survives with an ace (hard 21)
    unseen = list(deck)
    unseen[9] -= 2
    unseen[5] -= 1
    advice = exact_advice(rules, (10, 10), 6, tuple(unseen))
    row = bf.dealer_row(tuple(u + (r == 6) for r, u in enumerate(unseen, start=1)), 6)
    assert bf.as_fraction(advice.stand) == _stand_value(row, 20)
    assert {o: bf.as_fraction(p) for o, p in advice.dealer.items() if p} == row
    after_ace = list(unseen)
    after_ace[0] -= 1
    row_21 = bf.dealer_row(tuple(u + (r == 6) for r, u in enumerate(after_ace, start=1)), 6)
    p_ace = Fraction(unseen[0], sum(unseen))
    assert bf.as_fraction(advice.hit) == p_ace * _stand_value(row_21, 21) - (1 - p_ace)
    assert advice.best == "stand"
    # 10,9 v ten: conditioned on no dealer natural (the dealer peeked)
    unseen = list(deck)
    unseen[9] -= 3
    unseen[8] -= 1
    advice = exact_advice(rules, (10, 9), 10, tuple(unseen))
    row = bf.dealer_row(tuple(u + (r == 10) for r, u in enumerate(unseen, start=1)), 10, naturals="peek")
    assert bf.as_fraction(advice.stand) == _stand_value(row, 19)
    assert {o: bf.as_fraction(p) for o, p in advice.dealer.items() if p} == row


def test_real_advice_in_a_game(bf):
    """The numbers a person sees are the engine's exact values for the cards they have not seen."""
    _, log = play(["10", "h", "q"], shoe=stacked("10", "6", "K", "9", "2"), hints=True)
    unseen = [4] * 9 + [14]
    unseen[5] -= 1
    row = bf.dealer_row(tuple(u + (r == 6) for r, u in enumerate(unseen, start=1)), 6)
    stand = _stand_value(row, 20)
    assert stand > 0
    assert f"stand  +{float(stand):.5f}  = {stand.numerator}/{stand.denominator}   <- best" in log
    assert "Hitting was not the best move: to stand was worth" in log


class _Exhausted(Exception):
    """The shoe runs out in some line of play: the case is not a fair test."""


def _brute_advice(cards, upcard, unseen):
    """(stand, hit) exact values conditioned on no dealer natural, by enumerating the hole card.

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

    hand = tuple(sorted(cards))
    return stand(hand, unseen) / no_natural(unseen), hit(hand, unseen) / no_natural(unseen)


@pytest.mark.parametrize("seed", range(12))
def test_exact_advice_after_several_cards_matches_brute_force(seed, bf):
    """Late in a deck (13 to 17 unseen cards), any up-card, the player's cards as dealt."""
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
            stand, hit = _brute_advice(player, upcard, unseen)
        except _Exhausted:
            continue
        break
    advice = exact_advice(GameConfig(decks=1).rules, tuple(player), upcard, unseen)
    assert (bf.as_fraction(advice.stand), bf.as_fraction(advice.hit)) == (stand, hit)
    assert advice.best == ("hit" if hit > stand else "stand")
