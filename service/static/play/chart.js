// Each player's score after every move, as an SVG line chart drawn here (no library): x is the move,
// y the score. Colours are told apart by a dash pattern and a label too, not by colour alone.
// The axis' words are HTML laid over the SVG, not SVG text: the SVG is scaled to its column, and its text
// with it (12 px in the drawing was 11.4 px on a 360 px phone); HTML text keeps its 12 px and more at any
// width, each label placed in percentages of the drawing so it stays beside its line.
import { h, svg } from "./ui.js";

const COLOURS = ["#2f6f73", "#c0392b", "#8e44ad", "#d08a1e", "#2c7be5", "#4b7f2a", "#a0522d", "#555"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "", "6 3", "2 3", "8 3 2 3"];

export function scoreChart(steps, names, players) {
  const width = 320;
  const height = 190;
  const pad = { left: 40, right: 12, top: 12, bottom: 8 };
  const points = [Array(players).fill(0), ...steps.filter((s) => s.scores && s.scores.length === players).map((s) => s.scores)];
  const count = points.length - 1;
  const values = points.flat();
  const low = Math.min(0, ...values);
  const high = Math.max(1, ...values);
  const x = (i) => pad.left + (count ? (i / count) * (width - pad.left - pad.right) : 0);
  const y = (v) => pad.top + (1 - (v - low) / (high - low)) * (height - pad.top - pad.bottom);
  const ticks = niceTicks(low, high);
  const finals = points[points.length - 1];
  const described = names.map((name, seat) => `${name} ${finals[seat]}`).join(", ");
  const chart = svg(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": "chart-svg-title", class: "chart" },
    svg("title", { id: "chart-svg-title" }, `Score after each of ${count} moves. Final: ${described}.`),
    ticks.map((tick) => svg("line", { x1: pad.left, x2: width - pad.right, y1: y(tick), y2: y(tick), class: "grid-line" })),
    names.map((_, seat) =>
      svg("polyline", {
        points: points.map((row, i) => `${x(i).toFixed(1)},${y(row[seat]).toFixed(1)}`).join(" "),
        fill: "none",
        stroke: COLOURS[seat % COLOURS.length],
        "stroke-width": 2.5,
        "stroke-dasharray": DASHES[seat % DASHES.length] || null,
        "stroke-linejoin": "round",
      }),
    ),
    names.map((_, seat) =>
      svg("circle", { cx: x(count), cy: y(finals[seat]), r: 3.5, fill: COLOURS[seat % COLOURS.length] }),
    ),
  );
  const legend = h(
    "ul",
    { class: "legend plain" },
    names.map((name, seat) =>
      h("li", {},
        svgSwatch(seat),
        h("span", {}, name), h("b", {}, String(finals[seat]))),
    ),
  );
  const percent = (/** @type {number} */ part, /** @type {number} */ whole) => `${((100 * part) / whole).toFixed(2)}%`;
  const labels = ticks.map((tick) =>
    h("span", { class: "axis", "aria-hidden": "true", style: { top: percent(y(tick), height), width: percent(pad.left - 4, width) } }, String(tick)));
  const plot = h("div", { class: "chart-plot" }, chart, labels);
  const across = h("p", { class: "axis axis-x", "aria-hidden": "true", style: { "margin-left": percent(pad.left, width), "margin-right": percent(pad.right, width) } }, `move (${count} in all)`);
  return h("figure", { class: "chart-figure" }, plot, across, h("figcaption", {}, legend));
}

function svgSwatch(seat) {
  return svg(
    "svg",
    { width: 28, height: 10, "aria-hidden": "true" },
    svg("line", { x1: 1, x2: 27, y1: 5, y2: 5, stroke: COLOURS[seat % COLOURS.length], "stroke-width": 3, "stroke-dasharray": DASHES[seat % DASHES.length] || null }),
  );
}

function niceTicks(low, high) {
  const span = high - low;
  const raw = span / 4;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  // Scores are whole numbers: a step under 1 would label two lines alike ("0, 1, 1").
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) || raw);
  const ticks = [];
  for (let tick = Math.ceil(low / step) * step; tick <= high + 1e-9; tick += step) ticks.push(Math.round(tick));
  return ticks;
}
