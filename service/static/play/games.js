// The board plug-ins: one module per game, games/NAME.js (see README.md). A game without a module
// of its own is still playable through games/generic.js (its view, its legal moves, a notation box).

const loaded = new Map();

export function board(game) {
  if (!loaded.has(game)) {
    const own = /^[a-z][a-z0-9_]*$/.test(game) ? import(`./games/${game}.js`) : Promise.reject(new Error("bad name"));
    loaded.set(
      game,
      own
        .then((module) => ({ name: game, ...module.default }))
        .catch(() => import("./games/generic.js").then((module) => ({ ...module.default, name: game, title: titled(game) }))),
    );
  }
  return loaded.get(game);
}

function titled(game) {
  return game.charAt(0).toUpperCase() + game.slice(1).replace(/_/g, " ");
}
