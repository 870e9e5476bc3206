/* The shared table: day and phase, turn order with speeds, the supply, the two fields
 * (standard, family, solo), the sister (solo) and the island (Duel). HTML strings. */
import { esc, cached } from "./patch.js";
import { COLOURS, SEAT_COLOURS, tileIcon, cardFace, icon } from "./draw.js";

const PHASES = {
  draft: "Draft", keep_lessons: "Choose lessons", read_lessons: "Read lessons", buy: "Buy cards",
  lessons: "Read lessons", lesson_colour: "Name a colour", choose_rescue: "Choose rescue cards",
  rescue: "Rescue", rescue_turn: "Rescue", rare_finds: "Rare finds", rare_finds_turn: "Rare finds",
  anytime: "Anytime cards", place: "Place a tile", choose_boat: "Choose boats", act: "Turn",
};
export const phaseName = (p) => PHASES[p] || String(p || "").replace(/_/g, " ");

function seatChip(ctx, s, extra = "") {
  return `<span class="seat-chip" style="--seat:${SEAT_COLOURS[s % 4]}"><i></i>${esc(ctx.shortName(s))}${extra}</span>`;
}

export function dayLine(view, ctx) {
  const bits = [];
  if (view.day !== undefined && view.day !== null) bits.push(`<b>Day ${view.day}${view.days ? " of " + view.days : ""}</b>`);
  if (view.phase) bits.push(`<span class="phase">${esc(phaseName(view.phase))}</span>`);
  const order = view.turn_order || [];
  const players = view.players || [];
  if (order.length > 1 || (order.length && view.mode !== "solo")) {
    const chips = order.map((s, i) => {
      const p = players[s] || {};
      const speed = p.speed ? ` <small class="speed" title="speed">${icon("bolt", "speed")}${p.speed}</small>` : "";
      return `<li>${i + 1}. ${seatChip(ctx, s, speed)}</li>`;
    }).join("");
    bits.push(`<span class="order-label">Turn order</span><ol class="turn-order">${chips}</ol>`);
  }
  if (view.mode === "duel" && view.to_act !== null && view.to_act !== undefined) {
    bits.push(`<span>To act: ${seatChip(ctx, view.to_act)}</span>`);
  }
  const pending = (view.pending || []).filter((s) => s !== undefined);
  if (pending.length && view.mode !== "duel") bits.push(`<span class="waiting">Waiting for ${pending.map((s) => seatChip(ctx, s)).join(" ")}</span>`);
  return bits.join(" ");
}

function field(side, tiles, shapes) {
  return `<div class="field" data-field="${side}"><h3>${side === "left" ? "Left" : "Right"} field <small>${tiles.length}</small></h3><div class="field-tiles">` +
    (tiles.map((t) => tileIcon(t, shapes, 11)).join("") || '<span class="nil">empty</span>') + "</div></div>";
}

export function fieldsHTML(view, ctx) {
  const f = view.fields;
  if (!f) return "";
  return cached(f, "fields", () => `<div class="fields">${field("left", f.left || [], ctx.shapes)}${field("right", f.right || [], ctx.shapes)}</div>`);
}

export function supplyHTML(view, ctx) {
  const s = view.supply;
  if (!s) return "";
  return cached(s, "supply", () => {
    const rare = (s.rare || []).map((t) => tileIcon(t, ctx.shapes, 8)).join("");
    const oshax = (s.oshax || []).length;
    const oshaxIcon = oshax ? tileIcon({ kind: "oshax", shape: s.oshax[0], colour: null }, ctx.shapes, 8) : "";
    const common = Object.entries(s.common || {}).map(([shape, n]) =>
      `<span class="stack${n ? "" : " empty"}" title="${n} left">${tileIcon({ kind: "common_treasure", shape }, ctx.shapes, 8)}<b>×${n}</b></span>`).join("");
    return `<div class="supply"><div><h3>Rare treasures <small>${(s.rare || []).length}</small></h3><div class="row">${rare || '<span class="nil">none</span>'}</div></div>` +
      (view.mode === "family" ? "" : `<div><h3>Oshax <small>${oshax}</small></h3><div class="row">${oshax ? `<span class="stack">${oshaxIcon}<b>×${oshax}</b></span>` : '<span class="nil">none</span>'}</div></div>`) +
      `<div><h3>Common treasures</h3><div class="row">${common}</div></div></div>`;
  });
}

export function countsHTML(view) {
  const bits = [];
  if (view.bag_count !== undefined) bits.push(`<span title="cats left in the bag">${icon("bag")} bag ${view.bag_count}</span>`);
  if (view.deck_count !== undefined) bits.push(`<span title="cards left in the deck">${icon("deck")} deck ${view.deck_count}</span>`);
  if (view.discard_count) bits.push(`<span>discard ${view.discard_count}</span>`);
  return bits.join("");
}

export function publicLessonsHTML(view, ctx) {
  const lessons = view.public_lessons || [];
  if (!lessons.length) return "";
  return cached(lessons, "pl", () => `<div class="public-lessons"><h3>Public lessons</h3><div class="cards">${lessons.map((l) =>
    cardFace(l.card, ctx.cards[String(l.card)], l.colour ? `style="--lc:${COLOURS[l.colour] || "#999"}" data-colour="${esc(l.colour)}"` : "")).join("")}</div></div>`);
}

/* Solo: the sister's colour cards, lessons, baskets and what she took each day. */
export function sisterHTML(view, ctx, taken) {
  const s = view.sister;
  if (!s) return "";
  const colours = (s.colours_revealed || []).map((c, i) => `<span class="swatch-chip" style="--c:${COLOURS[c] || "#999"}">${i + 1}. ${esc(c)}</span>`).join("") || '<span class="nil">none yet</span>';
  const lessons = (s.lessons || []).map((l) => cardFace(l.id, Object.assign({ family: l.family }, ctx.cards[String(l.id)] || {}, l))).join("");
  const played = (s.played_today || []).map((c) => cardFace(c, ctx.cards[String(c)])).join("");
  const deckLeft = Array.isArray(s.deck) ? s.deck.length : s.deck_count;
  const days = Object.keys(taken).map(Number).sort((a, b) => a - b);
  const log = days.length ? `<ol class="sister-days">${days.map((d) => `<li><b>Day ${d}</b> ${taken[d].map((t) => `<span class="took">${esc(t)}</span>`).join("")}</li>`).join("")}</ol>` : '<p class="nil">She has taken nothing yet.</p>';
  return `<section class="panel sister"><h2>The sister <small>${esc(s.difficulty || "")}</small></h2>` +
    `<div class="sister-grid"><div><h3>Colour order</h3><div class="row">${colours}</div>` +
    `<h3>Baskets</h3><p class="row">speed ${s.speed ?? 0}${s.first ? " · goes first" : ""} · ${s.cards_left_today ?? 0} basket cards left today${deckLeft !== undefined ? ` · deck ${deckLeft}` : ""}</p>` +
    (played ? `<div class="cards">${played}</div>` : "") + `</div>` +
    `<div><h3>Her lessons</h3><div class="cards">${lessons}</div></div></div>` +
    `<h3>What she took</h3>${log}</section>`;
}

/* Duel: the island (cats and cards on their spaces, the Oshax, the path it walked today)
 * and the cards on offer. */
export function islandSVG(view, board, path) {
  const W = 112, H = 78, G = 18, pos = {};
  for (const sp of board.spaces) pos[sp.space] = [12 + sp.col * (W + G), 12 + sp.row * (H + G)];
  const touched = new Set((view.turn && view.turn.touched) || []);
  const centre = (s) => [pos[s][0] + W / 2, pos[s][1] + H / 2];
  const parts = [];
  for (const [a, b] of board.paths) {
    if (!pos[a] || !pos[b]) continue;
    const [x1, y1] = centre(a), [x2, y2] = centre(b);
    parts.push(`<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#c9b48a" stroke-width="3" stroke-dasharray="2 6" stroke-linecap="round"/>`);
  }
  for (const cell of view.island) {
    const p = pos[cell.space];
    if (!p) continue;
    const item = cell.item;
    const hot = touched.has(cell.space);
    parts.push(`<g class="space kind-${esc(cell.kind)}" data-space="${cell.space}"><rect x="${p[0]}" y="${p[1]}" width="${W}" height="${H}" rx="10" fill="${cell.kind === "card" ? "#eaf1fb" : "#edf6e6"}" stroke="${hot ? "#e69b00" : "#9aa7b0"}" stroke-width="${hot ? 3 : 1}"/>`);
    parts.push(`<text x="${p[0] + 7}" y="${p[1] + 15}" font-size="11" fill="#5b6670">${cell.space}</text>`);
    if (item && item.kind === "cat") {
      parts.push(`<g transform="translate(${p[0] + 26} ${p[1] + 20})">${item._svg || ""}</g>`);
    } else if (item) {
      const text = String(item.name || item.label || item.kind || "");
      parts.push(`<text x="${p[0] + W / 2}" y="${p[1] + 38}" font-size="11" text-anchor="middle" font-weight="600"><title>${esc(item.effect || "")}</title>${esc(text.length > 18 ? text.slice(0, 17) + "…" : text)}</text><text x="${p[0] + W / 2}" y="${p[1] + 55}" font-size="10" text-anchor="middle" fill="#5b6670">${esc(item.kind || "")}</text>`);
    } else {
      parts.push(`<text x="${p[0] + W / 2}" y="${p[1] + 45}" font-size="11" text-anchor="middle" fill="#9aa7b0">empty</text>`);
    }
    parts.push("</g>");
  }
  if (path.length > 1) {
    const at = path.filter((s) => pos[s]).map((s) => centre(s).map((v, k) => v + (k ? 16 : 26)));
    const pts = at.map((c) => c.join(",")).join(" ");
    parts.push(`<g class="oshax-path"><title>the Oshax's path today: ${path.join(" → ")}</title><polyline points="${pts}" fill="none" stroke="#1d2329" stroke-opacity=".55" stroke-width="2" stroke-linejoin="round" marker-end="url(#arrow)"/>` +
      at.slice(0, -1).map(([x, y], k) => `<circle cx="${x}" cy="${y}" r="7" fill="#fff" stroke="#1d2329" stroke-opacity=".55"/><text x="${x}" y="${y + 3.5}" font-size="9" text-anchor="middle" fill="#1d2329">${k + 1}</text>`).join("") + "</g>");
  }
  if (view.oshax && pos[view.oshax]) {
    const [x, y] = [pos[view.oshax][0] + W - 18, pos[view.oshax][1] + H - 18];
    parts.push(`<g class="oshax-marker"><title>the Oshax</title><circle cx="${x}" cy="${y}" r="13" fill="#1d2329"/><text x="${x}" y="${y + 5}" font-size="14" font-weight="700" fill="#fff" text-anchor="middle">O</text></g>`);
  }
  const cols = Math.max(...board.spaces.map((sp) => sp.col)) + 1;
  const rows = Math.max(...board.spaces.map((sp) => sp.row)) + 1;
  const w = 24 + cols * (W + G) - G, h = 24 + rows * (H + G) - G;
  return `<svg viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="The island"><defs><marker id="arrow" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#222"/></marker></defs>${parts.join("")}</svg>`;
}

export function islandCatSvg(item, shapes) {
  return tileIcon(item, shapes, 11);  // a nested <svg>, placed by the caller's <g>
}

export function offerHTML(view, ctx) {
  const offer = (view.island || []).filter((c) => c.kind === "card" && c.item);
  if (!offer.length) return '<p class="nil">No cards on offer.</p>';
  return `<div class="cards">${offer.map((c) => cardFace(c.item.id, Object.assign({ family: c.item.kind }, c.item), `data-space="${c.space}"`)).join("")}</div>`;
}
