// The clocks a new game may have, in words, and the create body's "clock" for each: the home page's new
// game and a table's share them.

/** @type {[string, string][]} */
export const CLOCKS = [
  ["", "No clock"],
  ["turn:30", "30 seconds a move"],
  ["turn:60", "1 minute a move"],
  ["turn:120", "2 minutes a move"],
  ["total:300:5", "5 minutes each, +5 s a move"],
  ["total:600:10", "10 minutes each, +10 s a move"],
];

/** @param {string} choice @returns {Record<string, number> | null} */
export function clockBody(choice) {
  const [kind, a, b] = choice.split(":");
  if (kind === "turn") return { turn_seconds: Number(a) };
  if (kind === "total") return { total_seconds: Number(a), increment_seconds: Number(b) };
  return null;
}
