"""The standard rules (docs/rules.md S-*) as the built-in plugin every game starts with.

Every hook reads the variant's options here and nowhere else, so most house
rules are TOML values; variants whose rules differ in kind (Threechu, Tientsin,
Grand Seigneur) answer some hooks themselves from ``plugins/`` and return None
from the rest. Values are written for any table size: teams are
``seat % team_count``; rank exchange and reseating by rank (GS-5, GS-6) work
on any table, so a standard-based table can try them by override.

This module is compiled with mypyc where a C compiler is at hand (``builds.py``): its
answers are asked at almost every step. A compiled function takes no attributes, so
its hook functions carry no ``@hookimpl`` mark here; :mod:`tichu_core.rules.loading`
registers them as the plugin ``standard``, each marked ``trylast`` (every variant
plugin is asked first). A plugin of plain Python marks its hooks ``@hookimpl``
(docs/plugins.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, final

from tichu_core.cardplay.cards import (
    CARDS,
    MAH_JONG_BITS,
    RANK_NAMES,
    SECOND_COPY,
    SPECIAL_CODES,
    deck_mask,
    iter_cards,
    mask_points,
)
from tichu_core.cardplay.combinations import DOG as DOG_KIND
from tichu_core.cardplay.kinds import Combinations
from tichu_core.cardplay.moves import MoveRules
from tichu_core.rules.answers import HandScore, Outcome, Refusal, Seating, Termination
from tichu_core.rules.playrules import PlayRules
from tichu_core.rules.table import GRAND_TICHU, OVER, TableView

if TYPE_CHECKING:
    from tichu_core.variants.models import Variant

ALL_RANKS = list(range(2, 15))

# --------------------------------------------------------------------------- the table


def tichu_seats(variant: Variant) -> int:
    """T3-1: the players, and a dummy seat where the variant has one."""
    return variant.seats


@final
class _Options:
    """The options the answers asked at (almost) every step read, read from a variant
    once: compiled, reading an attribute of a pydantic model costs some 400
    instructions, of this object a few. Variants and their option groups are frozen."""

    def __init__(self, variant: Any) -> None:
        self.variant = variant
        calls, scoring, dragon, game = variant.calls, variant.scoring, variant.dragon, variant.game
        self.grand_tichu: bool = calls.grand_tichu
        self.tichu: bool = calls.tichu
        self.tichu_and_grand_tichu: bool = calls.tichu_and_grand_tichu
        self.max_calls_per_team: int = calls.max_per_team
        self.tichu_points: int = calls.tichu_points
        self.grand_tichu_points: int = calls.grand_tichu_points
        self.winner_collects: bool = variant.tricks.winner_collects
        self.team_size: int = variant.teams.size
        self.team_count: int = variant.team_count
        self.dummy: bool = variant.teams.dummy
        self.double_victory: int = scoring.double_victory
        self.card_points: bool = scoring.card_points
        # Whether score lines are players (T3-7 per_player, or no partners: GS-1) rather
        # than teams; players change seats, so their scores follow them, not the seats.
        self.player_lines: bool = scoring.per_player or variant.team_count == variant.seats
        self.dragon_gift: bool = dragon.gift
        self.dragon_gift_when_last: bool = dragon.gift_when_last
        self.target: int = game.target
        self.hands: int = game.hands
        self.players: int = variant.players
        self.exchange_targets: str = variant.exchange.targets
        self.exchange_first_hand: bool = variant.exchange.first_hand


_OPTIONS: Final[dict[int, _Options]] = {}


def _options(variant: Variant) -> _Options:
    """The options of ``variant`` (kept with it, for the last 256 variants asked)."""
    options = _OPTIONS.get(id(variant))
    if options is None or options.variant is not variant:
        if len(_OPTIONS) >= 256:
            _OPTIONS.clear()
        options = _OPTIONS[id(variant)] = _Options(variant)
    return options


def _player_lines(variant: Variant) -> bool:
    """Whether score lines are players (T3-7 per_player, or no partners: GS-1) rather
    than teams; players change seats, so their scores follow them, not the seats."""
    return _options(variant).player_lines


def tichu_score_lines(variant: Variant, players: int) -> list[str]:
    """One line per team (S-SCORE-*), or per player and the dummy (T3-7, GS-1)."""
    if _player_lines(variant):
        return [f"player {p}" for p in range(players)] + (["dummy"] if variant.teams.dummy else [])
    count = variant.team_count
    return [
        "team " + "+".join(str(s) for s in range(variant.seats) if s % count == team)
        for team in range(count)
    ]


def tichu_play_rules(variant: Variant) -> PlayRules:
    """S-COMB-*, S-BOMB-*, S-WISH-2/3/6, GS-4 from their options."""
    return PlayRules(
        MoveRules(
            four_distinct_suits=variant.bombs.four_distinct_suits,
            second_dragon_beats_first=variant.dragon.second_beats_first,
            bomb_must_fulfil=variant.wish.bomb_must_fulfil,
            phoenix_fulfils=variant.wish.phoenix_fulfils,
            bomb_instead=variant.wish.bomb_instead,
        )
    )


def tichu_combinations(variant: Variant, combinations: Combinations) -> Combinations | None:
    """S-COMB-1, S-BOMB-1: the standard kinds, which the engine starts from (asked
    first, the standard rules keep them as they are)."""
    return combinations


# --------------------------------------------------------------------------- deck and deal


def tichu_deck(variant: Variant) -> int:
    """S-DECK-1 (and GS-2 through the deck options)."""
    return deck_mask(variant.deck_copies, variant.deck_without)


def tichu_next_hand(
    variant: Variant, previous: TableView | None, players: int, seats: int
) -> Seating:
    """S-DEAL-3: seats stay and the first out of the last hand deals the next.
    With ``seating.by_rank`` (GS-5) the finishing order reseats the table from the
    second hand: the first out (Great Lord) at seat 0, then the others in rank order
    to the left, so that play to the right meets the Wretch first; the last out (the
    Wretch) deals (GS-3: "all other dirty work is the duty of ... the Wretch")."""
    if previous is None:
        seated: list[int | None] = list(range(players))
        seated += [None] * (seats - players)
        return Seating(players=seated, dealer=0)
    if variant.seating.by_rank:
        ranking = [previous.players[seat] for seat in previous.ranking()]
        if variant.seating.direction == "right":
            ranking = ranking[:1] + ranking[:0:-1]
            wretch = 1 if len(ranking) > 1 else 0
        else:
            wretch = len(ranking) - 1
        return Seating(players=ranking, dealer=wretch)
    dealer = previous.out_order[0] if previous.out_order else previous.dealer
    return Seating(players=list(previous.players), dealer=dealer)


def tichu_deal(variant: Variant, cards: list[int], dealer: int, seats: int) -> list[list[int]]:
    """S-DEAL-1: ``hand_size`` cards each in one block per seat (the order within a hand
    does not matter for fairness); hand_size 0: one card at a time round the table,
    starting with the dealer or the seat after it (T6-2, GS-3)."""
    size = variant.deal.hand_size
    hands: list[list[int]] = [[] for _ in range(seats)]
    if size:
        for seat in range(seats):
            hands[seat] = cards[seat * size : (seat + 1) * size]
        return hands
    first = dealer if variant.deal.first_receiver == "dealer" else (dealer + 1) % seats
    for index, card in enumerate(cards):
        hands[(first + index) % seats].append(card)
    return hands


def tichu_grand_tichu_cards(variant: Variant, table: TableView) -> int:
    """S-DEAL-2: Grand Tichu is decided holding the first 8 cards (T6-2: 6)."""
    return variant.deal.grand_tichu_after if variant.calls.grand_tichu else 0


def tichu_layout(variant: Variant, table: TableView) -> list[int]:
    """Partners sit alternately: team of seat s is s % number of teams (T6-1)."""
    count = _options(variant).team_count  # `Variant.team_of`, read once
    return [seat % count for seat in range(table.seats)]


def tichu_controllers(variant: Variant, table: TableView) -> list[int]:
    """Each player acts for its own seat; a dummy seat is played by its partner (T3-1:
    the shuffler sits opposite its dummy), or by the dealer when it has none."""
    players = table.players
    controllers: list[int] = []
    for seat, player in enumerate(players):
        if player is None:
            partners = [p for p in (players[s] for s in table.partners(seat)) if p is not None]
            dealer = players[table.dealer]
            controllers.append(partners[0] if partners else dealer if dealer is not None else 0)
        else:
            controllers.append(player)
    return controllers


def tichu_titles(variant: Variant, table: TableView) -> dict[int, str]:
    """Seats hold no titles in the standard game."""
    return {}


def tichu_visible_seats(variant: Variant, table: TableView, player: int | None) -> list[int]:
    """A player sees the hands of the seats it acts for; a spectator sees none."""
    if player is None:
        return []
    return table.seats_of(player)


# --------------------------------------------------------------------------- calls


def tichu_may_call(variant: Variant, table: TableView, seat: int, call: str) -> bool | Refusal:
    """S-CALL-1: ``calls.grand_tichu``/``calls.tichu``, one call per seat unless
    ``calls.tichu_and_grand_tichu``, at most ``calls.max_per_team`` calls per team."""
    options = _options(variant)
    if call == GRAND_TICHU and not options.grand_tichu:
        return Refusal("S-DEAL-2", "this variant has no Grand Tichu")
    if call == "tichu" and not options.tichu:
        return Refusal("S-CALL-1", "this variant has no Tichu calls")
    if call == "tichu" and table.grand_tichu[seat] and not options.tichu_and_grand_tichu:
        return Refusal("S-CALL-1", f"seat {seat} called Grand Tichu (one call per seat)")
    most = options.max_calls_per_team
    if most:
        team = table.teams[seat]
        made = sum(
            1 for s in table.team_members(team) if table.tichu[s] or table.grand_tichu[s] is True
        )
        if made >= most:
            return Refusal("S-CALL-1", f"team {team} has made its {most} call(s) this hand")
    return True


# --------------------------------------------------------------------------- exchange


def _rank_levels(variant: Variant, table: TableView) -> list[tuple[int, int, int]]:
    """GS-6: (seat of the k-th from the top, seat of the k-th from the bottom, cards)."""
    ranking = table.previous_ranking
    if not ranking:
        return []  # the first hand has no ranks yet
    seat_of = {player: seat for seat, player in enumerate(table.players) if player is not None}
    levels = []
    for level, count in enumerate(variant.exchange_rank_cards):
        low = len(ranking) - 1 - level
        high_player, low_player = ranking[level], ranking[low]
        if count and level < low and high_player in seat_of and low_player in seat_of:
            levels.append((seat_of[high_player], seat_of[low_player], count))
    return levels


def _exchange_now(variant: Variant, table: TableView) -> bool:
    return table.hand_index > 0 or _options(variant).exchange_first_hand


def tichu_push_targets(variant: Variant, table: TableView, seat: int) -> dict[int, int]:
    """S-EX-1 (all other seats), T3-3 (opponents), T6-3 (partners), one card each;
    GS-6 (rank): each upper rank gives back as many cards as it receives."""
    kind = _options(variant).exchange_targets
    if kind == "none" or not _exchange_now(variant, table):
        return {}
    if kind == "rank":
        return {low: count for high, low, count in _rank_levels(variant, table) if high == seat}
    others = [(seat + step) % table.seats for step in range(1, table.seats)]
    if kind == "opponents":
        others = [s for s in others if table.teams[s] != table.teams[seat]]
    elif kind == "partners":
        others = [s for s in others if table.teams[s] == table.teams[seat]]
    return {other: 1 for other in others}


def best_cards(variant: Variant, hand: int, count: int) -> int:
    """GS-6: the ``count`` best cards of ``hand`` by ``exchange.best_order`` (suits never
    rank: among equal cards the lower card number of its first-deck twin goes first,
    so that which code is given never depends on which copy of a code a seat holds,
    which no player can see); cards the order does not name count as the worst."""
    order = {entry: index for index, entry in enumerate(variant.exchange.best_order)}

    def worse(card: int) -> tuple[int, int, int]:
        name = SPECIAL_CODES[card & 3] if card < 8 else RANK_NAMES[CARDS[card].rank]
        return order.get(name, len(order)), card & ~SECOND_COPY, card

    mask = 0
    for card in sorted(iter_cards(hand), key=worse)[:count]:
        mask |= 1 << card
    return mask


def tichu_forced_push(variant: Variant, table: TableView, seat: int) -> dict[int, int]:
    """GS-6: in a rank exchange each lower rank gives its best cards, forced."""
    if _options(variant).exchange_targets != "rank" or not _exchange_now(variant, table):
        return {}
    return {
        high: best_cards(variant, table.hands[seat], count)
        for high, low, count in _rank_levels(variant, table)
        if low == seat
    }


# --------------------------------------------------------------------------- play


def tichu_first_leader(variant: Variant, table: TableView) -> int:
    """S-EX-2: the Mah Jong holder leads; without a Mah Jong, the seat after the dealer."""
    for seat, hand in enumerate(table.hands):
        if hand & MAH_JONG_BITS:
            return seat
    following = table.next_active(table.dealer)
    return following if following is not None else table.dealer


def tichu_may_bomb(variant: Variant, table: TableView, seat: int) -> bool | Refusal:
    """S-BOMB-3/4/5, S-DOG-1: while a trick has a combination on the table, not on
    the Dog, and on one's own trick only by ``bombs.own_trick``."""
    top = table.top
    if top is None:
        return Refusal("S-BOMB-4", "no bomb on an empty trick out of turn")
    if top.kind == DOG_KIND:
        return Refusal("S-DOG-1", "no bomb may follow the Dog")
    if seat == table.top_seat and not variant.bombs.own_trick:
        return Refusal("S-BOMB-5", f"seat {seat} may not bomb its own trick")
    return True


def tichu_wish_ranks(variant: Variant, table: TableView, seat: int) -> list[int]:
    """S-WISH-1, E-4: any rank 2..A, when ``wish.enabled``."""
    return list(ALL_RANKS) if variant.wish.enabled else []


def tichu_wish_applies(variant: Variant, table: TableView, seat: int) -> bool:
    """S-WISH-2: the wish binds every seat on its turn."""
    return True


def tichu_dog_recipients(variant: Variant, table: TableView, seat: int) -> list[int]:
    """S-DOG-1/2, T6-4: the lead goes to the partner (or a chosen one of the partners)."""
    n = table.seats
    partners = sorted(table.partners(seat), key=lambda p: (p - seat) % n)
    holding = [p for p in partners if table.holds_cards(p)]
    if variant.dog.choose_partner:
        if holding:
            return holding
        after = seat
    elif len(partners) == 1 and holding:
        return holding
    elif holding:
        return holding[:1]
    else:
        # S-DOG-2: the partner is out (or there is none).
        after = (
            partners[0] if partners and variant.dog.partner_out == "next_after_partner" else seat
        )
    following = table.next_active(after)
    return [following if following is not None else seat]


def tichu_collect_at_once(variant: Variant, table: TableView) -> bool:
    """S-TRICK-2: by ``tricks.winner_collects`` the top seat collects by passing."""
    return not _options(variant).winner_collects


def tichu_trick_winner(variant: Variant, table: TableView) -> int:
    """S-TRICK-2: the seat of the top play takes the trick."""
    assert table.top_seat is not None
    return table.top_seat


def tichu_dragon_recipients(variant: Variant, table: TableView, seat: int) -> list[int]:
    """S-DRAGON-1/2: an opponent of the winner's choice, also on the last trick by option
    (never after a double victory: the hand is scored without cards)."""
    options = _options(variant)
    if not options.dragon_gift:
        return []
    if table.phase == OVER and (
        not options.dragon_gift_when_last or team_out_together(variant, table) is not None
    ):
        return []
    return table.opponents(seat)


# --------------------------------------------------------------------------- end of hand and match


def team_out_together(variant: Variant, table: TableView) -> int | None:
    """The team whose seats all went out before any opponent, if any: the double
    victory of S-END-1, Tientsin's triple victory (T6-5). For plugins too."""
    out = table.out_order
    if _options(variant).team_size < 2 or not out:
        return None
    seat_teams = table.teams
    team = seat_teams[out[0]]
    members = table.team_members(team)
    if len(members) < 2 or len(out) < len(members):
        return None
    if all(seat_teams[s] == team for s in out[: len(members)]):
        return team
    return None


def tichu_hand_over(variant: Variant, table: TableView) -> bool:
    """S-END-1: one seat holds cards, or one team went out first and second."""
    if sum(1 for hand in table.hands if hand) <= 1:
        return True
    return team_out_together(variant, table) is not None


def team_scores(variant: Variant, table: TableView) -> HandScore:
    """S-END-2, S-SCORE-1/2/3: card points per team, double victory, calls."""
    seat_teams = table.teams  # each view property makes a copy: read once
    teams = max(seat_teams) + 1
    scores = [0] * teams
    card_points = [0] * teams
    winners = team_out_together(variant, table)
    options = _options(variant)
    if winners is not None:
        scores[winners] += options.double_victory
    elif options.card_points:
        out_order, piles, hands = table.out_order, table.piles, table.hands
        first_out = out_order[0] if out_order else None
        for seat in range(table.seats):
            pile, hand = piles[seat], hands[seat]
            if hand and first_out is not None:
                # S-END-2: the last seat's hand to the opponents, its tricks to the first out.
                card_points[seat_teams[first_out]] += mask_points(pile)
                # With more than two teams "the opponents" are ambiguous: the next team takes them.
                opposing = (seat_teams[seat] + 1) % teams
                card_points[opposing] += mask_points(hand)
            else:
                card_points[seat_teams[seat]] += mask_points(pile)
        for team in range(teams):
            scores[team] += card_points[team]
    for team, points in enumerate(call_scores(variant, table)):
        scores[team] += points
    return HandScore(scores=scores, card_points=card_points, double_victory=winners is not None)


def call_scores(variant: Variant, table: TableView) -> list[int]:
    """S-SCORE-3: per team, ``calls.tichu_points``/``calls.grand_tichu_points`` for each
    call, won if the caller went out first, lost otherwise (double victory or not).
    For plugins that score hands their own way but keep the calls (T6-6)."""
    seat_teams, tichu, grand_tichu = table.teams, table.tichu, table.grand_tichu
    out_order = table.out_order
    options = _options(variant)
    tichu_points, grand_tichu_points = options.tichu_points, options.grand_tichu_points
    scores = [0] * (max(seat_teams) + 1)
    first = out_order[0] if out_order else None
    for seat in range(table.seats):
        points = (tichu_points if tichu[seat] else 0) + (
            grand_tichu_points if grand_tichu[seat] else 0
        )
        if points:
            scores[seat_teams[seat]] += points if seat == first else -points
    return scores


def tichu_score_hand(variant: Variant, table: TableView) -> HandScore:
    """S-SCORE-*: the team scores, on the variant's score lines."""
    return score_per_line(variant, table, team_scores(variant, table))


def score_per_line(variant: Variant, table: TableView, score: HandScore) -> HandScore:
    """A hand ``score`` per team (as :func:`team_scores` gives it) on the variant's score
    lines: unchanged with lines per team; with lines per player (T3-7, or no partners)
    each player's line, and the dummy's, gets the whole score of its seat's team. For
    plugins that change a team score and keep the standard lines."""
    options = _options(variant)
    if not options.player_lines:
        return score
    lines = options.players + (1 if options.dummy else 0)
    scores, card_points = [0] * lines, [0] * lines
    for seat, player in enumerate(table.players):
        line = player if player is not None else options.players
        team = table.teams[seat]
        scores[line] = score.scores[team]
        card_points[line] = score.card_points[team]
    return HandScore(scores, card_points, score.double_victory, score.details)


def tichu_match_over(variant: Variant, totals: list[int], hands_played: int) -> Outcome | bool:
    """S-GAME-1: after the hand in which a line reaches ``game.target``; a tie plays on.
    T3-8, GS-8: after ``game.hands`` hands; the highest total wins (ties share). A
    dummy's line (the last, T3-7) counts for the score but wins no match of a fixed
    number of hands: the highest *player* score does. To a target (T3-8) it is a
    line like any other: it can reach the target, end the match and win it."""
    options = _options(variant)
    target, hands = options.target, options.hands
    if hands and hands_played >= hands:
        dummy_line = options.player_lines and options.dummy
        contenders = totals[: options.players] if dummy_line else totals
        best = max(contenders)
        leaders = tuple(line for line, total in enumerate(contenders) if total == best)
        return Outcome(Termination.HANDS_PLAYED, leaders)
    best = max(totals)
    leaders = tuple(line for line, total in enumerate(totals) if total == best)
    # Partners share one score, so with lines per player equal leaders are no tie
    # (an exact tie of opponents then ends the match with both on top).
    untied = len(leaders) == 1 or options.player_lines
    if target and best >= target and untied:
        return Outcome(Termination.TARGET_REACHED, leaders)
    return False
