"""A complete `check-sim --game` adapter: infinite deck, peek, no splitting, play by a chart."""
RANKS, WEIGHTS = range(1, 11), [1] * 9 + [4]  # ace = 1, ten-valued = 10 (4 of 13)


def total(cards):  # (total, soft): one ace counts 11 when that does not bust
    hard = sum(cards)
    return (hard + 10, True) if 1 in cards and hard <= 11 else (hard, False)


def make(rules, chart):  # --factory: called with the rules (GameRules) and the chart (ChartPolicy)
    def code(cards, up):  # a dealt pair reads its pair row (no splitting: H, S or D), else hard/soft
        value, soft = total(cards)
        pair = len(cards) == 2 and cards[0] == cards[1]
        key = ("pairs", "A23456789T"[cards[0] - 1], up) if pair else ("soft" if soft else "hard", str(value), up)
        return chart.codes[key]

    def play_round(rng):  # one round from a fresh shoe, every draw from rng; net result per unit bet
        draw = lambda: rng.choices(RANKS, WEIGHTS)[0]  # noqa: E731
        player, dealer = [draw(), draw()], [draw(), draw()]
        if 21 in (total(player)[0], total(dealer)[0]):  # naturals: the dealer peeks, 3:2 paid
            return 0.0 if total(player) == total(dealer) else -1.0 if total(dealer)[0] == 21 else 1.5
        stake = 2 if code(player, dealer[0])[0] == "D" else 1  # D, Dh, Ds: double, one card
        player += [draw()] if stake == 2 else []
        while stake == 1 and total(player)[0] < 21 and code(player, dealer[0]) in ("H", "D", "Dh"):
            player.append(draw())
        while total(dealer)[0] < 17 or (rules.h17 and total(dealer) == (17, True)):
            dealer.append(draw())
        me, it = total(player)[0], total(dealer)[0]
        return -stake if me > 21 else stake if it > 21 or me > it else -stake if me < it else 0.0
    return play_round
