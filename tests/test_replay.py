"""Stacked-deck replay: the contest examples, restoring the deck, unsettled ends, brute force."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bjexact.apps.replay import parse_deck, replay, replay_lines, replay_text
from bjexact.cli import main
from bjexact.errors import BjexactError


def ranks(hand):
    return [c.rank for c in hand]


# --- the problem's examples ---------------------------------------------------------------


def test_q_6_4_9_10_wins_standing_on_14():
    result = replay("Q 6 4 9 10")
    assert result.can_win and result.hits == 0
    first = result.tries[0]
    assert [c.label for c in first.player] == ["Q", "4"] and first.player_value.total == 14
    assert [c.label for c in first.dealer] == ["6", "9", "10"] and first.dealer_value.total == 25
    assert (first.result, first.reason) == ("win", "dealer busts")
    # taking the 10 busts the player; nothing more is tried
    assert len(result.tries) == 2
    assert result.tries[1].result == "loss" and result.tries[1].player_value.total == 24


def test_10_3_4_k_3_5_cannot_win():
    result = replay("10 3 4 K 3 5")
    assert not result.can_win and result.hits is None
    rows = [(t.hits, ranks(t.player), t.player_value.total, ranks(t.dealer), t.dealer_value.total, t.result)
            for t in result.tries]
    assert rows == [
        (0, [10, 4], 14, [3, 10, 3, 5], 21, "loss"),
        # the dealer starts again from 3, K: the 3 drawn in the first alternative is the player's now
        (1, [10, 4, 3], 17, [3, 10, 5], 18, "loss"),
        (2, [10, 4, 3, 5], 22, [3, 10], 13, "loss"),
    ]


def test_unsettled_alternatives_are_never_wins():
    # the dealer (3, K = 13) must draw but the deck is done: no alternative is settled
    result = replay("10 3 4 K 3")
    assert [t.result for t in result.tries] == ["unsettled", "unsettled"]
    assert not result.can_win
    # the player is ahead (19, then 21, against the dealer's 15 and 13) but the dealer must still draw
    result = replay("10 3 9 K 2")
    assert [(t.player_value.total, t.dealer_value.total, t.result) for t in result.tries] == [
        (19, 15, "unsettled"), (21, 13, "unsettled")]
    assert result.hits is None


def test_later_win_found_and_smallest_k_reported():
    # player 10,5 vs dealer 10,7: standing on 15 loses; 10,5,4 = 19 (dealer at 17 stands) wins;
    # 10,5,4,2 = 21 wins too, but the smallest k is 1
    result = replay("10 10 5 7 4 2 9")
    assert [t.result for t in result.tries] == ["loss", "win", "win", "loss"]
    assert result.hits == 1


def test_ace_is_reevaluated_after_every_card():
    # player A,6 = soft 17; + 10 -> hard 17, not a bust; + A -> 18; dealer 10,7 stands
    result = replay("A 10 6 7 10 A 3")
    values = [(t.player_value.total, t.player_value.soft) for t in result.tries]
    assert values == [(17, True), (17, False), (18, False), (21, False), (31, False)][: len(values)]
    assert [t.result for t in result.tries[:4]] == ["win", "win", "win", "win"]  # ties go to the player


def test_tie_rules_and_h17():
    # player 10,8 = 18 vs dealer A,6 = soft 17 then a 2
    assert replay("10 A 8 6 2").tries[0].result == "win"
    h17 = replay("10 A 8 6 2", h17=True).tries[0]
    assert [c.rank for c in h17.dealer] == [1, 6, 2] and h17.dealer_value.total == 19 and h17.result == "loss"
    # a tie at 18
    assert replay("10 10 8 8").tries[0].result == "win"
    assert replay("10 10 8 8", ties="dealer").tries[0].result == "loss"
    assert replay("10 10 8 8", ties="push").tries[0].result == "push"
    assert replay("10 10 8 8", ties="push").hits is None
    assert replay("10 10 8 8", ties="casino").tries[0].result == "push"


def test_two_naturals_tie_under_the_contest_rule_and_push_in_a_casino():
    # player A,T and dealer K,A: the contest sees a tie of 21s, which goes to the player
    contest = replay("A K T A").tries[0]
    assert (contest.result, contest.reason) == ("win", "tie goes to the player, the contest's rule")
    assert "the contest's rule" in replay_text(replay("A K T A"))
    casino = replay("A K T A", ties="casino")
    assert [(t.result, t.reason) for t in casino.tries] == [("push", "two naturals push")]
    assert casino.hits is None and "the contest's rule" not in replay_text(casino)
    # a player natural beats a dealer's 21 of three cards (10 + 5 + 6) in a casino, ties it in the contest
    assert replay("A T T 5 6").tries[0].result == "win" and replay("A T T 5 6").tries[0].reason.startswith("tie")
    natural = replay("A T T 5 6", ties="casino").tries[0]
    assert (natural.result, natural.reason, len(natural.dealer)) == ("win", "player natural", 2)
    # a dealer natural ends the deal: every number of extra cards loses, though 9,2 + 10 = 21 would tie
    dealer = replay("9 A 2 T T", ties="casino")
    assert [(t.result, t.reason) for t in dealer.tries] == [("loss", "dealer natural")] * 2
    assert replay("9 A 2 T T").tries[1].result == "win"  # the contest: 21 against 21, a tie to the player


# --- input --------------------------------------------------------------------------------


def test_cards_in_any_case_with_suits_and_commas():
    deck = parse_deck("qs,6h 4D  9c,10s t a")
    assert [c.label for c in deck] == ["QS", "6H", "4D", "9C", "10S", "T", "A"]
    assert [c.rank for c in deck] == [10, 6, 4, 9, 10, 10, 1]
    assert replay("qs,6h 4D  9c,10s").hits == 0


def test_unknown_card_names_card_and_position():
    with pytest.raises(BjexactError, match=r"'X' at position 3"):
        parse_deck("Q 6 X 9")
    with pytest.raises(BjexactError, match="at least 4 cards"):
        replay("Q 6 4")


def test_lines_skip_blanks_and_comments_and_name_the_bad_line():
    lines = ["# decks from the problem", "", "Q 6 4 9 10   # wins", "   ", "10 3 4 K 3 5"]
    results = replay_lines(lines)
    assert [r.hits for r in results] == [0, None]
    with pytest.raises(BjexactError, match=r"decks.txt, line 3: unknown card '1O' at position 2"):
        replay_lines(["Q 6 4 9 10", "# c", "10 1O 4"], source="decks.txt")


# --- brute force --------------------------------------------------------------------------


def brute_total(cards):
    """Independent ace rule: the sum with aces as 1, plus 10 if an ace fits as 11."""
    total = sum(cards)
    if 1 in cards and total + 10 <= 21:
        return total + 10, True
    return total, False


def brute_force(deck, h17=False, ties="player"):
    """(result per k) by direct simulation: a list of 'win'/'loss'/'push'/'unsettled'."""
    outcome = []
    k = 0
    while 4 + k <= len(deck):
        player = [deck[0], deck[2]] + deck[4:4 + k]
        p, _ = brute_total(player)
        if ties == "casino":  # naturals settle at once: nobody draws
            player_natural = k == 0 and sorted(player) == [1, 10]
            dealer_natural = sorted([deck[1], deck[3]]) == [1, 10]
            if player_natural or dealer_natural:
                outcome.append("push" if player_natural and dealer_natural else
                               "win" if player_natural else "loss")
                if p > 21:
                    break
                k += 1
                continue
        if p > 21:
            outcome.append("loss")
            break
        rest = list(deck[4 + k:])
        dealer = [deck[1], deck[3]]
        while True:
            d, soft = brute_total(dealer)
            if d > 17 or (d == 17 and not (h17 and soft)):
                break
            if not rest:
                break
            dealer.append(rest.pop(0))
        d, soft = brute_total(dealer)
        if d < 17 or (d == 17 and h17 and soft):
            outcome.append("unsettled")
        elif d > 21 or p > d:
            outcome.append("win")
        elif p < d:
            outcome.append("loss")
        else:
            outcome.append({"player": "win", "dealer": "loss", "push": "push", "casino": "push"}[ties])
        k += 1
    return outcome


FULL_DECK = [r for r in range(1, 11) for _ in range(16 if r == 10 else 4)]


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), length=st.integers(4, 14), h17=st.booleans(),
       ties=st.sampled_from(["player", "dealer", "push", "casino"]))
def test_matches_brute_force_on_random_decks(seed, length, h17, ties):
    deck = random.Random(seed).sample(FULL_DECK, length)
    text = " ".join("A" if r == 1 else str(r) for r in deck)
    result = replay(text, h17=h17, ties=ties)
    expected = brute_force(deck, h17, ties)
    assert [t.result for t in result.tries] == expected
    assert result.can_win == ("win" in expected)
    assert result.hits == (expected.index("win") if "win" in expected else None)
    for t in result.tries:
        # each alternative starts from the original deck: the player's extra cards are the next
        # k cards, the dealer draws the ones right after them
        assert ranks(t.player) == [deck[0], deck[2]] + deck[4:4 + t.hits]
        assert ranks(t.dealer) == [deck[1], deck[3]] + deck[4 + t.hits:4 + t.hits + len(t.dealer) - 2]


# --- command line -------------------------------------------------------------------------


def test_cli_text_and_json(capsys):
    assert main(["replay", "Q", "6", "4", "9", "10"]) == 0
    out = capsys.readouterr().out
    assert "the player wins by taking 0 extra cards and standing on 14" in out
    assert out == replay_text(replay("Q 6 4 9 10"))
    assert main(["replay", "--format", "json", "10", "3", "4", "K", "3", "5"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["deck"] == ["10", "3", "4", "K", "3", "5"]
    assert document["can_win"] is False and document["hits"] is None
    assert [t["result"] for t in document["tries"]] == ["loss", "loss", "loss"]
    assert document["tries"][1] == {"hits": 1, "player": ["10", "4", "3"], "player_total": 17,
                                    "dealer": ["3", "K", "5"], "dealer_total": 18, "result": "loss",
                                    "reason": "dealer's total is higher"}


def test_cli_file_json_one_object_per_line(tmp_path, capsys):
    decks = tmp_path / "decks.txt"
    decks.write_text("# two decks\nQ 6 4 9 10\n\n10 3 4 K 3 5\n")
    assert main(["replay", "--file", str(decks), "--format", "json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["hits"] for line in lines] == [0, None]


def test_cli_bad_card_exits_2_with_one_line(tmp_path, capsys):
    decks = tmp_path / "decks.txt"
    decks.write_text("Q 6 4 9 10\nQ 6 Z 9\n")
    assert main(["replay", "--file", str(decks)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip().splitlines() == [
        f"bjexact: error: {decks}, line 2: unknown card 'Z' at position 3 (use A, 2..9, T/10/J/Q/K)"
    ]
    assert main(["replay", "Q", "6", "4", "1x"]) == 2
    assert "'1x' at position 4" in capsys.readouterr().err
    assert main(["replay", "--file", str(tmp_path / "missing.txt")]) == 2
    assert main(["replay"]) == 2
