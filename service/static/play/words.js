// What the match page says in words rather than codes (issue 26): bots named as the games list names them,
// whether a game keeps a score at all, why a game ended.

/** The three levels every game offers, one sentence each (a game's plug-in may say it its own way). */
const LEVEL_WORDS = {
  easy: "Easy bot: short, obvious moves, as a beginner plays",
  normal: "Normal bot: takes its best score every turn",
  hard: "Hard bot: weighs the tiles it keeps and what it leaves open, and looks a turn ahead",
};

/** A bot as the new-game menu offers it ("Normal bot: takes its best score every turn"). */
export function botWords(plugin, bot) {
  const name = bot.split(":")[0];
  return plugin.bots?.[bot] || plugin.bots?.[name] || LEVEL_WORDS[name] || `${bot} bot`;
}

/**
 * The body with each bot's seat named "Bot · KIND", KIND the name the seat carries (the server names a bot's
 * seat by its kind or level: "sharp", "greedy"; a seat its player left, by the bot that took it), so that
 * the games list and the game name it alike (issue 38: "PDQ with sharp" in the list was "Bot" in the game).
 * "Bot 1 · greedy", "Bot 2 · greedy" where two are alike. Every line that names a seat reads
 * ``body.seats[seat].name``, so they all agree; the menu's words for the kind are the card's description.
 */
export function nameBots(body, plugin) {
  // A player who resigned keeps their name, said so, though a bot may play the seat on (leave.js).
  for (const seat of body.seats) {
    if (!seat.resigned || seat.kind !== undefined) continue;
    seat.kind = "resigned";
    seat.name = `${seat.name || `Player ${seat.seat + 1}`} (resigned)`;
  }
  const bots = body.seats.filter((seat) => seat.bot && !seat.resigned);
  const kinds = bots.map((seat) => {
    if (seat.kind === undefined) seat.kind = seat.left || !seat.name ? seat.bot : seat.name; // (named once per body)
    return String(seat.kind).replace(/:/g, " ");
  });
  bots.forEach((seat, index) => {
    const twins = kinds.filter((kind) => kind === kinds[index]).length;
    const number = twins > 1 ? ` ${kinds.slice(0, index + 1).filter((kind) => kind === kinds[index]).length}` : "";
    seat.name = `Bot${number} · ${kinds[index]}`;
  });
  return body;
}

/** A bot's kind as the menu says it, without its name: "plays its best score", "sharp (about 4 s a word)". */
export function botKind(plugin, bot) {
  return botWords(plugin, bot).split(":").slice(-1)[0].trim();
}

/** Whether the game keeps a score (D!Git and Q!nto Light have none: the race to run out decides). */
export function scored(plugin, body) {
  return plugin.scored ? plugin.scored(body) : true;
}

/** Why the game ended, in words: the plug-in's, else the engine's with seats named; a bare code
 * ("deck_spent") is read out as words ("deck spent") rather than shown as one. */
export function endWords(plugin, body, seatNames) {
  const reason = body.outcome.reason;
  const words = plugin.reasonText?.(reason, body) || seatNames(reason);
  return /^[a-z]+(_[a-z]+)+$/.test(words) ? words.replace(/_/g, " ") : words;
}
