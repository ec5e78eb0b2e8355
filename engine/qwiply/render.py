"""A Qwiply view as text for the terminal: the table (round, roll, lead), then every sheet as the paper
one is printed (:meth:`engine.qwiply.sheet.Sheet.to_text`), then what the viewer may do now.

It reads only the view (``state.view(seat)``), so it shows exactly what that seat may see: another
player's sealed set-up as "sealed", their bids as ``?`` while bids are hidden.
"""

from __future__ import annotations

from typing import Any

from engine.qwiply.moves import parse_move
from engine.qwiply.options import QwiplyOptions
from engine.qwiply.rules import score_sheet
from engine.qwiply.sheet import MAIN_SUITS, SUIT_KEYS, Sheet, parse_suit
from engine.values import JsonDict

SUIT_ORDER = ", ".join(suit.title for suit in MAIN_SUITS)


def render_view(view: JsonDict) -> str:
    options = QwiplyOptions.from_mapping(view["options"])
    phase = view["phase"]
    blocks = [_table(view, options)]
    for owner, entry in enumerate(view["sheets"]):
        if phase != "setup" or owner == view["seat"]:  # blank sheets tell nothing: only the viewer's own
            blocks.append(_sheet_block(view, options, owner, entry))
    prompt = _prompt(view, options)
    if prompt:
        blocks.append(prompt)
    return "\n\n".join(blocks)


def _who(view: JsonDict, owner: int) -> str:
    return f"player {owner}" + (" (you)" if owner == view["seat"] else "")


def _table(view: JsonDict, options: QwiplyOptions) -> str:
    bids = "bids hidden until the end" if options.bids_hidden else "bids public"
    head = f"Qwiply, {options.players} players, {bids}"
    phase = view["phase"]
    if phase == "setup":
        done = [_who(view, s) for s, sealed in enumerate(view["setups"]) if sealed]
        waiting = [_who(view, s) for s, sealed in enumerate(view["setups"]) if not sealed]
        lines = [f"{head}: set-up (everyone at once; each set-up stays sealed until all are in)"]
        if done:
            lines.append("set up: " + ", ".join(done))
        lines.append("still to set up: " + ", ".join(waiting))
        return "\n".join(lines)
    if phase == "first_player":
        return f"{head}: every sheet is set up; the first start player is drawn"
    number = view["rounds_played"] + (0 if phase == "over" else 1)
    if phase == "over":
        return f"{head}: game over after {view['rounds_played']} rounds"
    lines = [f"{head}: round {number}, player {view['start']} starts (and claims last)"]
    if view["white"] is None:
        lines.append("dice: not rolled yet")
    else:
        purple, unclaimed = (" ".join(map(str, view[key])) or "-" for key in ("purple", "unclaimed"))
        lines.append(f"dice: white {view['white']}  purple {purple}  (unclaimed: {unclaimed})")
    if view["lead"] is not None:
        lines.append(f"lead suit: {parse_suit(view['lead']).title}")
    return "\n".join(lines)


def _sheet_block(view: JsonDict, options: QwiplyOptions, owner: int, entry: dict[str, Any]) -> str:
    hidden = bool(entry.get("bids_hidden"))
    data = {key: value for key, value in entry.items() if key != "bids_hidden"}
    if hidden:  # the sheet reads back with stand-in bids, which are then not printed
        data["bids"] = dict.fromkeys(SUIT_KEYS[: len(MAIN_SUITS)], 0)
    sheet = Sheet.from_json(data)
    title = _who(view, owner)
    sealed = view["setups"][owner] if view["phase"] == "setup" else None
    if isinstance(sealed, str) and sealed.startswith("setup"):  # the viewer's own: its sheet as it will be
        setup = parse_move(sealed)
        sheet = Sheet().with_setup(setup.crossed, setup.bids)  # type: ignore[union-attr]
        title += ": your set-up, sealed until everyone's is in"
    elif view["phase"] == "setup":
        title += ": set up, sealed" if sealed else ": not set up yet"
    score = view["scores"][owner]
    if sheet.is_set_up and view["phase"] != "setup":
        standing = "" if view["phase"] == "over" else " as it stands"
        title += ": bids hidden" if hidden else f": {score} point{'' if abs(score) == 1 else 's'}{standing}"
    text = sheet.to_text(show_bids=not hidden, penalty_boxes=options.end_penalties)
    lines = [title, *("  " + line for line in text.splitlines())]
    if view["phase"] == "over" and sheet.is_set_up:
        lines += ["  " + line for line in score_sheet(sheet, options).text().splitlines()]
    return "\n".join(lines)


def _prompt(view: JsonDict, options: QwiplyOptions) -> str | None:
    seat = view["seat"]
    if seat is None or seat not in view["acting"]:
        return None
    phase = view["phase"]
    if phase == "setup":
        hint = view.get("bid_advice")
        return "\n".join([
            "Your set-up: cross out one number (1-6) in each main row and bid how many rounds you will win",
            f"of each main suit (0-11), both in sheet order ({SUIT_ORDER}), e.g.",
            "  setup x=1,2,3,4,5 bid=3,3,3,3,3",
            *([f"hint: {hint}"] if hint else []),
        ])  # fmt: skip
    if phase == "lead":
        return "You declare the lead suit (never the starfish): lead sun | palm | drink | glasses | water"
    if phase == "claim":
        choices = view.get("choices") or []
        width = max((len(choice["move"]) for choice in choices), default=0)
        lines = ["Your claims (the die decides the row unless one is named):"]
        lines += [f"  {c['move']:<{width}}  {c['does']}  ({c['points']:+d})" for c in choices]
        return "\n".join(lines)
    return None
