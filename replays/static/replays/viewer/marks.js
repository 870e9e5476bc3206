/* A bot's annotations on its own boat (`marks` in its reply, docs/bot-protocol.md): each mark
 * outlines some cells in one of a few colours and carries a short label. Drawn over the tiles,
 * never filled, so the boat stays readable. */
import { esc } from "./patch.js";

// The protocol's colour names (workers/protocol/marks.py MARK_COLOURS), drawn dark enough to read.
export const MARK_COLOURS = {
  red: "#c0262d", orange: "#c45a00", yellow: "#a07800", green: "#1e7a35",
  blue: "#1f5fbf", purple: "#6c3fb0", black: "#1d2329", white: "#ffffff",
};

export function marksHTML(marks, cell) {
  if (!Array.isArray(marks) || !marks.length) return "";
  return marks.map((m) => {
    const colour = MARK_COLOURS[m.colour] || MARK_COLOURS.black;
    const cells = Array.isArray(m.cells) ? m.cells : [];
    if (!cells.length) return "";
    const boxes = cells.map(([x, y]) => `M${x * cell + 2} ${y * cell + 2}h${cell - 4}v${cell - 4}h${-(cell - 4)}z`).join("");
    const [lx, ly] = cells[0];
    const label = m.label ? `<text x="${lx * cell + 2}" y="${ly * cell - 2}" font-size="${cell * 0.62}" font-weight="700" fill="${colour}" stroke="#fff" stroke-width="2.5" paint-order="stroke">${esc(m.label)}</text>` : "";
    return `<g class="bot-mark" data-colour="${esc(m.colour || "")}"><title>${esc(m.label || "mark")}</title><path d="${boxes}" fill="${colour}" fill-opacity=".18" stroke="${colour}" stroke-width="2" stroke-dasharray="4 2"/>${label}</g>`;
  }).join("");
}
