"""The conformance suite: what every engine on the protocol must pass (``test_conformance.py`` runs it
over the registry, and over the toy game of engine/README.md).

For seeded games played by random and greedy bots it checks, at every step: the engine's own
invariants; that the saved state reads back exactly; that every legal move's notation reads back
as the same move; that refused moves (random garbage, moves legal for another seat or another
position) raise a typed error and change nothing; and that no view holds a hidden value of the
state, searched deeply (another seat's tiles, the pile's order, the seed, the generator). At the
end: the game is over, nobody may act, and the seed and the history replay it exactly.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.base import Game, State
from engine.bots import Bot, Turn, make_bot, next_move
from engine.errors import EngineError
from engine.rng import Rng
from engine.table import TableTiles, rebuild
from engine.values import CHANCE, REFEREE, Move
from engine.views import Secret
from tests.engine.table_entry import Chooser, reenter

DATA = Path(__file__).parent


@dataclass(frozen=True)
class Case:
    """How the suite plays one game: the specs, bots and seeds, and how much to check per step."""

    specs: tuple[str, ...]
    bots: tuple[str, ...] = ("random", "greedy")
    games: int = 2
    #: Check every n-th step in depth (legal moves, refused moves, views): 1 checks them all.
    every: int = 1
    #: Garbage moves tried at each checked step.
    garbage: int = 3
    max_moves: int = 5_000
    extra: dict[str, Any] = field(default_factory=dict)


#: Seeds far from small numbers, so that a seed (or a generator state) found in a view is a leak and
#: not a coincidence with a score or a count.
SEED_BASE = 0x5EED_0000_0000


def seeds(case: Case) -> list[int]:
    return [SEED_BASE + 7919 * index for index in range(case.games)]


def others(parts: list[Any], seat: int | None) -> list[Any]:
    return [part for owner, part in enumerate(parts) if owner != seat]


def head(pile: Any) -> list[Any]:
    """A pile's next tiles in order: what its order hides (a pile's contents may be known)."""
    return [list(pile[:4])] if len(pile) >= 6 else []


#: What each game hides from a seat while it runs, written here independently of the engines' own declarations
#: (``State.VIEW``), so that a wrong declaration is caught: (the state's body, the viewer) -> the secrets.
#: A new engine adds its line; the conformance suite and the match server's leak test both search for them.
HIDDEN: dict[str, Callable[[State[Any], int | None], list[Any]]] = {
    "highcard": lambda state, seat: [[bid] for bid in others(state.to_body()["bids"], seat) if bid is not None],
    "bop": lambda state, seat: [*others(state.to_body()["hands"], seat), *head(state.to_body()["pile"])],
    "pdq": lambda state, seat: head(state.to_body()["deck"]),
    "qwiply": lambda state, seat: qwiply_hidden(state, seat),
    "three2fifteen": lambda state, seat: [*others(state.to_body()["hands"], seat), *head(state.to_body()["bag"])],
    "qnto": lambda state, seat: qnto_hidden(state, seat),
    "matchfive": lambda state, seat: [*others(state.to_body()["hands"], seat), *head(state.to_body()["bag"])],
    # Not the viewer's own pile: its bottom holds the tiles the viewer traded there, in the order traded.
    "digit": lambda state, seat: [
        *others(state.to_body()["hands"], seat),
        *(run for pile in others(state.to_body()["piles"], seat) for run in head(pile)),
    ],
}


def qnto_hidden(state: State[Any], seat: int | None) -> list[Any]:
    """Others' hands, the head of the common pile (Classic, Plus) and of every pile of one's own (Light:
    face down, so hidden from their owners too)."""
    body = state.to_body()
    return [*others(body["hands"], seat), *head(body["pile"]), *(h for pile in body["own_piles"] for h in head(pile))]


def qwiply_hidden(state: State[Any], seat: int | None) -> list[Any]:
    """Others' sealed set-ups; with hidden bids, others' bids (unless the same as the viewer's own)."""
    body = state.to_body()
    own_setup = None if seat is None else body["setups"][seat]
    found: list[Any] = [text for text in others(body["setups"], seat) if text is not None and text != own_setup]
    if state.game.options.bids == "hidden":
        own_bids = None if seat is None else body["sheets"][seat]["bids"]
        found += [sheet["bids"] for sheet in others(body["sheets"], seat) if sheet["bids"] not in (None, own_bids)]
    return found


def swap_with_pile(hands: str, pile: str) -> Callable[[dict[str, Any], int | None, Rng], dict[str, Any] | None]:
    """A perturbation for tile games: one tile of another seat's hand trades places with one of the pile."""

    def perturb(body: dict[str, Any], seat: int | None, rng: Rng) -> dict[str, Any] | None:
        owners = [owner for owner, hand in enumerate(body[hands]) if owner != seat and hand]
        different = [i for i, tile in enumerate(body[pile]) if owners and tile not in body[hands][owners[0]]]
        if not owners or not different:
            return None
        owner = owners[rng.below(len(owners))]
        hand, rest = list(body[hands][owner]), list(body[pile])
        i, j = rng.below(len(hand)), different[rng.below(len(different))]
        hand[i], rest[j] = rest[j], hand[i]
        return {**body, hands: [hand if o == owner else h for o, h in enumerate(body[hands])], pile: rest}

    return perturb


#: Changes to a body that its viewer cannot tell apart from the real one (OpenSpiel's "resample from
#: the information state"): the viewer's view must not change at all. This catches what searching for
#: values cannot, such as a hidden small number.
PERTURB: dict[str, Callable[[State[Any], int | None, Rng], dict[str, Any] | None]] = {
    "highcard": lambda state, seat, rng: _changed_bids(state.to_body(), seat),
    "bop": lambda state, seat, rng: swap_with_pile("hands", "pile")(state.to_body(), seat, rng),
    "qwiply": lambda state, seat, rng: _qwiply_bids(state, seat),
    "three2fifteen": lambda state, seat, rng: swap_with_pile("hands", "bag")(state.to_body(), seat, rng),
    "qnto": lambda state, seat, rng: _qnto_perturbed(state.to_body(), seat, rng),
    "matchfive": lambda state, seat, rng: swap_with_pile("hands", "bag")(state.to_body(), seat, rng),
    "digit": lambda state, seat, rng: swap_with_own_pile(state.to_body(), seat, rng),
    "pdq": lambda state, seat, rng: {
        **state.to_body(),
        "deck": state.to_body()["deck"][1:] + state.to_body()["deck"][:1],
        "round": _renamed(state.to_body()["round"], seat),
    },
}


def _qnto_perturbed(body: dict[str, Any], seat: int | None, rng: Rng) -> dict[str, Any] | None:
    """Q!nto: a tile of another seat's hand trades places with one of the common pile (Classic, Plus);
    in Light with one of that seat's own pile, and every pile of one's own is turned over (their
    order is hidden from their owners too)."""
    if not body["own_piles"]:
        return swap_with_pile("hands", "pile")(body, seat, rng)
    owners = [owner for owner, pile in enumerate(body["own_piles"]) if owner != seat and pile]
    if not owners:
        return None
    owner = owners[rng.below(len(owners))]
    piles = [pile[::-1] for pile in body["own_piles"]]
    traded = swap_with_pile("hand", "pile")({"hand": [body["hands"][owner]], "pile": piles[owner]}, None, rng)
    if traded is not None:
        piles[owner] = traded["pile"]
    hands = [traded["hand"][0] if traded is not None and o == owner else h for o, h in enumerate(body["hands"])]
    return {**body, "hands": hands, "own_piles": piles}
def swap_with_own_pile(body: dict[str, Any], seat: int | None, rng: Rng) -> dict[str, Any] | None:
    """A perturbation for games with a pile per player (D!Git): a tile of another seat's hand trades
    places with a different tile of that seat's own pile, and every pile (the viewer's too: it lies
    face down) is turned upside down."""
    hands, piles = [list(h) for h in body["hands"]], [list(p)[::-1] for p in body["piles"]]
    owners = [o for o, hand in enumerate(hands) if o != seat and hand and any(t not in hand for t in piles[o])]
    if owners:
        owner = owners[rng.below(len(owners))]
        hand, pile = hands[owner], piles[owner]
        different = [j for j, tile in enumerate(pile) if tile not in hand]
        i, j = rng.below(len(hand)), different[rng.below(len(different))]
        hand[i], pile[j] = pile[j], hand[i]
    elif piles == body["piles"]:
        return None
    return {**body, "hands": hands, "piles": piles}


def _changed_bids(body: dict[str, Any], seat: int | None) -> dict[str, Any]:
    bids = [bid if owner == seat or bid is None else bid % 13 + 1 for owner, bid in enumerate(body["bids"])]
    return {**body, "bids": bids}


def _qwiply_bids(state: State[Any], seat: int | None) -> dict[str, Any] | None:
    """Qwiply with hidden bids: the others' bids are theirs to know until the end."""
    if state.game.options.bids != "hidden":
        return None
    body = state.to_body()
    sheets = [
        sheet
        if owner == seat or sheet["bids"] is None
        else {**sheet, "bids": {suit: (bid + 1) % 12 for suit, bid in sheet["bids"].items()}}
        for owner, sheet in enumerate(body["sheets"])
    ]
    return {**body, "sheets": sheets}


def _renamed(rnd: dict[str, Any] | None, seat: int | None) -> dict[str, Any] | None:
    """PDQ's Word Count: the words another seat listed in the round in play are theirs to know."""
    if rnd is None or rnd.get("mode") != "word-count":
        return rnd
    claims = [
        claim if claim["player"] == seat else {**claim, "word": "q" * (4 + i % 3)}
        for i, claim in enumerate(rnd["claims"])
    ]
    return {**rnd, "claims": claims}


# --- the checks -----------------------------------------------------------------------------------
def walk(value: Any) -> Iterator[Any]:
    """Every value inside a JSON value, itself included."""
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from walk(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from walk(item)


def leaks(view: Any, secrets: Sequence[Any]) -> list[str]:
    """The hidden values found in ``view``: a secret number anywhere, a secret text (4+ characters)
    inside any text, a secret list or object anywhere, a secret list's first tiles (4 of 6+) in a row
    inside any list, or a secret list of texts (3+) spelled out inside any text."""
    found: list[str] = []
    values = list(walk(view))
    texts = [v for v in values if isinstance(v, str)]
    lists = [v for v in values if isinstance(v, list)]
    for secret in secrets:
        if isinstance(secret, bool) or secret is None:
            continue
        if isinstance(secret, int):
            numbers = (v for v in values if isinstance(v, int) and not isinstance(v, bool))
            if secret >= 1 << 20 and any(v == secret for v in numbers):
                found.append(f"the number {secret}")
        elif isinstance(secret, str):
            # As a whole token: a hidden word "chemo" is not leaked by a shown "chemotherapy".
            token = re.compile(rf"(?<![A-Za-z0-9]){re.escape(secret)}(?![A-Za-z0-9])")
            if len(secret) >= 4 and any(token.search(text) for text in texts):
                found.append(f"the text {secret!r}")
        elif isinstance(secret, list):
            if len(secret) >= 3 and any(v == secret for v in lists):
                found.append(f"the list {secret!r:.80}")
            if len(secret) >= 6:
                head = secret[:4]
                if any(_contains_run(v, head) for v in lists):
                    found.append(f"the run {head!r}")
            if len(secret) >= 3 and all(isinstance(s, str) for s in secret):
                spelled = "".join(secret)
                if len(spelled) >= 6 and any(spelled in text for text in texts):
                    found.append(f"the spelling {spelled!r:.80}")
        elif isinstance(secret, dict) and secret and any(v == secret for v in values if isinstance(v, dict)):
            found.append(f"the object {secret!r:.80}")
    return found


def _contains_run(items: list[Any], run: list[Any]) -> bool:
    return any(items[i : i + len(run)] == run for i in range(len(items) - len(run) + 1))


GARBAGE_TEXTS = ("", " ", "pass pass", "0,0", "@@@", "claim", "draw", "swap", "9999,9999a Zz", "\x00", "é", "-1")


def garbage_moves(game: Game[Any, Any, Any], state: State[Any], rng: Rng, count: int) -> list[str]:
    """Texts no seat may play here: fixed junk, mutated notations of legal moves."""
    texts = [GARBAGE_TEXTS[rng.below(len(GARBAGE_TEXTS))] for _ in range(count)]
    for seat in state.acting_players():
        legal = state.legal_moves(seat)
        if legal:
            text = legal[rng.below(len(legal))].to_text()
            cut = rng.below(len(text) + 1)
            texts.append(text[:cut] + "#" + text[cut:])
    return texts


def assert_unchanged_after_refusals(game: Game[Any, Any, Any], state: State[Any], rng: Rng, count: int,
                                    foreign: list[tuple[int, Move]]) -> None:  # fmt: skip
    """Garbage from every seat, moves legal for other seats, and moves from another position: each
    raises an EngineError and leaves the saved state exactly as it was."""
    before = state.to_json()
    acting = state.acting_players()
    seats = list(range(game.players)) + [CHANCE, REFEREE]
    junk = garbage_moves(game, state, rng, count)
    tries: list[tuple[int, Any]] = [(seats[rng.below(len(seats))], text) for text in junk]
    for seat in acting:  # a legal move of one seat, tried by a seat that may not make it
        for move in state.legal_moves(seat)[:1]:
            for other in seats:
                if other != seat and not _legal_for(state, other, move):
                    tries.append((other, move))
    tries += [(seat, move) for seat, move in foreign if not _legal_for(state, seat, move)]
    for seat, move in tries:
        try:
            state.clone().act(seat, move)  # a clone first: a refusal must not need the real state
        except EngineError:
            pass
        else:
            continue  # legal after all (a bluff the generator does not list, say): not a refusal test
        try:
            state.act(seat, move)
        except EngineError:
            after = state.to_json()
            assert after == before, f"refused {move!r} by seat {seat} changed the state"
        else:
            raise AssertionError(f"{move!r} by seat {seat} was refused on a clone but played on the state")


def _legal_for(state: State[Any], seat: int, move: Move) -> bool:
    try:
        state.clone().act(seat, move)
    except EngineError:
        return False
    return True


def assert_views_hide_secrets(state: State[Any]) -> None:
    """No view holds a hidden value (searched deeply), every hidden move in the history shows as its
    public text, and reordering a secret part (the pile) changes no view: its order is invisible.
    (A table game hides nothing but its stand-in deal: :func:`assert_table_views`.)"""
    if state.game.options.table:
        assert_table_views(state)
        return
    over = state.is_terminal()
    body = state.to_body()
    for viewer in [*range(state.game.players), None]:
        view = state.view(viewer)
        json.dumps(view)  # a view is JSON
        secrets = [
            value
            for key, part in state.VIEW.items()
            if not isinstance(part, Secret)  # a secret part is checked by reordering it, below
            for value in part.secrets(body[key], viewer, over)
        ]
        secrets += [value for value in (state.seed, None if state.rng is None else state.rng.state) if value]
        if not over:
            secrets += HIDDEN[state.game.name](state, viewer)
        found = leaks(view, secrets)
        assert not found, f"the view of {viewer} shows hidden values: {found[:3]}"
        for (seat, move), (shown_seat, shown) in zip(state.history, view["history"], strict=True):
            hidden = state.redacted(seat, move, viewer)
            assert shown_seat == seat and shown == (move.to_text() if hidden is None else hidden)
            if hidden is not None:
                assert hidden != move.to_text(), f"{move.to_text()!r} is hidden from {viewer} by its own text"
    perturb = PERTURB.get(state.game.name)
    if perturb is not None and not over:
        rng = Rng(state.version + 1)
        for viewer in [*range(state.game.players), None]:
            changed = perturb(state, viewer, rng)
            if changed is None:
                continue
            try:
                twin = state.game._state_from_body(changed, state.seed, state.rng)
            except EngineError:
                continue  # the engine's own checks tie the changed part to the rest
            twin.__class__ = type(state)
            twin.history, twin.version = state.history, state.version
            assert twin.view(viewer) == state.view(viewer), f"the view of {viewer} shows what it cannot know"
    for key, part in state.VIEW.items():
        value = body[key]
        ordered = isinstance(value, list | str) and len(value) >= 2 and value != value[::-1]
        if isinstance(part, Secret) and not (over and part.until_end) and ordered:
            _assert_order_invisible(state, key, value[::-1])


def _assert_order_invisible(state: State[Any], key: str, reordered: Any) -> None:
    try:
        twin = state.game._state_from_body({**state.to_body(), key: reordered}, state.seed, state.rng)
    except EngineError:
        return  # the engine's own checks tie this order to the rest (nothing to compare)
    twin.history, twin.version = state.history, state.version
    for viewer in [*range(state.game.players), None]:
        assert twin.view(viewer) == state.view(viewer), f"the order of {key!r} shows in the view of {viewer}"


# --- table mode (engine/table.py) ---------------------------------------------------------------------
def table_secrets(state: State[Any]) -> list[Any]:
    """A table game's stand-in deal, which no view may show: every hand, and the head of every pile."""
    if not isinstance(state, TableTiles):
        return []
    return [*(list(hand) for hand in state.hands if hand), *(run for pile in state.table_piles() for run in head(pile))]


def assert_table_views(state: State[Any]) -> None:
    """At the table nothing is secret, so every seat sees what a spectator sees, the whole history included;
    and no view invents a hand: none shows the stand-in deal, and trading two of its pieces between a hand
    and another place (what the engine does before an entry) changes no view."""
    spectator = state.view(None)
    json.dumps(spectator)
    # What a view adds for its reader (Qwiply's advice on one's own bids, the claimer's choices) is help, not a part.
    helps = {key for viewer in [*range(state.game.players), None] for key in state.view_extras(viewer)}
    shown = {key: value for key, value in spectator.items() if key not in helps and key != "seat"}
    for viewer in range(state.game.players):
        seen = {key: value for key, value in state.view(viewer).items() if key not in helps and key != "seat"}
        assert seen == shown, f"the table shows seat {viewer} something else"
    found = leaks(spectator, table_secrets(state))
    assert not found, f"a table view shows the stand-in deal: {found[:3]}"
    assert spectator["history"] == [[seat, move.to_text()] for seat, move in state.history]
    if isinstance(state, TableTiles):
        twin = state.clone()
        places = [*twin.hands, *twin.table_piles()]
        pairs = [(a, b) for a in places[: len(twin.hands)] for b in places if a is not b and a and b and a[0] != b[-1]]
        if pairs:
            a, b = pairs[0]
            a[0], b[-1] = b[-1], a[0]
            assert twin.view(None) == spectator, "the table's view changes with the stand-in deal"


def play_table_checked(spec: str, seed: int, choose: Chooser, case: Case) -> State[Any]:
    """A dealt game (each move from ``choose``) entered at the table, with every check of the suite on the table
    state at every ``case.every``-th entry (views by :func:`assert_table_views`), each entry made and taken back
    first, and at the end the entries replayed and rebuilt exactly."""
    rng, foreign, steps = Rng(seed ^ 0xC0FFEE), [], [0]

    def check(table: State[Any], entry: tuple[int, str] | None) -> None:
        deep = steps[0] % case.every == 0 or entry is None
        steps[0] += 1
        table.check_invariants()
        assert_chance_is_a_distribution(table)
        if deep:
            assert_round_trip(table.game, table)
            assert_views_hide_secrets(table)
            assert_notation_round_trips(table.game, table)
            assert_unchanged_after_refusals(table.game, table, rng, case.garbage, foreign[-6:])
        if entry is not None:
            before, undo = table.to_json(), []
            table.act(*entry, version=table.version, undo=undo)
            table.restore(undo[0])
            assert table.to_json() == before
            foreign.append((entry[0], table.game.parse_move(entry[1])))

    _, table = reenter(spec, seed, choose, check)
    assert table.acting_players() == [] and table.outcome() is not None
    entries = [(seat, move.to_text()) for seat, move in table.history]
    assert table.game.replay(None, entries).to_json() == table.to_json()
    assert rebuild(table.game, entries).state.to_json() == table.to_json()
    return table


def assert_notation_round_trips(game: Game[Any, Any, Any], state: State[Any]) -> None:
    for seat in [*state.acting_players(), REFEREE]:
        for move in state.legal_moves(seat):
            assert game.parse_move(move.to_text()) == move, f"{move!r} does not read back from {move.to_text()!r}"


def assert_round_trip(game: Game[Any, Any, Any], state: State[Any]) -> None:
    data = state.to_json()
    again = game.state_from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data
    assert again.acting_players() == state.acting_players()


def assert_chance_is_a_distribution(state: State[Any]) -> None:
    outcomes = state.chance_outcomes()
    if state.acting_players() == [CHANCE]:
        assert outcomes and abs(sum(p for _, p in outcomes) - 1) < 1e-9
        assert all(p > 0 for _, p in outcomes)
    else:
        assert outcomes == []


def play_checked(game: Game[Any, Any, Any], bots: Sequence[Bot], seed: int, case: Case) -> State[Any]:
    """Play one seeded game with every check at every ``case.every``-th step; the final state."""
    state = game.new_initial_state(seed)
    rng = Rng(seed ^ 0xC0FFEE)
    foreign: list[tuple[int, Move]] = []  # moves legal in earlier positions, tried again later
    for step in range(case.max_moves):
        deep = step % case.every == 0
        state.check_invariants()
        assert_chance_is_a_distribution(state)
        if deep:
            assert_round_trip(game, state)
            assert_views_hide_secrets(state)
            assert_notation_round_trips(game, state)
            assert_unchanged_after_refusals(game, state, rng, case.garbage, foreign[-6:])
        if state.is_terminal():
            break
        chosen = next_move(state, bots)
        assert chosen is not None, f"nobody acts at step {step} (acting: {state.acting_players()})"
        seat, move = chosen
        version = state.version
        if deep:  # a move played and taken back (the match server's failed commit): as it was
            before, undo = state.to_json(), []
            state.act(seat, move, version=version, undo=undo)
            state.restore(undo[0])
            assert state.version == version and state.to_json() == before
        breakdown = state.act(seat, move, version=version)
        assert state.version == version + 1
        assert breakdown.total == sum(item.points for item in breakdown.items)
        foreign.append((seat, move))
    assert state.is_terminal(), f"seed {seed}: no end within {case.max_moves} moves"
    outcome = state.outcome()
    assert state.acting_players() == [] and outcome is not None
    # The game's measure of who is ahead (``standing``) gives its own winners: a seat that left passes its win on by it.
    assert state.forfeit_outcome((), outcome.reason) == outcome
    assert_round_trip(game, state)
    assert_views_hide_secrets(state)
    replayed = game.replay(seed, [(seat, move.to_text()) for seat, move in state.history])
    assert replayed.to_json() == state.to_json()
    return state


def bots_for(game: Game[Any, Any, Any], name: str, seed: int) -> list[Bot]:
    return [make_bot(name, seed * 1000 + seat, game) for seat in range(game.players)]


def turn_for(state: State[Any], seat: int) -> Turn:
    return Turn(state, seat)


# --- recorded reference games -----------------------------------------------------------------
def record_game(game: Game[Any, Any, Any], bots: str, seed: int) -> dict[str, Any]:
    """A reference game: the spec, seed and bots, every move by a seat with its breakdown, the end."""
    names = [name.strip() for name in bots.split(",")]
    seats = [make_bot(name, seed * 1000 + seat, game) for seat, name in enumerate(names)]
    state = game.new_initial_state(seed)
    moves = []
    while not state.is_terminal():
        chosen = next_move(state, seats)
        assert chosen is not None
        seat, move = chosen
        breakdown = state.act(seat, move)
        moves.append({"seat": seat, "move": move.to_text(), "breakdown": breakdown.to_json()})
    outcome = state.outcome()
    assert outcome is not None
    return {"spec": game.spec(), "bots": bots, "seed": seed, "moves": moves, "final": outcome.to_json(),
            "version": state.version}  # fmt: skip


def replay_reference(game: Game[Any, Any, Any], record: dict[str, Any]) -> None:
    """The recorded moves replay with the same breakdowns and end; the bots still choose them."""
    names = [name.strip() for name in record["bots"].split(",")]
    seats = [make_bot(name, record["seed"] * 1000 + seat, game) for seat, name in enumerate(names)]
    state = game.new_initial_state(record["seed"])
    for number, entry in enumerate(record["moves"]):
        chosen = next_move(state, seats)
        assert chosen is not None
        assert (chosen[0], chosen[1].to_text()) == (entry["seat"], entry["move"]), f"move {number}: the bots differ"
        breakdown = state.act(entry["seat"], entry["move"])
        assert breakdown.to_json() == entry["breakdown"], f"move {number} ({entry['move']}) scores differently"
    outcome = state.outcome()
    assert outcome is not None and outcome.to_json() == record["final"]
    assert state.version == record["version"]


def legal_counts(state: State[Any]) -> dict[str, int]:
    return {str(seat): len(state.legal_moves(seat)) for seat in state.acting_players()}
