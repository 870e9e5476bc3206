/* Drawing the pieces of the game as SVG/HTML strings: cat and treasure tiles by shape and
 * colour, boats from their printed layout, card faces and card backs. Pure functions. */
import { esc } from "./patch.js";

export const COLOURS = {
  blue: "#3b7dd8", green: "#3a9d4a", red: "#d64541", purple: "#8e5cc2", orange: "#ef8a1f",
};
// The seats' colours are the site's (--seat-0 to --seat-3 in site.css), so that the match page's
// list of seats and the viewer show each player in one colour.
const ROOT_STYLE = typeof getComputedStyle === "function" ? getComputedStyle(document.documentElement) : null;
export const SEAT_COLOURS = [0, 1, 2, 3].map((s) => ROOT_STYLE?.getPropertyValue(`--seat-${s}`).trim() || "#555");
const TREASURE = { common_treasure: "#e0b84c", rare_treasure: "#b8860b" };
const ROOM_FILLS = ["#f6ead2", "#eedfbf", "#f3e5c8", "#e9d7b3"];

export function tileFill(t) {
  if (t.kind === "cat" || t.kind === "oshax") return COLOURS[t.colour] || "#9aa3ab";
  return TREASURE[t.kind] || "#bbb";
}

export function tileName(t) {
  if (!t) return "";
  if (t.kind === "cat") return `${t.colour || ""} cat`;
  if (t.kind === "oshax") return `Oshax${t.colour ? " (" + t.colour + ")" : ""}`;
  return `${t.kind === "rare_treasure" ? "rare" : "common"} treasure ${String(t.shape || "").replace(/_\d+$/, "").replace(/_/g, " ")}`;
}

/* One tile's cells (absolute [x, y]) drawn at `cell` px: filled squares, an outline around
 * the shape, and a mark (a cat's face, the Oshax's O, a treasure's gem or coin). */
export function tileCells(t, cells, cell) {
  const own = new Set(cells.map(([x, y]) => x + "," + y));
  const fill = tileFill(t);
  // One path for the squares and one for the outline: few elements, so fast to lay out.
  const parts = [`<path d="${cells.map(([x, y]) => `M${x * cell} ${y * cell}h${cell}v${cell}h${-cell}z`).join("")}" fill="${fill}"/>`];
  const edges = [];
  for (const [x, y] of cells) {
    if (!own.has((x + 1) + "," + y)) edges.push(`M${(x + 1) * cell} ${y * cell}v${cell}`);
    if (!own.has((x - 1) + "," + y)) edges.push(`M${x * cell} ${y * cell}v${cell}`);
    if (!own.has(x + "," + (y + 1))) edges.push(`M${x * cell} ${(y + 1) * cell}h${cell}`);
    if (!own.has(x + "," + (y - 1))) edges.push(`M${x * cell} ${y * cell}h${cell}`);
  }
  parts.push(`<path d="${edges.join("")}" stroke="#1d2329" stroke-width="${cell > 12 ? 1.5 : 1}" fill="none" stroke-linecap="square"/>`);
  if (cells.length) {
    // The mark sits on the cell nearest the shape's centre.
    const cx = cells.reduce((a, c) => a + c[0], 0) / cells.length;
    const cy = cells.reduce((a, c) => a + c[1], 0) / cells.length;
    let best = cells[0], bestD = Infinity;
    for (const c of cells) {
      const d = (c[0] - cx) ** 2 + (c[1] - cy) ** 2;
      if (d < bestD) { bestD = d; best = c; }
    }
    const mx = best[0] * cell + cell / 2, my = best[1] * cell + cell / 2, r = cell * 0.3;
    if (t.kind === "cat") {
      parts.push(`<path d="M${mx - r} ${my - r * 0.2}l${r * 0.25} ${-r * 0.9}l${r * 0.45} ${r * 0.55}h${r * 0.6}l${r * 0.45} ${-r * 0.55}l${r * 0.25} ${r * 0.9}a${r} ${r * 0.9} 0 1 1 ${-r * 2} 0z" fill="#fff" fill-opacity=".55"/>`);
    } else if (t.kind === "oshax") {
      parts.push(`<circle cx="${mx}" cy="${my}" r="${r * 1.1}" fill="#1d2329"/><text x="${mx}" y="${my + r * 0.5}" text-anchor="middle" font-size="${r * 1.5}" font-weight="700" fill="#fff">O</text>`);
    } else if (t.kind === "rare_treasure") {
      parts.push(`<path d="M${mx} ${my - r}l${r} ${r}l${-r} ${r}l${-r} ${-r}z" fill="#fff6c8" stroke="#7a5a00" stroke-width=".8"/>`);
    } else {
      parts.push(`<circle cx="${mx}" cy="${my}" r="${r * 0.8}" fill="#fff3b0" stroke="#8a6d00" stroke-width=".8"/>`);
    }
  }
  if (t.fish) {
    const [x, y] = cells[cells.length - 1];
    parts.push(`<g transform="translate(${x * cell + cell * 0.15} ${y * cell + cell * 0.15}) scale(${cell * 0.7 / 16})" fill="#fff" stroke="#1d2329" stroke-width="1">${ICONS.fish}</g>`);
  }
  return parts.join("");
}

/* A tile that is not on a boat (in a field, the supply, the island), drawn from its shape. */
export function tileIcon(t, shapes, cell, extra = "") {
  const cells = (shapes[t.shape] || [[0, 0]]);
  const w = Math.max(...cells.map((c) => c[0])) + 1, h = Math.max(...cells.map((c) => c[1])) + 1;
  const id = t.id !== undefined && t.id !== null ? ` data-tile-id="${t.id}"` : "";
  return `<svg class="piece kind-${esc(t.kind)}"${id} ${extra} viewBox="-1 -1 ${w * cell + 2} ${h * cell + 2}" width="${w * cell + 2}" height="${h * cell + 2}" role="img" aria-label="${esc(tileName(t))}">${tileCells(t, cells, cell)}</svg>`;
}

const staticBoats = new Map();
/* The printed boat: rooms, walls, rats and treasure maps (cached per layout). */
export function boatLayout(layout, cell) {
  const key = layout ? layout.name + ":" + cell : "none";
  if (staticBoats.has(key)) return staticBoats.get(key);
  const out = { svg: "", width: 22 * cell, height: 9 * cell };
  if (!layout) { staticBoats.set(key, out); return out; }
  let maxX = 0, maxY = 0;
  for (const [x, y] of layout.cells) { maxX = Math.max(maxX, x); maxY = Math.max(maxY, y); }
  out.width = (maxX + 1) * cell; out.height = (maxY + 1) * cell;
  const roomOf = new Map();
  layout.rooms.forEach((r, i) => r.cells.forEach(([x, y]) => roomOf.set(x + "," + y, i)));
  // One path per fill (a handful of elements, not one per square): quick to lay out.
  const byFill = new Map();
  for (const [x, y] of layout.cells) {
    const r = roomOf.get(x + "," + y);
    const fill = r === undefined ? "#fbf5e8" : ROOM_FILLS[r % ROOM_FILLS.length];
    if (!byFill.has(fill)) byFill.set(fill, []);
    byFill.get(fill).push(`M${x * cell} ${y * cell}h${cell}v${cell}h${-cell}z`);
  }
  const parts = [];
  for (const [fill, d] of byFill) parts.push(`<path d="${d.join("")}" fill="${fill}" stroke="#e0d3b8" stroke-width="0.5"/>`);
  const inBoat = new Set(layout.cells.map(([x, y]) => x + "," + y));
  const walls = [];
  for (const [x, y] of layout.cells) {
    const r = roomOf.get(x + "," + y);
    for (const [dx, dy] of [[1, 0], [0, 1], [-1, 0], [0, -1]]) {
      const k = (x + dx) + "," + (y + dy);
      if (inBoat.has(k) && roomOf.get(k) === r) continue;
      if (inBoat.has(k) && (dx < 0 || dy < 0)) continue;
      const x1 = (dx === 1 ? x + 1 : x) * cell, y1 = (dy === 1 ? y + 1 : y) * cell;
      const x2 = dx === 0 ? x1 + cell : x1, y2 = dy === 0 ? y1 + cell : y1;
      walls.push(`M${x1} ${y1}L${x2} ${y2}`);
    }
  }
  parts.push(`<path d="${walls.join("")}" stroke="#7a5c3a" stroke-width="1.6" fill="none"/>`);
  const rats = layout.rats.map(([x, y]) => {
    const cx = x * cell + cell / 2, cy = y * cell + cell * 0.58, rx = cell * 0.26, ry = cell * 0.18;
    return `M${cx - rx} ${cy}a${rx} ${ry} 0 1 0 ${2 * rx} 0a${rx} ${ry} 0 1 0 ${-2 * rx} 0M${x * cell + cell * 0.2} ${cy - ry}a${cell * 0.1} ${cell * 0.1} 0 1 0 ${cell * 0.2} 0a${cell * 0.1} ${cell * 0.1} 0 1 0 ${-cell * 0.2} 0`;
  });
  if (rats.length) parts.push(`<path class="rats" d="${rats.join("")}" fill="#77706a"><title>rats</title></path>`);
  for (const colour in layout.maps) {
    const [x, y] = layout.maps[colour];
    parts.push(`<rect class="map" x="${x * cell + 3}" y="${y * cell + 3}" width="${cell - 6}" height="${cell - 6}" fill="#fff" stroke="${COLOURS[colour] || "#333"}" stroke-width="2.5"><title>${esc(colour)} treasure map</title></rect>`);
  }
  out.svg = parts.join("");
  staticBoats.set(key, out);
  return out;
}

export function boatTile(t, cell) {
  return `<g class="tile kind-${esc(t.kind)}" data-tile-id="${t.id ?? ""}" data-colour="${esc(t.colour || "")}">${tileCells(t, t.cells || [], cell)}</g>`;
}

const FAMILY_NAMES = {
  rescue: "Rescue", anytime: "Anytime", treasure: "Treasure", oshax: "Oshax",
  private_lesson: "Private", public_lesson: "Public", family_lesson: "Lesson",
  solo_colour: "Colour", solo_basket: "Sister's basket", solo_lesson_basic: "Sister's lesson",
  solo_lesson_advanced: "Sister's lesson", lesson: "Lesson", instant: "Instant",
};
/* Small inline icons (no emoji: not every system has an emoji font). 16x16 paths. */
const ICONS = {
  fish: '<path d="M1 8c3-4 8-4 11 0c-3 4-8 4-11 0z"/><path d="M11.5 8l3.5-3v6z"/><circle cx="4.5" cy="7.3" r=".9" fill="#fff"/>',
  basket: '<path d="M2 7h12l-1.6 7H3.6z"/><path d="M4.5 7a3.5 3.5 0 0 1 7 0" fill="none" stroke="currentColor" stroke-width="1.5"/>',
  bolt: '<path d="M9.5 1L3 9h4l-1 6l6.5-8h-4z"/>',
  gem: '<path d="M4 2h8l3 4l-7 9l-7-9z"/>',
  cat: '<path d="M3 15V6l-1-5l4 3h4l4-3l-1 5v9z"/>',
  scroll: '<path d="M3 2h9a2 2 0 0 1 2 2v10H5a2 2 0 0 1-2-2z"/><path d="M6 6h5M6 9h5" stroke="#fff" stroke-width="1.2"/>',
  drop: '<path d="M8 1c3 4 5 6.5 5 9a5 5 0 0 1-10 0c0-2.5 2-5 5-9z"/>',
  tiles: '<path d="M1 1h6v6H1zM9 1h6v6H9zM1 9h6v6H1zM9 9h6v6H9z"/>',
  bag: '<path d="M3 6h10l1 9H2z"/><path d="M5.5 6V4a2.5 2.5 0 0 1 5 0v2" fill="none" stroke="currentColor" stroke-width="1.5"/>',
  deck: '<path d="M4 1h9v12H4z" opacity=".5"/><path d="M2 3h9v12H2z"/>',
  trophy: '<path d="M4 1h8v5a4 4 0 0 1-8 0z"/><path d="M7 10h2v3h3v2H4v-2h3z"/><path d="M4 3H1.5v1.5A2.5 2.5 0 0 0 4 7M12 3h2.5v1.5A2.5 2.5 0 0 1 12 7" fill="none" stroke="currentColor" stroke-width="1.2"/>',
  note: '<path d="M1 2h14v9H6l-3.5 3.5V11H1z"/>',
  first: '<path d="M2 2h2.2v12H2zM14 2v12L5 8z"/>',
  back: '<path d="M12 2v12L3 8z"/>',
  play: '<path d="M4 2l10 6l-10 6z"/>',
  pause: '<path d="M3 2h3.5v12H3zM9.5 2H13v12H9.5z"/>',
  forward: '<path d="M4 2l9 6l-9 6z"/>',
  last: '<path d="M11.8 2H14v12h-2.2zM2 2l9 6l-9 6z"/>',
};
export function icon(name, label = "") {
  const body = ICONS[name] || "";
  const a11y = label ? `role="img" aria-label="${esc(label)}"` : 'aria-hidden="true"';
  return `<svg class="icon icon-${name}" viewBox="0 0 16 16" width="1em" height="1em" fill="currentColor" ${a11y}>${label ? `<title>${esc(label)}</title>` : ""}${body}</svg>`;
}

/* A card face: its type, name and key rule (speed and basket for rescue cards, a cost coin). */
export function cardFace(id, card, extra = "", withText = true) {
  if (!card) return `<div class="card" data-card="${esc(id)}"><span class="card-name">Card ${esc(id)}</span></div>`;
  const family = card.family || card.kind || "";
  const type = FAMILY_NAMES[family] || family.replace(/_/g, " ");
  let key = "";
  let label = String(card.label || card.name || "").replace(/^(Anytime|Treasure|Public|Rescue): /, "");
  if (family === "rescue") {
    // A rescue card is its speed and its basket.
    label = `Speed ${card.speed ?? 0}`;
    key = `<span class="card-key">${card.basket === "full" ? "full basket" : card.basket === "half" ? "half basket" : "no basket"}</span>`;
  } else if (family === "solo_colour" && card.colour) {
    key = `<span class="card-key"><i class="swatch" style="--c:${COLOURS[card.colour] || "#999"}"></i>${esc(card.colour)}</span>`;
  } else if (family === "solo_basket" && card.baskets !== undefined) {
    key = `<span class="card-key">${icon("basket").repeat(Math.min(4, card.baskets || 0)) || "no basket"}</span>`;
  }
  const cost = card.cost !== undefined && card.cost !== null ? `<span class="card-cost" title="cost in fish">${card.cost}</span>` : "";
  return `<div class="card fam-${esc(family)}" data-card="${esc(id)}" title="${esc(card.effect || "")}" ${extra}>` +
    `<span class="card-type">${esc(type)}</span>${cost}` +
    `<span class="card-name">${esc(label)}</span>${key}` +
    (withText ? `<span class="card-text">${esc(card.effect || "")}</span>` : "") + "</div>";
}

export function cardBacks(count, what = "cards") {
  if (!count) return "";
  return `<div class="card back" title="${count} hidden ${esc(what)}"><span class="back-count">${count}</span><span class="card-type">hidden</span></div>`;
}
