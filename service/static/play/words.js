// What the match page says in words rather than codes (issue 26): bots named as the new-game menu
// names them, whether a game keeps a score at all, why a game ended.

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
 * The body with each bot's seat named as the menu names its kind ("Bot", "Bot (greedy)"; "Bot 2" where
 * two share a name), not by the server's key for it ("greedy"): every line that names a seat reads
 * ``body.seats[seat].name``, so they all agree with the menu.
 */
export function nameBots(body, plugin) {
  const bots = body.seats.filter((seat) => seat.bot);
  const named = bots.map((seat) => botWords(plugin, seat.bot).split(":")[0].trim());
  bots.forEach((seat, index) => {
    const twins = named.filter((name) => name === named[index]).length;
    seat.name = twins > 1 ? `${named[index]} ${named.slice(0, index + 1).filter((name) => name === named[index]).length}` : named[index];
  });
  return body;
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
