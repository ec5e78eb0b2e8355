"""Qwiply's rules as pure functions of sheets, dice and options (no turn sequencing here).

Each check raises :class:`engine.errors.IllegalMoveError` with a stable rule name before anything
is built; each change returns a new :class:`Sheet`.

>>> sheet = Sheet().with_setup((1, 2, 3, 4, 5), (3, 3, 3, 3, 3))
>>> marking = resolve_claim(sheet, Suit.SUN, white=4, unclaimed=(2, 5, 6), claim=Claim(5))
>>> marking.describe()
'follow suit: 5 circled in Sun (5 >= white 4), a win for Sun'
>>> [claim.to_text() for claim in legal_claims(sheet, Suit.SUN, (1, 4, 4))]
['claim 1 palm', 'claim 1 drink', 'claim 1 glasses', 'claim 1 water', 'claim 1 starfish', 'claim 4']
>>> print(score_sheet(apply_marking(sheet, marking), QwiplyOptions()).text())
Sun         +1  bid 3, won 1 (1 circled): under the bid, 1 point per win
Palm Tree   +0  bid 3, won 0: under the bid, 1 point per win
Drink       +0  bid 3, won 0: under the bid, 1 point per win
Sunglasses  +0  bid 3, won 0: under the bid, 1 point per win
Water       +0  bid 3, won 0: under the bid, 1 point per win
penalties   +0  none
total        1
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.errors import IllegalMoveError
from engine.qwiply.moves import PENALTY, Claim, Lead, Roll, Setup, Target
from engine.qwiply.options import QwiplyOptions
from engine.qwiply.sheet import MAIN_SUITS, MAX_BID, NUMBERS, Mark, Sheet, Suit
from engine.rng import Rng
from engine.values import Breakdown, ScoreItem

#: The three ways a claimed die is marked (the sheet's 1), 2) and 3)).
FOLLOW, ALTERNATE, PENALTY_RULE = "follow", "alternate", "penalty"


# --- set-up -------------------------------------------------------------------------------------
def check_setup(sheet: Sheet, setup: Setup) -> None:
    """A set-up crosses out one number (1-6) in each of the five main rows and bids 0 to MAX_BID per main suit."""
    if sheet.is_set_up:
        raise IllegalMoveError("already_set_up", "this sheet is already set up")
    if len(setup.crossed) != len(MAIN_SUITS) or len(setup.bids) != len(MAIN_SUITS):
        raise IllegalMoveError(
            "five_suits", "a set-up crosses out one number and bids once for each of the five main suits"
        )
    bad = [number for number in setup.crossed if number not in NUMBERS]
    if bad:
        raise IllegalMoveError("no_such_number", f"{bad[0]} is not on the sheet: numbers are 1 to 6")
    for suit, bid in zip(MAIN_SUITS, setup.bids, strict=True):
        if not 0 <= bid <= MAX_BID:
            raise IllegalMoveError(
                "bid_out_of_range",
                f"bid {bid} for {suit.title}: bids are 0 to {MAX_BID} (its 5 numbers left plus the 6 starfish)",
            )


def apply_setup(sheet: Sheet, setup: Setup) -> Sheet:
    check_setup(sheet, setup)
    return sheet.with_setup(setup.crossed, setup.bids)


def bid_advice(bids: Sequence[int], options: QwiplyOptions) -> str | None:
    """The sheet's advice for first games, as a hint (never enforced); None when the bids follow it."""
    total = sum(bids)
    if total == options.bid_advice:
        return None
    return (
        f"your bids total {total}; for your first few games the sheet recommends a total of about {options.bid_advice}"
    )


# --- rounds -------------------------------------------------------------------------------------
def first_start_player(options: QwiplyOptions, rng: Rng) -> int:
    """``first_player`` when the options name one, else a seat drawn with the game's generator."""
    return options.first_player if options.first_player is not None else rng.below(options.players)


def claim_order(start: int, players: int) -> tuple[int, ...]:
    """Claims begin at the start player's left and end with the start player (seats count up: RULINGS.md 8)."""
    return tuple((start + step) % players for step in range(1, players + 1))


def next_start_player(start: int, players: int) -> int:
    """The start player passes left."""
    return (start + 1) % players


def roll_dice(rng: Rng, options: QwiplyOptions) -> Roll:
    """One white die and players + 1 purple dice."""
    white = 1 + rng.below(6)
    return Roll.of(white, [1 + rng.below(6) for _ in range(options.purple_dice)])


def check_roll(roll: Roll, options: QwiplyOptions) -> None:
    """A recorded roll (a chance outcome given as a move) must be one the dice could show."""
    if len(roll.purple) != options.purple_dice:
        raise IllegalMoveError(
            "wrong_dice_count",
            f"{options.players} players roll {options.purple_dice} purple dice, not {len(roll.purple)}",
        )
    if any(face not in NUMBERS for face in (roll.white, *roll.purple)):
        raise IllegalMoveError("no_such_number", "dice show 1 to 6")


def check_lead(lead: Lead | Suit) -> Suit:
    """The lead is one of the five main suits; "the starfish suit can NOT be declared as the lead suit"."""
    suit = lead.suit if isinstance(lead, Lead) else lead
    if suit not in MAIN_SUITS:
        raise IllegalMoveError(
            "starfish_cannot_lead", "the starfish can never be the lead suit: lead sun, palm, drink, glasses or water"
        )
    return suit


def take_die(unclaimed: Sequence[int], number: int) -> tuple[int, ...]:
    """The dice left after one showing ``number`` is claimed."""
    dice = list(unclaimed)
    if number not in dice:
        raise IllegalMoveError("die_not_available", _no_die(number, unclaimed))
    dice.remove(number)
    return tuple(dice)


# --- marking ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Marking:
    """Where a claimed die goes and what mark it makes.

    - ``rule``: ``follow`` (the lead row), ``alternate`` (another row) or ``penalty`` (no row);
    - ``row``: the row marked (None for a penalty); ``mark``: WIN (circle) or LOSS (cross);
    - ``won_for``: the suit a win counts for (the lead suit; for a starfish circle, the suit written
      above it); None for a loss or a penalty;
    - ``choices``: every row the rule allowed, so whether the player had to name one;
    - ``white``: the white die it was judged against (for :meth:`describe`).
    """

    number: int
    rule: str
    row: Suit | None
    mark: Mark | None
    won_for: Suit | None
    choices: tuple[Suit, ...]
    white: int

    def claim(self) -> Claim:
        """The claim in its short form: the row named only when the rule left a choice."""
        return Claim(self.number, self.row) if len(self.choices) > 1 else Claim(self.number)

    def describe(self) -> str:
        """One line for a player: what happened and why."""
        if self.rule == PENALTY_RULE:
            return f"penalty: {self.number} is marked in every row"
        assert self.row is not None
        number, row = self.number, self.row.title
        if self.rule == FOLLOW:
            if self.mark is Mark.WIN:
                return f"follow suit: {number} circled in {row} ({number} >= white {self.white}), a win for {row}"
            return f"follow suit: {number} crossed in {row} ({number} < white {self.white}), a loss"
        if self.row is Suit.STARFISH:
            assert self.won_for is not None
            won_for = self.won_for.title
            return f"alternate suit: {number} circled in Starfish, {won_for} written above, a win for {won_for}"
        return f"alternate suit: {self.number} crossed in {self.row.title}, a loss"


def destinations(sheet: Sheet, lead: Suit, number: int) -> tuple[str, tuple[Suit, ...]]:
    """Which of the sheet's three cases a die showing ``number`` falls in, and the rows it may go to.

    >>> sheet = Sheet().with_setup((3, 3, 3, 3, 3), (3, 3, 3, 3, 3))
    >>> destinations(sheet, Suit.SUN, 4), destinations(sheet, Suit.SUN, 3)
    (('follow', (<Suit.SUN: 0>,)), ('alternate', (<Suit.STARFISH: 5>,)))
    """
    if not sheet.is_marked(lead, number):
        return FOLLOW, (lead,)
    rows = sheet.open_rows(number)
    return (ALTERNATE, rows) if rows else (PENALTY_RULE, ())


def marking_for(sheet: Sheet, lead: Suit, white: int, number: int, to: Target = None) -> Marking:
    """Where a die showing ``number`` is marked, the player having named ``to`` (None: let the rule decide).

    Raises ``must_follow_suit`` (another row named while the lead row is open), ``choose_a_row``
    (several rows open and none named), ``already_marked`` (a row where the number is marked),
    ``not_a_penalty`` (a penalty named while a row is open).
    """
    rule, rows = destinations(sheet, lead, number)
    if rule == FOLLOW:
        if to is not None and to is not lead:
            raise IllegalMoveError(
                "must_follow_suit",
                f"{number} is open in the lead row ({lead.title}): it must be marked there",
            )
        won = number >= white
        return Marking(number, FOLLOW, lead, Mark.WIN if won else Mark.LOSS, lead if won else None, rows, white)
    if rule == PENALTY_RULE:
        if to is not None and to != PENALTY:
            raise IllegalMoveError(
                "already_marked", f"{number} is marked in every row, {to.title} included: it costs a penalty"
            )
        return Marking(number, PENALTY_RULE, None, None, None, (), white)
    if to == PENALTY:
        raise IllegalMoveError("not_a_penalty", f"{number} is still open in {_titles(rows)}: no penalty")
    if to is None:
        if len(rows) > 1:
            raise IllegalMoveError(
                "choose_a_row",
                f"{number} is marked in the lead row ({lead.title}): choose the row for it: {_titles(rows)}",
            )
        row = rows[0]
    else:
        assert isinstance(to, Suit)
        if to not in rows:
            where = "the lead row" if to is lead else "that row"
            raise IllegalMoveError(
                "already_marked",
                f"{number} is already marked in {where} ({to.title}): it may go to {_titles(rows)}",
            )
        row = to
    if row is Suit.STARFISH:
        return Marking(number, ALTERNATE, row, Mark.WIN, lead, rows, white)
    return Marking(number, ALTERNATE, row, Mark.LOSS, None, rows, white)


def resolve_claim(sheet: Sheet, lead: Suit, white: int, unclaimed: Sequence[int], claim: Claim) -> Marking:
    """Check a claim against the dice still on the table and the player's sheet; where it goes."""
    check_lead(lead)
    if not sheet.is_set_up:
        raise IllegalMoveError("not_set_up", "a sheet is set up (crossings and bids) before any die is claimed")
    if claim.number not in unclaimed:
        raise IllegalMoveError("die_not_available", _no_die(claim.number, unclaimed))
    return marking_for(sheet, lead, white, claim.number, claim.to)


def apply_marking(sheet: Sheet, marking: Marking) -> Sheet:
    if marking.row is None:
        return sheet.with_penalty()
    assert marking.mark is not None
    return sheet.with_mark(marking.row, marking.number, marking.mark, won_for=marking.won_for)


def legal_claims(sheet: Sheet, lead: Suit, unclaimed: Sequence[int]) -> list[Claim]:
    """Every claim open to the player, in short form: by number, then the rows in sheet order.

    Two dice showing the same number are one choice. Every unclaimed die can be claimed (a die that
    fits nowhere costs a penalty: RULINGS.md 2).
    """
    claims: list[Claim] = []
    for number in sorted(set(unclaimed)):
        rule, rows = destinations(sheet, lead, number)
        if rule == ALTERNATE and len(rows) > 1:
            claims.extend(Claim(number, row) for row in rows)
        else:
            claims.append(Claim(number))
    return claims


# --- scoring ------------------------------------------------------------------------------------
def suit_points(bid: int, wins: int, chart: Sequence[int]) -> int:
    """The chart for a bid met exactly (the last entry for every higher bid); under it 1 a win; over it -1 a win over.

    >>> [suit_points(bid, bid, (20, 12, 7, 4, 7, 12, 20)) for bid in range(8)]
    [20, 12, 7, 4, 7, 12, 20, 20]
    >>> suit_points(4, 2, (20, 12, 7, 4, 7, 12, 20)), suit_points(1, 4, (20, 12, 7, 4, 7, 12, 20))
    (2, -3)
    """
    if wins == bid:
        return chart[min(bid, len(chart) - 1)]
    if wins < bid:
        return wins
    return bid - wins


def suit_item(sheet: Sheet, suit: Suit, options: QwiplyOptions) -> ScoreItem:
    """One main suit's line of the scoring: bid, wins (its row's circles plus the starfish circles for it), points."""
    assert sheet.bids is not None
    bid, wins = sheet.bids[suit], sheet.wins(suit)
    points = suit_points(bid, wins, options.chart)
    parts = [f"{sheet.row_wins(suit)} circled"] if sheet.row_wins(suit) else []
    if sheet.starfish_wins(suit):
        parts.append(f"{sheet.starfish_wins(suit)} starfish")
    detail = f"bid {bid}, won {wins}" + (f" ({' + '.join(parts)})" if parts else "")
    if wins == bid:
        detail += f": bid met, the chart gives {points}"
    elif wins < bid:
        detail += ": under the bid, 1 point per win"
    else:
        detail += f": {wins - bid} over the bid, -1 per win over"
    return ScoreItem("suit", suit.title, points, detail)


def penalty_item(sheet: Sheet, options: QwiplyOptions) -> ScoreItem:
    count = sheet.penalties
    detail = f"{count} x -{options.penalty_points}" if count else "none"
    return ScoreItem("penalty", "penalties", -options.penalty_points * count, detail)


def score_sheet(sheet: Sheet, options: QwiplyOptions) -> Breakdown:
    """The sheet's score as it stands (the final score at the end): one item per main suit, then the penalties."""
    if not sheet.is_set_up:
        raise IllegalMoveError("not_set_up", "a sheet without bids has no score")
    return Breakdown((*(suit_item(sheet, suit, options) for suit in MAIN_SUITS), penalty_item(sheet, options)))


def claim_points(sheet: Sheet, marking: Marking, options: QwiplyOptions) -> int:
    """How much a claim changes the sheet's score as it stands (:func:`claim_breakdown` without the words)."""
    if marking.row is None:
        return -options.penalty_points
    if marking.won_for is None:  # a loss touches no suit's wins
        return 0
    assert sheet.bids is not None
    bid, wins = sheet.bids[marking.won_for], sheet.wins(marking.won_for)
    return suit_points(bid, wins + 1, options.chart) - suit_points(bid, wins, options.chart)


def claim_breakdown(sheet: Sheet, marking: Marking, options: QwiplyOptions) -> Breakdown:
    """What a claim changes in the sheet's score as it stands: one item for the suit (or the penalty) it touches.

    This is the "immediate value toward the bids" a greedy player ranks claims by.
    """
    if marking.row is None:
        return Breakdown((ScoreItem("penalty", "penalty", -options.penalty_points, marking.describe()),))
    # a starfish mark is always a circle, whose won_for is the lead suit: the suit touched is a main one
    suit = marking.won_for if marking.won_for is not None else marking.row
    assert sheet.bids is not None
    before = score_sheet(sheet, options).items[suit].points
    after = score_sheet(apply_marking(sheet, marking), options).items[suit].points
    detail = f"{marking.describe()}; {suit.title} goes from {before} to {after} points"
    return Breakdown((ScoreItem("claim", suit.title, after - before, detail),))


# --- the end ------------------------------------------------------------------------------------
def end_triggers(sheets: Sequence[Sheet], options: QwiplyOptions) -> list[tuple[int, str]]:
    """Who has met an end condition: ``(seat, "rows")`` for ``end_rows`` complete rows (the starfish row
    counts as one of the six), ``(seat, "penalties")`` for ``end_penalties`` penalties. Checked after a
    round: the round in which a condition is met is always finished first."""
    triggers: list[tuple[int, str]] = []
    for seat, sheet in enumerate(sheets):
        if len(sheet.complete_rows()) >= options.end_rows:
            triggers.append((seat, "rows"))
        if sheet.penalties >= options.end_penalties:
            triggers.append((seat, "penalties"))
    return triggers


def end_reason(sheets: Sequence[Sheet], options: QwiplyOptions) -> str | None:
    """Why the game ends after this round, in words; None if it goes on."""
    parts = []
    for seat, kind in end_triggers(sheets, options):
        if kind == "rows":
            parts.append(f"player {seat} has marked every number of {_titles(sheets[seat].complete_rows())}")
        else:
            parts.append(f"player {seat} has taken {sheets[seat].penalties} penalties")
    return "; ".join(parts) or None


def final_scores(sheets: Sequence[Sheet], options: QwiplyOptions) -> tuple[int, ...]:
    return tuple(score_sheet(sheet, options).total for sheet in sheets)


def winners(scores: Sequence[int]) -> tuple[int, ...]:
    """ "The player with the most points wins"; players tied on the most points share the win (RULINGS.md 14)."""
    best = max(scores)
    return tuple(seat for seat, score in enumerate(scores) if score == best)


# --- what others see ----------------------------------------------------------------------------
def bids_visible(options: QwiplyOptions, *, owner: int, viewer: int | None, game_over: bool) -> bool:
    """Whether ``viewer`` (None: a spectator) may see the bids on ``owner``'s set-up sheet (RULINGS.md 4)."""
    return viewer == owner or game_over or not options.bids_hidden


def sheet_view(sheet: Sheet, show_bids: bool) -> dict[str, object]:
    """A sheet's JSON as another player sees it: the bids withheld (``bids_hidden``) when they may not be seen."""
    data: dict[str, object] = sheet.to_json()
    hidden = sheet.is_set_up and not show_bids
    if hidden:
        data["bids"] = None
    data["bids_hidden"] = hidden
    return data


def _titles(suits: Sequence[Suit]) -> str:
    return ", ".join(suit.title for suit in suits)


def _no_die(number: int, unclaimed: Sequence[int]) -> str:
    left = " ".join(map(str, sorted(unclaimed))) or "none"
    return f"no unclaimed purple die shows {number} (unclaimed: {left})"
