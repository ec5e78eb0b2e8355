// What the pages' type check (tsconfig.json) must know beyond the DOM's own types.

interface Window {
  /** The match page, as a handle for the browser tests (match.js sets it). */
  tablejudgeMatch?: unknown;
  /** The judge page's offline judge, as a handle for the browser tests (app.js sets it). */
  tablejudgeJudge?: { offline: unknown };
}
