"""The BOP! game and its state: set-up, turns, challenges, swaps, the end. Rules live in
``engine.bop.rules`` (words, scoring) and ``engine.bop.board`` (geometry); this module sequences them.
"""

from __future__ import annotations

import copy
import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine.adjudicator import Adjudicator
from engine.base import Breakdown, Game, JsonDict, Outcome, ScoredMove, ScoreItem, State, check_keys
from engine.bop.board import Board, Cell, format_board, format_cell, lines_through, play_lines
from engine.bop.movegen import generate_plays, move_index
from engine.bop.moves import BopMove, Challenge, Pass, Play, Swap, parse_move
from engine.bop.rules import AdjudicatorJudge, WordCheck, check_words, score_play
from engine.bop.tiles import BOP, CONSONANTS, HAND_SIZE, TILE, BopOptions, parse_tiles, tile_letter
from engine.errors import EngineError, GameOverError, IllegalMoveError, NotationError, StateError, WrongPlayerError
from engine.rng import Rng

#: The parts of a state that a play changes, restored when a challenge withdraws it.
POSITION_KEYS = (
    "board", "hands", "pile", "scores", "current", "skips", "passes_in_row", "last_turns",
    "over", "end_reason", "penalties", "turns",
)  # fmt: skip


class BopGame(Game[BopOptions, "BopState", BopMove]):
    """BOP! with one variant configuration (``BopOptions``) and an adjudicator."""

    name = "bop"
    options_type = BopOptions

    def __init__(
        self, options: BopOptions | Mapping[str, Any] | str | None = None, adjudicator: Adjudicator | None = None
    ) -> None:
        super().__init__(options, adjudicator)
        self.judge = AdjudicatorJudge(self.adjudicator)
        self.tile_counts: Counter[str] = self.options.tile_counts()

    def parse_move(self, text: str) -> BopMove:
        return parse_move(text)

    def new_initial_state(self, seed: int) -> BopState:
        """The sheet's set-up: a draw for first player (closest to Z; ties redraw), tiles returned and
        jumbled, 5 tiles each, the rest stacked as the pile, its top tile face up as the starter."""
        rng = Rng(seed)
        players = self.options.players
        draws: list[list[tuple[int, str]]] = []
        contenders = list(range(players))
        while True:
            bag = self.options.tile_set()
            rng.shuffle(bag)
            drawn = list(zip(contenders, bag, strict=False))
            draws.append(drawn)
            best = max(draw_rank(tile) for _, tile in drawn)
            contenders = [player for player, tile in drawn if draw_rank(tile) == best]
            if len(contenders) == 1:
                break
        first = contenders[0]
        tiles = self.options.tile_set()
        rng.shuffle(tiles)
        hands: list[list[str]] = [[] for _ in range(players)]
        for seat in range(players):  # dealt from the first player round to the left, 5 at a time
            player = (first + seat) % players
            hands[player], tiles = tiles[:HAND_SIZE], tiles[HAND_SIZE:]
        starter, pile = tiles[0], tiles[1:]
        return BopState(
            self, seed=seed, board={(0, 0): starter}, hands=hands, pile=pile, current=first, rng=rng,
            first_player=first, first_draws=draws,
        )  # fmt: skip

    def from_position(
        self, board: Mapping[Cell, str], hands: Sequence[Sequence[str]], current: int = 0, seed: int = 0
    ) -> BopState:
        """A state with a given grid and hands (for hints, fixtures, tests); the remaining tiles,
        shuffled by ``seed``, are the pile. StateError if the tiles are not in the box."""
        used = Counter(board.values()) + Counter(t for hand in hands for t in hand)
        rest = self.tile_counts - used
        extra = used - self.tile_counts
        if extra:
            raise StateError(f"more tiles than the box holds: {', '.join(sorted(extra.elements()))}")
        if len(hands) != self.options.players:
            raise StateError(f"{len(hands)} hands for {self.options.players} players")
        rng = Rng(seed)
        pile = sorted(rest.elements())
        rng.shuffle(pile)
        return BopState(
            self, seed=seed, board=dict(board), hands=[list(h) for h in hands], pile=pile, current=current, rng=rng,
            first_player=current, first_draws=[],
        )  # fmt: skip

    def state_from_json(self, data: Mapping[str, Any]) -> BopState:
        check_keys(data, ["game", "options", *POSITION_KEYS, "seed", "rng", "first_player", "first_draws",
                          "pending", "history"], "BOP! state")  # fmt: skip
        if data["game"] != self.name:
            raise StateError(f"a {data['game']!r} state, not a BOP! one")
        if data["options"] != self.options.to_json():
            raise StateError("the state was saved under other options than this game's")
        try:
            rng_state = _int(data["rng"])
            if not 0 <= rng_state < 1 << 64:
                raise StateError("rng must be a 64-bit unsigned integer")
            state = BopState(
                self,
                seed=_int(data["seed"]),
                board={(_int(r), _int(c)): _tile(t) for r, c, t in _list(data["board"])},
                hands=[[_tile(t) for t in _list(hand)] for hand in _list(data["hands"])],
                pile=[_tile(t) for t in _list(data["pile"])],
                current=_int(data["current"]),
                rng=Rng.from_json(rng_state),
                first_player=_int(data["first_player"]),
                first_draws=[[(_int(p), _tile(t)) for p, t in _list(draw)] for draw in _list(data["first_draws"])],
            )
            state.scores_ = [_int(s) for s in _list(data["scores"])]
            state.skips = [_int(s) for s in _list(data["skips"])]
            state.passes_in_row = _int(data["passes_in_row"])
            state.last_turns = None if data["last_turns"] is None else [_int(p) for p in _list(data["last_turns"])]
            state.over = data["over"] if isinstance(data["over"], bool) else _fail("over must be true or false")
            reason = data["end_reason"]
            state.end_reason = reason if reason is None or isinstance(reason, str) else _fail("end_reason: text")
            state.penalties = None if data["penalties"] is None else [_int(p) for p in _list(data["penalties"])]
            state.turns = _int(data["turns"])
            state.pending = copy.deepcopy(data["pending"])
            state.history = [(_int(p), parse_move(_str(text))) for p, text in _list(data["history"])]
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, StateError):
                raise
            raise StateError(f"BOP! state: {error}") from error
        if len(state.scores_) != self.options.players or state.first_player not in range(self.options.players):
            raise StateError("BOP! state: scores and first player must fit the number of players")
        state.check_tiles()
        state.check_turn_order()
        if state.pending is not None:
            state.check_pending()
        return state


def _fail(message: str) -> Any:
    raise StateError(f"BOP! state: {message}")


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else _fail(f"{value!r} is not an integer")


def _str(value: Any) -> str:
    return value if isinstance(value, str) else _fail(f"{value!r} is not text")


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else _fail(f"{value!r} is not a list")


def _tile(value: Any) -> str:
    if not isinstance(value, str) or not TILE.fullmatch(value):
        _fail(f"{value!r} is not a tile")
    try:
        return parse_tiles(value)[0]
    except NotationError as error:
        raise StateError(f"BOP! state: {error}") from None


def draw_rank(tile: str) -> int:
    """For the first-player draw, "closest to Z" goes first; the BOP! tile, no letter, ranks lowest."""
    return -1 if tile == BOP else CONSONANTS.index(tile_letter(tile))


class BopState(State[BopMove]):
    game: BopGame

    def __init__(
        self,
        game: BopGame,
        *,
        seed: int,
        board: Board,
        hands: list[list[str]],
        pile: list[str],
        current: int,
        rng: Rng,
        first_player: int,
        first_draws: list[list[tuple[int, str]]],
    ) -> None:
        self.game = game
        self.seed = seed
        self.board = board
        self.hands = hands
        self.pile = pile  # pile[0] is the top
        self.current = current
        self.rng = rng
        self.first_player = first_player
        self.first_draws = first_draws
        players = game.options.players
        self.scores_: list[int] = [0] * players
        self.skips: list[int] = [0] * players  # turns lost to failed challenges, still to lose
        self.passes_in_row = 0
        self.last_turns: list[int] | None = None  # players still owed their last turn, once triggered
        self.over = False
        self.end_reason: str | None = None
        self.penalties: list[int] | None = None
        self.turns = 0
        self.pending: dict[str, Any] | None = None  # challenge mode: the play that may be challenged
        self.history: list[tuple[int, BopMove]] = []

    # --- questions -------------------------------------------------------------------------------
    @property
    def options(self) -> BopOptions:
        return self.game.options

    @property
    def players(self) -> int:
        return self.game.options.players

    @property
    def current_player(self) -> int:
        return -1 if self.over else self.current

    def is_terminal(self) -> bool:
        return self.over

    def scores(self) -> tuple[int, ...]:
        return tuple(self.scores_)

    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        best = max(self.scores_)
        winners = tuple(p for p, s in enumerate(self.scores_) if s == best)
        return Outcome(tuple(self.scores_), winners, self.end_reason or "")

    def hand(self, player: int | None = None) -> list[str]:
        return self.hands[self.current if player is None else player]

    def legal_plays(self) -> list[ScoredMove[Play]]:
        """Every play of the current player whose lines are words, best first (hints, bots)."""
        if self.over:
            return []
        return generate_plays(self.board, self.hands[self.current], move_index(self.game.adjudicator.lexicon))

    def legal_swaps(self) -> list[Swap]:
        if self.over:
            return []
        swaps = []
        for cell in sorted(c for c, t in self.board.items() if t == BOP):
            for tile in sorted(set(self.hands[self.current]) - {BOP}):
                if self._swap_check(cell, tile).valid:
                    swaps.append(Swap(cell, tile))
        return swaps

    def legal_passes(self) -> list[Pass]:
        """Trades of some, all or none of the hand (at most as many tiles as the pile holds)."""
        if self.over:
            return []
        hand = sorted(self.hands[self.current])
        most = min(len(hand), len(self.pile))
        trades = {combo for k in range(most + 1) for combo in itertools.combinations(hand, k)}
        return [Pass(trade) for trade in sorted(trades, key=lambda t: (len(t), t))]

    def can_challenge(self, player: int) -> bool:
        return self.pending is not None and player != self.pending["player"]

    def legal_moves(self) -> list[BopMove]:
        """Challenge (when a play may be challenged), swaps, word plays best first, passes.
        Bluffs (plays with non-words, allowed in challenge mode) are legal but not listed."""
        if self.over:
            return []
        moves: list[BopMove] = [Challenge()] if self.can_challenge(self.current) else []
        moves += self.legal_swaps()
        moves += [scored.move for scored in self.legal_plays()]
        moves += self.legal_passes()
        return moves

    def scored_moves(self) -> list[ScoredMove[BopMove]]:
        """For the greedy bot: a challenge it knows succeeds first, then plays best first, then a
        pass trading every letter tile in hand (what a player with no play does)."""
        if self.over:
            return []
        ranked: list[ScoredMove[BopMove]] = []
        if self.can_challenge(self.current) and not self.pending_check().valid:
            ranked.append(ScoredMove(Challenge(), int(self.pending["points"])))  # type: ignore[index]
        ranked += self.legal_plays()  # type: ignore[arg-type]
        letters = sorted(tile for tile in self.hands[self.current] if tile != BOP)  # BOP! tiles are worth keeping
        ranked.append(ScoredMove(Pass(tuple(letters[: len(self.pile)])), 0))
        return ranked

    def pending_check(self) -> WordCheck:
        """The verdict on the play that may be challenged (the board has not changed since)."""
        if self.pending is None:
            raise IllegalMoveError("nothing_to_challenge", "there is no play to challenge")
        play = parse_move(self.pending["move"])
        assert isinstance(play, Play)
        lines = play_lines(self.pending_board(), play.as_dict())
        return check_words(self.board, lines, self.game.judge)

    def pending_board(self) -> Board:
        assert self.pending is not None
        return {(r, c): t for r, c, t in self.pending["before"]["board"]}

    # --- moves -----------------------------------------------------------------------------------
    def apply(self, move: BopMove, player: int | None = None) -> Breakdown:
        if self.over:
            raise GameOverError("the game is over")
        if player is not None and not 0 <= player < self.players:
            raise WrongPlayerError(f"there is no player {player}")
        if isinstance(move, Challenge):
            return self._challenge(self.current if player is None else player)
        actor = self.check_player(player)
        if isinstance(move, Play):
            return self._play(actor, move)
        if isinstance(move, Pass):
            return self._pass(actor, move)
        if isinstance(move, Swap):
            return self._swap(actor, move)
        raise IllegalMoveError("unknown_move", f"{move!r} is not a BOP! move")

    def _take_from_hand(self, hand: list[str], tiles: Sequence[str]) -> list[str]:
        """The hand left after removing ``tiles`` (IllegalMoveError if they are not all in it)."""
        missing = Counter(tiles) - Counter(hand)
        if missing:
            raise IllegalMoveError("not_in_hand", f"not in your hand: {' '.join(sorted(missing.elements()))}")
        left = list(hand)
        for tile in tiles:
            left.remove(tile)
        return left

    def _play(self, player: int, move: Play) -> Breakdown:
        tiles = move.tiles()
        if not 1 <= len(tiles) <= HAND_SIZE:
            raise IllegalMoveError("tile_count", f"play 1 to {HAND_SIZE} tiles, not {len(tiles)}")
        if len(set(move.cells())) != len(tiles):
            raise IllegalMoveError("occupied", "two tiles on one cell")
        left = self._take_from_hand(self.hands[player], tiles)
        placements = move.as_dict()
        lines = play_lines(self.board, placements)
        after = {**self.board, **placements}
        if self.options.mode == "strict":
            self._require_words(after, lines)
        breakdown = score_play(after, lines, placements.keys())
        # Checked: now change the state. Challenge mode keeps the position before the play, should a
        # challenge withdraw it; strict mode has no use for it.
        before = self._position() if self.options.mode == "challenge" else None
        pending_before = self.pending
        self.board = after
        drawn, self.pile = self.pile[: HAND_SIZE - len(left)], self.pile[HAND_SIZE - len(left) :]
        self.hands[player] = left + drawn
        self.scores_[player] += breakdown.total
        self.passes_in_row = 0
        self.pending = None
        if not self.pile and not self.hands[player] and self.last_turns is None:
            self.last_turns = [(player + k) % self.players for k in range(1, self.players)]
        self._end_turn(player)
        if before is not None:
            if self.over:
                # Nobody plays after the game's last play, so nobody could challenge it: judge it now.
                try:
                    self._require_words(after, lines)
                except IllegalMoveError:
                    self._restore(before)
                    self.pending = pending_before
                    raise
            else:
                self.pending = {"player": player, "move": move.to_text(), "points": breakdown.total, "before": before}
        self.history.append((player, move))
        return breakdown

    def _require_words(self, after: Board, lines: list[Any]) -> None:
        verdict = check_words(after, lines, self.game.judge)
        if not verdict.valid:
            raise IllegalMoveError("not_a_word", "; ".join(verdict.problems()))

    def _pass(self, player: int, move: Pass) -> Breakdown:
        if len(move.trade) > len(self.pile):
            raise IllegalMoveError(
                "trade_exceeds_pile", f"the pile holds {len(self.pile)} tiles; you cannot trade {len(move.trade)}"
            )
        left = self._take_from_hand(self.hands[player], move.trade)
        # Checked: the traded tiles go to the bottom of the pile, new ones come from the top.
        pile = self.pile + list(move.trade)
        self.hands[player] = left + pile[: len(move.trade)]
        self.pile = pile[len(move.trade) :]
        self.pending = None
        self.passes_in_row += 1
        self._end_turn(player)
        self.history.append((player, move))
        detail = f"traded {len(move.trade)} tile(s)" if move.trade else "no trade"
        return Breakdown((ScoreItem("pass", "pass", 0, detail),))

    def _swap_check(self, cell: Cell, tile: str) -> WordCheck:
        swapped = {**self.board, cell: tile}
        return check_words(swapped, lines_through(swapped, cell), self.game.judge)

    def _swap(self, player: int, move: Swap) -> Breakdown:
        if self.board.get(move.cell) != BOP:
            raise IllegalMoveError("no_bop_tile", f"there is no BOP! tile at {format_cell(move.cell)}")
        if move.tile == BOP:
            raise IllegalMoveError("swap_needs_letter", "swap a letter tile for the BOP! tile")
        left = self._take_from_hand(self.hands[player], [move.tile])
        verdict = self._swap_check(move.cell, move.tile)
        if not verdict.valid:
            problems = "; ".join(verdict.problems())
            raise IllegalMoveError("swap_does_not_work", f"{move.tile} does not work for the BOP! tile: {problems}")
        self.board = {**self.board, move.cell: move.tile}
        self.hands[player] = left + [BOP]
        self.pending = None  # the swapper's turn has begun: the last play stands
        self.history.append((player, move))
        return Breakdown((ScoreItem("swap", "swap", 0, f"{move.tile} for the BOP! tile at {format_cell(move.cell)}"),))

    def _challenge(self, challenger: int) -> Breakdown:
        if self.options.mode != "challenge":
            raise IllegalMoveError("no_challenges", "challenges are for challenge mode; strict mode refuses non-words")
        if self.pending is None:
            raise IllegalMoveError("nothing_to_challenge", "there is no play to challenge")
        challenged = int(self.pending["player"])
        if challenger == challenged:
            raise IllegalMoveError("own_play", "you cannot challenge your own play")
        verdict = self.pending_check()
        move_text, points = self.pending["move"], int(self.pending["points"])
        if not verdict.valid:
            # Upheld: the tiles are withdrawn (drawn tiles back on top of the pile) and that turn is over.
            self._restore(self.pending["before"])
            self.pending = None
            self._end_turn(challenged)
            self.history.append((challenger, Challenge()))
            problems = "; ".join(verdict.problems())
            detail = f"{problems}: player {challenged}'s {move_text} withdrawn, {points} points lost"
            return Breakdown((ScoreItem("challenge", "challenge upheld", 0, detail),))
        # Failed: the play stands; the challenger loses their next turn (this one, if it is theirs).
        self.pending = None
        if challenger == self.current:
            self._end_turn(challenger)
        else:
            self.skips[challenger] += 1
        self.history.append((challenger, Challenge()))
        return Breakdown(
            (ScoreItem("challenge", "challenge failed", 0, f"{move_text} stands; player {challenger} loses a turn"),)
        )

    # --- turn order and the end -------------------------------------------------------------------
    def _end_turn(self, player: int) -> None:
        self.turns += 1
        self._used_turn(player)
        if self.passes_in_row >= self.options.passes_to_end() and not self.over:
            self._finish("every player passed in turn")
        nxt = player
        while not self.over:
            nxt = (nxt + 1) % self.players
            if self.skips[nxt]:
                self.skips[nxt] -= 1
                self._used_turn(nxt)
                continue
            break
        self.current = nxt

    def _used_turn(self, player: int) -> None:
        if self.last_turns is not None and not self.over:
            if player in self.last_turns:
                self.last_turns.remove(player)
            if not self.last_turns:
                self._finish("a player went out after the pile ran out, and the others had their last turn")

    def _finish(self, reason: str) -> None:
        self.penalties = [len(hand) for hand in self.hands]
        self.scores_ = [score - penalty for score, penalty in zip(self.scores_, self.penalties, strict=True)]
        self.over = True
        self.end_reason = reason
        self.pending = None

    def _position(self) -> JsonDict:
        data = self.to_json()
        return {key: data[key] for key in POSITION_KEYS}

    def _restore(self, position: Mapping[str, Any]) -> None:
        self.board = {(r, c): t for r, c, t in position["board"]}
        self.hands = [list(h) for h in position["hands"]]
        self.pile = list(position["pile"])
        self.scores_ = list(position["scores"])
        self.current = position["current"]
        self.skips = list(position["skips"])
        self.passes_in_row = position["passes_in_row"]
        self.last_turns = None if position["last_turns"] is None else list(position["last_turns"])
        self.over = position["over"]
        self.end_reason = position["end_reason"]
        self.penalties = None if position["penalties"] is None else list(position["penalties"])
        self.turns = position["turns"]

    # --- JSON, views, text -----------------------------------------------------------------------
    def to_json(self) -> JsonDict:
        return {
            "game": self.game.name,
            "options": self.options.to_json(),
            "seed": self.seed,
            "board": [[r, c, t] for (r, c), t in sorted(self.board.items())],
            "hands": [list(hand) for hand in self.hands],
            "pile": list(self.pile),
            "scores": list(self.scores_),
            "current": self.current,
            "rng": self.rng.to_json(),
            "first_player": self.first_player,
            "first_draws": [[[p, t] for p, t in draw] for draw in self.first_draws],
            "skips": list(self.skips),
            "passes_in_row": self.passes_in_row,
            "last_turns": None if self.last_turns is None else list(self.last_turns),
            "over": self.over,
            "end_reason": self.end_reason,
            "penalties": None if self.penalties is None else list(self.penalties),
            "turns": self.turns,
            "pending": copy.deepcopy(self.pending),
            "history": [[p, move.to_text()] for p, move in self.history],
        }

    def view(self, player: int) -> JsonDict:
        """What ``player`` may see: the grid, their own hand, everyone's hand size, the pile's size,
        the scores, the public history (other players' traded tiles hidden). Never the pile order,
        the generator state, or the hands saved for a challenge."""
        if not 0 <= player < self.players:
            raise WrongPlayerError(f"there is no player {player}")

        def public(p: int, move: BopMove) -> str:
            if isinstance(move, Pass) and p != player and move.trade:
                return f"pass ({len(move.trade)} tiles traded)"
            return move.to_text()

        return {
            "game": self.game.name,
            "options": self.options.to_json(),
            "player": player,
            "board": [[r, c, t] for (r, c), t in sorted(self.board.items())],
            "hand": list(self.hands[player]),
            "hand_sizes": [len(hand) for hand in self.hands],
            "pile_size": len(self.pile),
            "scores": list(self.scores_),
            "current": self.current_player,
            "first_player": self.first_player,
            "first_draws": [[[p, t] for p, t in draw] for draw in self.first_draws],
            "skips": list(self.skips),
            "last_turns": None if self.last_turns is None else list(self.last_turns),
            "pending": None
            if self.pending is None
            else {"player": self.pending["player"], "move": self.pending["move"], "points": self.pending["points"]},
            "over": self.over,
            "end_reason": self.end_reason,
            "penalties": self.penalties,
            "history": [[p, public(p, move)] for p, move in self.history],
        }

    def check_tiles(self) -> None:
        """StateError unless grid + hands + pile hold exactly the box's tiles (the snapshot too)."""
        held = Counter(self.board.values()) + Counter(self.pile)
        for hand in self.hands:
            held.update(hand)
        if held != self.game.tile_counts:
            raise StateError("the grid, hands and pile do not hold exactly the box's tiles")
        if len(self.hands) != self.players or not 0 <= self.current < self.players:
            raise StateError("hands or current player do not match the number of players")

    def check_turn_order(self) -> None:
        """StateError unless the turn-order fields fit the number of players."""
        seats = range(self.players)
        if len(self.skips) != self.players or any(skip < 0 for skip in self.skips):
            raise StateError("skips must hold one count of 0 or more per player")
        if self.last_turns is not None and not set(self.last_turns) <= set(seats):
            raise StateError("last_turns names a player who is not in the game")
        if self.over != (self.penalties is not None) or (self.penalties and len(self.penalties) != self.players):
            raise StateError("a finished game has one penalty per player, a running one none")
        if any(player not in seats for player, _ in self.history) or self.passes_in_row < 0 or self.turns < 0:
            raise StateError("history, passes or turns out of range")

    def check_pending(self) -> None:
        """StateError unless the play awaiting a challenge is a play by a player, with its position."""
        pending = self.pending
        problem = "the play awaiting a challenge is not a valid saved play"
        if not isinstance(pending, dict) or self.options.mode != "challenge" or self.over:
            raise StateError(f"BOP! state: {problem}")
        try:
            move = parse_move(pending["move"])
            well_formed = (
                isinstance(move, Play)
                and pending["player"] in range(self.players)
                and isinstance(pending["points"], int)
                and set(pending["before"]) == set(POSITION_KEYS)
            )
            if well_formed:  # loading the position before the play checks its tiles and turn order
                self.game.state_from_json({**self.to_json(), **pending["before"], "pending": None})
        except (KeyError, TypeError, EngineError) as error:
            raise StateError(f"BOP! state: {problem} ({error})") from None
        if not well_formed:
            raise StateError(f"BOP! state: {problem}")

    def board_text(self) -> str:
        return format_board(self.board)

    def __repr__(self) -> str:
        status = "over" if self.over else f"player {self.current} to move"
        return f"<BopState turn {self.turns}, {len(self.board)} tiles down, pile {len(self.pile)}, {status}>"
