/* The replay viewer: loads the frames once (or follows a live match), rebuilds every view
 * from its patches, and draws any step on demand: the table, the boats, the hands the chosen
 * view may see, a sentence for the step, the score as it stands and its chart. The result
 * stays hidden until the last step (or the "show result" toggle). Changes are animated
 * unless the user prefers reduced motion. window.viewer exposes the state for tests. */
import { applyPatch, cached, setHTML, esc } from "./patch.js";
import { SEAT_COLOURS, boatLayout, boatTile, cardFace, cardBacks, icon } from "./draw.js";
import { dayLine, fieldsHTML, supplyHTML, countsHTML, publicLessonsHTML, sisterHTML,
  islandSVG, islandCatSvg, offerHTML } from "./table.js";
import { renderChart, chartStep, chartRange } from "./chart.js";
import { renderMoves, markMove, markJudged } from "./moves.js";
import { marksHTML } from "./marks.js";

const root = document.querySelector(".viewer[data-frames-url], .viewer[data-upload-url]");
const $ = (sel) => root.querySelector(sel);
const CELL = 18;
const POLL_MS = 600;
const KNOWN = new Set(["mode", "seats", "day", "days", "phase", "turn_order", "draft_direction",
  "pending", "fields", "supply", "public_lessons", "public_lessons_awaiting_colour", "played",
  "bag_count", "deck_count", "discard_count", "removed_count", "players", "decisions", "decision",
  "you", "seat", "sister", "difficulty", "island", "oshax", "turn", "first_player", "to_act",
  "treasure_supply", "round_counter_cats", "box", "discard", "bag", "deck", "bag_contents",
  "deck_contents", "boats"]);

const state = {
  payload: null, views: [], step: 0, seat: "spectator", playing: false, timer: null, speed: 1,
  lastRenderMs: 0, maxRenderMs: 0, renders: 0, live: false, cursor: 0, showResult: false,
  animate: true, sisterLog: [], oshaxPaths: [],
  // following a live match: every new step is shown as it arrives, until the spectator steps
  // back (any move to an earlier step); "Follow" turns it on again
  follow: false,
  judged: new Map(),  // frame -> {mark, loss, best}: the reviews' marks (loadJudged)
};
window.viewer = state;
const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
const motion = () => state.animate && !reduceMotion.matches;

// ---- names --------------------------------------------------------------------------------
function shortName(s) {
  const names = (state.payload && state.payload.names) || [];
  const full = names[s] || `seat ${s}`;
  return full.replace(/ \(seat \d+\)$/, "") + ` · ${s}`;
}
function fullName(s) {
  const names = (state.payload && state.payload.names) || [];
  return names[s] || `seat ${s}`;
}
// ---- faults ----------------------------------------------------------------------------------
// The frames say where each fault happened (`frame`, `say`: "seat 2 (cats v3) timed out at its
// 12th decision; ...") and mark the default policy's moves (`default` on a step).
function faultsAt(frame) {
  return ((state.payload && state.payload.faults) || []).filter((f) => f.frame === frame);
}
function faultFrame(seat) {
  const f = ((state.payload && state.payload.faults) || []).find((x) => x.seat === seat && Number.isInteger(x.frame));
  return f ? f.frame : null;
}
function renderSeekMarks() {
  const last = Math.max(1, state.views.length - 1);
  const marks = (state._marks && state._marks.faults) || [];
  setHTML($("#seek-marks"), marks.map((m) => {
    const text = m.say || `${fullName(m.seat)}: ${m.kind}`;
    return `<button type="button" class="seek-fault" data-frame="${m.frame}" style="left:${(100 * m.frame / last).toFixed(3)}%" title="${esc(text)}" aria-label="Go to the fault: ${esc(text)}">!</button>`;
  }).join(""));
}

const ctx = {
  get shapes() { return state.payload.shapes || {}; },
  get cards() { return state.payload.cards || {}; },
  shortName,
};

// ---- derived per-step data (computed once per load) ----------------------------------------
function deriveTimelines() {
  // The sister's takings by day, up to each frame; the Oshax's path through each Duel day.
  const views = state.views, events = state.payload.events;
  state.sisterLog = [];
  state.oshaxPaths = [];
  let taken = {};
  let path = [];
  for (let i = 0; i < views.length; i++) {
    const v = views[i];
    const day = v.day ?? 0;
    for (const e of events[i] || []) {
      if (e.type === "sister" && e.say) {
        taken = Object.assign({}, taken, { [day]: [...(taken[day] || []), e.say.replace(/^The sister /, "")] });
      }
    }
    state.sisterLog.push(taken);
    if (v.island) {
      const prev = i > 0 ? views[i - 1] : null;
      if (!prev || prev.day !== v.day) path = v.oshax ? [v.oshax] : [];
      else if (v.oshax !== path[path.length - 1]) path = [...path, v.oshax];
      state.oshaxPaths.push(path);
    }
  }
}

function dayMarks() {
  const marks = state.payload.marks;
  if (marks && !state.live) return marks;
  const days = [];
  for (let i = 1; i < state.views.length; i++) {
    const a = state.views[i - 1].day, b = state.views[i].day;
    if (b !== undefined && b !== null && a !== b) days.push({ frame: i, day: b });
  }
  return { days, faults: (marks && marks.faults) || [] };
}

// ---- bot annotations ----------------------------------------------------------------------
// A bot's reply may carry `marks` (cells of its own boat with a label and a colour); the frames
// hold them only for those who may see them (replayfile/frames.py). The marks of the seat's latest
// step up to the current one are drawn on its boat.
function marksOn(seat) {
  const steps = state.payload.steps;
  for (let i = state.step - 1; i >= 0; i--) {
    const s = steps[i];
    if (s && s.seat === seat) return s.marks || [];
  }
  return [];
}

// The marks this visitor may see come apart from the frames (which every visitor shares):
// `{"seats": {seat: [[step, marks], ...]}}`, step k being the move that frame k + 1 shows.
async function loadMarks(body) {
  const url = root.dataset.marksUrl;
  if (!url) return;
  const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
  if (!response.ok || state.payload !== body) return;
  const seats = (await response.json()).seats || {};
  let any = false;
  for (const rows of Object.values(seats)) {
    for (const [k, marks] of rows) {
      if (body.steps[k]) { body.steps[k].marks = marks; any = true; }
    }
  }
  state.hasMarks = any;
  if (any) { $("#boats")._shape = undefined; show(state.step, { noUrl: true }); }
}

// The seats' reviews this visitor may read (`data-reviewed-seats`, from the server, which
// asks the same rule as the analysis API): each judged decision with a mark, keyed by the frame that
// shows it (decision k is the move of frame k + 1).
async function loadJudged(body) {
  const url = root.dataset.analysisUrl;
  if (!url || !root.dataset.reviewedSeats) return;
  for (const seat of root.dataset.reviewedSeats.split(",")) {
    const response = await fetch(`${url}?seat=${seat}`, { headers: { Accept: "application/json" }, credentials: "same-origin" });
    if (!response.ok || state.payload !== body) continue;
    const review = await response.json();
    for (const d of review.decisions || []) {
      if (d.mark) state.judged.set(d.step + 1, { mark: d.mark, loss: d.loss, best: d.best.text });
    }
  }
  if (state.judged.size) markJudged($("#moves"), state.judged);
}

// ---- players: boats, hands ---------------------------------------------------------------
function playersOf(view) {
  if (Array.isArray(view.players)) return view.players;
  if (Array.isArray(view.boats)) return view.boats.map((b, s) => ({ seat: s, boat: b.boat || b.name, tiles: b.tiles || [] }));
  return [];
}
function boatOf(p) {
  if (!p) return { name: null, tiles: [] };
  if (p.boat && typeof p.boat === "object") return { name: p.boat.boat || p.boat.name, tiles: p.boat.tiles || [] };
  return { name: p.boat, tiles: p.tiles || [] };
}

function handGroups(view, s) {
  const pub = playersOf(view)[s] || {};
  const p = view.you && typeof view.you === "object" && view.you.seat === s ? view.you : pub;
  // `secret`: cards only their owner knows (drawn only in views that may see them).
  const groups = [];
  const ids = (key, label, secret = true) => {
    if (Array.isArray(p[key]) && p[key].length) groups.push({ label, cards: p[key], secret });
  };
  if (Array.isArray(p.hand)) ids("hand", "Hand");
  else if (p.hand_count) groups.push({ label: "Hand", backs: p.hand_count, secret: true });
  ids("draft_pile", "Draft pile");
  ids("kept", "Kept");
  ids("drawn", "Drawn");
  ids("bought_now", "Bought");
  ids("chosen_rescue", "Chosen to rescue");
  ids("revealed_rescue", "Rescue cards", false);
  if (Array.isArray(p.private_lessons)) ids("private_lessons", "Private lessons");
  else if (p.private_lesson_count) groups.push({ label: "Private lessons", backs: p.private_lesson_count, secret: true });
  if (Array.isArray(p.lessons) && p.lessons.length) groups.push({ label: "Lessons", cards: p.lessons, secret: false });
  return groups;
}

function handsHTML(groups) {
  return groups.map((g) => {
    // In hands the rule text is on hover (title): names and icons keep a step fast to draw.
    const inner = g.backs ? cardBacks(g.backs) : g.cards.map((c) => typeof c === "object"
      ? cardFace(c.id, Object.assign({ family: c.kind || c.family }, c), "", false)
      : cardFace(c, ctx.cards[String(c)], "", false)).join("");
    return `<div class="hand-group${g.secret ? " secret" : ""}"><h4>${esc(g.label)} <small>${g.backs || g.cards.length}</small></h4><div class="cards">${inner}</div></div>`;
  }).join("");
}

function statsHTML(p) {
  const bits = [];
  if (p.fish !== undefined && state.payload.header.mode !== "family") bits.push(`<span class="fish" title="fish">${icon("fish", "fish")} <b>${p.fish}</b></span>`);
  if (p.baskets !== undefined) bits.push(`<span title="baskets (used)">${icon("basket", "baskets")} ${p.baskets}${p.baskets_used ? ` <small>(${p.baskets_used} used)</small>` : ""}</span>`);
  if (p.speed) bits.push(`<span title="speed today">${icon("bolt", "speed")} ${p.speed}</span>`);
  return bits.join("");
}

// Boats off screen are drawn when the browser is idle or when they scroll into view, so a
// seek pays only for what the spectator can see.
const boatSeen = "IntersectionObserver" in window ? new IntersectionObserver((entries) => {
  for (const entry of entries) {
    entry.target._visible = entry.isIntersecting;
    if (entry.isIntersecting && entry.target._dirty) drawBoat(entry.target);
  }
}, { rootMargin: "200px" }) : null;

function drawBoat(fig) {
  fig._dirty = false;
  const view = state.views[state.step];
  const s = Number(fig.dataset.seat);
  const p = playersOf(view)[s];
  if (!p) return;
  const boat = boatOf(p);
  setHTML(fig.querySelector("g.tiles"), cached(boat.tiles, "tiles", () => boat.tiles.map((t) => boatTile(t, CELL)).join("")));
  const marksLayer = fig.querySelector("g.marks");
  if (marksLayer) setHTML(marksLayer, marksHTML(marksOn(s), CELL));
  const own = view.you && typeof view.you === "object" && view.you.seat === s ? view.you : p;
  setHTML(fig.querySelector(".hands"), cached(own, "hands", () => handsHTML(handGroups(view, s))));
}

function drawDirtyBoats() {
  state.idle = null;
  for (const fig of $("#boats")._figs || []) if (fig._dirty) drawBoat(fig);
}

function renderBoats(view, scores) {
  const players = playersOf(view);
  const el = $("#boats");
  const shape = players.map((p) => boatOf(p).name).join("|") + "#" + state.seat;
  if (el._shape !== shape) {
    el._shape = shape;
    if (boatSeen) boatSeen.disconnect();
    el.innerHTML = players.map((p, s) => {
      const name = boatOf(p).name;
      const layout = boatLayout(state.payload.layouts[name], CELL);
      const picture = name
        ? `<svg viewBox="-2 -2 ${layout.width + 4} ${layout.height + 4}" width="${layout.width + 4}" height="${layout.height + 4}" role="img" aria-label="Boat of ${esc(fullName(s))}"><g class="layout">${layout.svg}</g><g class="tiles"></g><g class="marks"></g></svg>`
        : '<p class="nil no-boat">No boat chosen yet.</p>';
      return `<figure class="boat" data-seat="${s}" style="--seat:${SEAT_COLOURS[s % 4]}"><figcaption><span class="who" title="${esc(fullName(s))}"><i></i><span class="name">${esc(fullName(s))}</span></span><span class="policy"></span><span class="stats"></span><span class="score"></span></figcaption>
        ${picture}
        <div class="hands"></div></figure>`;
    }).join("") || '<p class="nil">No boats in this view.</p>';
    el._figs = Array.from(el.querySelectorAll("figure.boat"));
    if (boatSeen) for (const fig of el._figs) boatSeen.observe(fig);
  }
  const me = state.seat === "spectator" ? null : Number(state.seat);
  const step = state.payload.steps[state.step - 1];
  let deferred = false;
  players.forEach((p, s) => {
    const fig = el._figs[s];
    const boat = boatOf(p);
    fig.classList.toggle("me", me === s);
    fig.classList.toggle("acted", Boolean(step && step.seat === s));
    const faulted = faultFrame(s);
    const policy = faulted !== null && state.step >= faulted;
    if (fig.classList.contains("faulted") !== policy) {
      fig.classList.toggle("faulted", policy);
      setHTML(fig.querySelector(".policy"), policy ? '<span class="default-tag" title="This seat faulted: the default policy plays for it">default policy</span>' : "");
    }
    fig.dataset.tiles = String(boat.tiles.length);
    setHTML(fig.querySelector(".stats"), statsHTML((view.you && view.you.seat === s) ? view.you : p) + `<span title="tiles on the boat">${icon("tiles", "tiles")} ${boat.tiles.length}</span>`);
    const score = scores && scores[s] !== null && scores[s] !== undefined ? `${scores[s]} <small>pts</small>` : "";
    setHTML(fig.querySelector(".score"), score);
    if (fig._visible === false) { fig._dirty = true; deferred = true; } else drawBoat(fig);
  });
  if (deferred && !state.idle) {
    state.idle = (window.requestIdleCallback || ((f) => setTimeout(f, 50)))(drawDirtyBoats);
  }
}

// ---- the table ------------------------------------------------------------------------------
function renderTable(view) {
  const table = $("#table");
  const hasFields = Boolean(view.fields || view.supply);
  setHTML($("#dayline"), dayLine(view, ctx) + `<span class="counts">${countsHTML(view)}</span>`);
  table.classList.toggle("no-fields", !hasFields);
  setHTML($("#fields"), fieldsHTML(view, ctx));
  setHTML($("#supply"), supplyHTML(view, ctx));
  setHTML($("#public-lessons"), publicLessonsHTML(view, ctx));
  setHTML($("#sister"), view.sister ? sisterHTML(view, ctx, state.sisterLog[state.step] || {}) : "");
  const island = $("#island");
  const board = state.payload.island;
  if (!board || !Array.isArray(view.island)) { island.hidden = true; } else {
    island.hidden = false;
    for (const cell of view.island) {
      if (cell.item && cell.item.kind === "cat" && !cell.item._svg) {
        Object.defineProperty(cell.item, "_svg", { value: islandCatSvg(cell.item, ctx.shapes), enumerable: false });
      }
    }
    const path = state.oshaxPaths[state.step] || [];
    setHTML(island.querySelector(".content"), cached(view.island, "isl:" + view.oshax + ":" + path.join(",") + ":" + ((view.turn && view.turn.touched) || []).join(","), () => islandSVG(view, board, path)));
    setHTML(island.querySelector(".offer"), cached(view.island, "offer", () => offerHTML(view, ctx)));
    const extra = [];
    if (view.treasure_supply) extra.push(`<span>Treasures: ${Object.entries(view.treasure_supply).map(([k, n]) => `${esc(k.replace(/_\d+$/, "").replace(/_/g, " "))} ×${n}`).join(", ")}</span>`);
    if (view.round_counter_cats) extra.push(`<span>Round counter: ${view.round_counter_cats.length} cats</span>`);
    setHTML(island.querySelector(".island-extra"), extra.join(" · "));
  }
  const rest = Object.keys(view).filter((k) => !KNOWN.has(k));
  const more = $("#more");
  more.hidden = rest.length === 0;
  if (rest.length) setHTML(more.querySelector(".content"), `<dl class="kv">${rest.map((k) => `<dt>${esc(k.replace(/_/g, " "))}</dt><dd><code>${esc(JSON.stringify(view[k]))}</code></dd>`).join("")}</dl>`);
}

// ---- the step, the score, the result --------------------------------------------------------
function renderStep() {
  const i = state.step;
  const events = (state.payload.events[i] || []).filter((e) => e.say);
  let html = "";
  if (i === 0) {
    html += '<p class="say">The table is set.</p>';
  } else {
    const s = state.payload.steps[i - 1];
    const secs = s.seconds === null || s.seconds === undefined ? ""
      : `<span class="time" title="time the bot took">${s.seconds >= 0.001 ? (s.seconds * 1000).toFixed(1) + " ms" : Math.round(s.seconds * 1e6) + " µs"}</span>`;
    const card = s.action && Number.isInteger(s.action.card) && state.payload.cards[String(s.action.card)] && !/^a card|chooses a card|buys a card/.test(s.say || "")
      ? `<div class="step-card">${cardFace(s.action.card, state.payload.cards[String(s.action.card)], 'data-fresh="1"')}</div>` : "";
    for (const f of faultsAt(i)) {
      html += `<p class="fault-note" role="note"><strong>Fault:</strong> ${esc(f.say || `${fullName(f.seat)}: ${f.kind}`)}${f.message ? `<span class="detail">${esc(f.message)}</span>` : ""}</p>`;
    }
    const tag = s.default ? '<span class="default-tag">default policy</span>' : "";
    html += `<p class="say${s.default ? " default-move" : ""}" style="--seat:${SEAT_COLOURS[s.seat % 4]}" tabindex="0" title="${esc(s.text)}" data-raw="${esc(s.text)}">${esc(s.say || s.text)}${tag}</p>` +
      `<p class="raw"><code>${esc(s.text)}</code> ${secs}</p>${card}`;
    if (s.note) html += `<p class="note" title="the bot's debug note">${icon("note", "the bot's note")} ${esc(s.note)}</p>`;
  }
  if (events.length) html += `<ul class="events">${events.map((e) => `<li>${esc(e.say)}</li>`).join("")}</ul>`;
  setHTML($("#step-info .content"), html);
  const s = state.payload.steps[i - 1];
  const caption = $("#caption");
  caption.textContent = i === 0 ? "The table is set." : (s.say || s.text);
  caption.style.setProperty("--seat", i === 0 ? "#9aa7b0" : SEAT_COLOURS[s.seat % 4]);
}

// What "Score now" counts, in words beside it (the frames' `scores_count`): the step's picture
// (/matches/N/step/K.png) says what it counts too, so the two never differ unexplained.
const SCORES_COUNT = {
  public: "public scores: private lessons not counted",
  all: "private lessons counted",
  own: "this seat's score only",
};

function renderScores(scores) {
  const el = $("#scores");
  if (!scores) { el.hidden = true; return; }
  el.hidden = false;
  const counts = SCORES_COUNT[state.payload.scores_count];
  setHTML(el.querySelector(".scores-count"), counts ? ` · ${esc(counts)}` : "");
  const order = scores.map((v, s) => [v, s]);
  const extra = extraLines();
  const rows = order.map(([v, s]) =>
    `<tr style="--seat:${SEAT_COLOURS[s % 4]}"><th scope="row"><i></i>${esc(fullName(s))}</th><td class="num">${v === null || v === undefined ? "?" : v}</td></tr>`).join("") +
    extra.map((line) => `<tr style="--seat:${line.colour}" class="extra-line"><th scope="row"><i></i>${esc(line.label)}</th><td class="num">${line.values[state.step] ?? "?"}</td></tr>`).join("");
  setHTML(el.querySelector(".content"), `<table class="now"><caption class="sr">Score if the game ended now</caption><tbody>${rows}</tbody></table>`);
  const range = state._range || (state._range = chartRange(state.payload.scores, extra));
  const last = state.views.length - 1;
  const reveal = resultVisible();
  const upto = reveal || state.live ? last : state.step;
  renderChart($("#chart"), {
    scores: state.payload.scores, frames: state.views.length, step: state.step, upto,
    marks: state._marks, names: state.payload.names || [], range, extra,
    key: `${state.seat}:${state.views.length}`,
  });
}

// Lines of the chart that are not seats: the solo sister's score (frames' `sister_scores`).
const SISTER_COLOUR = "#8e3b6b";
function extraLines() {
  const sister = state.payload.sister_scores;
  return Array.isArray(sister) ? [{ key: "sister", label: "The sister", values: sister, colour: SISTER_COLOUR }] : [];
}

function resultVisible() {
  return state.showResult || (!state.live && state.step === state.views.length - 1);
}

function renderFinal() {
  const el = $("#final");
  const r = state.payload.result;
  const visible = resultVisible() && !state.live;
  el.hidden = !visible;
  if (!visible) { setHTML(el.querySelector(".content"), ""); return; }
  if (!r) { setHTML(el.querySelector(".content"), '<p class="nil">No result recorded (the match did not finish).</p>'); return; }
  setHTML(el.querySelector(".content"), cached(r, "final", () => {
    const n = r.scores.length;
    const keys = [];
    for (const b of r.breakdown || []) for (const k of Object.keys(b)) if (k !== "total" && typeof b[k] === "number" && !keys.includes(k)) keys.push(k);
    const winners = (r.winners || []).map((s) => fullName(s));
    let html = winners.length ? `<p class="winners">${icon("trophy")} Winner: ${esc(winners.join(", "))}</p>` : "";
    html += `<div class="scroll" tabindex="0" role="region" aria-label="Final scores"><table class="final-table"><thead><tr><th scope="col">Seat</th>${Array.from({ length: n }, (_, s) => `<th scope="col" style="color:${SEAT_COLOURS[s % 4]}">${esc(shortName(s))}</th>`).join("")}</tr></thead><tbody>`;
    for (const k of keys) html += `<tr><th scope="row">${esc(k.replace(/_/g, " "))}</th>${(r.breakdown || []).map((b) => `<td class="num">${b[k] ?? ""}</td>`).join("")}</tr>`;
    html += `<tr class="total"><th scope="row">total</th>${r.scores.map((v, s) => `<td class="num final-score" data-seat="${s}">${v}</td>`).join("")}</tr>`;
    html += `<tr><th scope="row">rank</th>${(r.ranks || []).map((v) => `<td class="num">${v}</td>`).join("")}</tr></tbody></table></div>`;
    if (r.tiebreak) html += `<p>Tiebreak: ${esc(String(r.tiebreak.name || "").replace(/_/g, " "))} ${esc((r.tiebreak.values || []).join(", "))}</p>`;
    if (r.sister) html += `<p>The sister: ${esc(typeof r.sister === "object" ? (r.sister.total ?? JSON.stringify(r.sister)) : r.sister)}${r.won !== undefined ? (r.won ? " — the player wins" : " — the sister wins") : ""}</p>`;
    const faults = state.payload.faults || [];
    if (faults.length) html += `<p class="faults">Faults: ${faults.map((f) => esc(f.say || `${fullName(f.seat)}: ${f.kind}${f.step !== undefined ? " at step " + f.step : ""}`)).join(" ")}</p>`;
    return html;
  }));
}

// ---- animation --------------------------------------------------------------------------------
function snapshotPieces() {
  const out = new Map();
  for (const el of root.querySelectorAll("#fields [data-tile-id], #supply [data-tile-id], #island [data-tile-id]")) {
    out.set(el.dataset.tileId, { rect: el.getBoundingClientRect(), html: el.outerHTML });
  }
  const fish = {};
  for (const fig of root.querySelectorAll("figure.boat")) {
    const b = fig.querySelector(".fish b");
    if (b) fish[fig.dataset.seat] = Number(b.textContent);
  }
  return { pieces: out, fish };
}

function fly(html, from, to, scale = [1, 1]) {
  const ghost = document.createElement("div");
  ghost.className = "ghost";
  ghost.innerHTML = html;
  ghost.style.cssText = `left:${from.left + window.scrollX}px;top:${from.top + window.scrollY}px;width:${from.width}px;height:${from.height}px`;
  document.body.appendChild(ghost);
  const dx = to.left - from.left, dy = to.top - from.top;
  ghost.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(${scale[0]}, ${scale[1]})`, opacity: 0.85 }],
    { duration: 450, easing: "cubic-bezier(.3,.7,.3,1)" }).finished.then(() => ghost.remove(), () => ghost.remove());
}

function animateChange(before, prevView, view) {
  const players = playersOf(view), prevPlayers = playersOf(prevView);
  // A tile taken from a field (a rescue, the sister, a family take) flies to the taker's boat.
  const step = state.payload.steps[state.step - 1];
  const onBoat = new Set(players.flatMap((p) => boatOf(p).tiles.map((t) => String(t.id))));
  const stillThere = new Set(Array.from(root.querySelectorAll("#fields [data-tile-id], #supply [data-tile-id], #island [data-tile-id]")).map((el) => el.dataset.tileId));
  const fig = step ? root.querySelector(`figure.boat[data-seat="${step.seat}"] > svg`) : null;
  if (fig) {
    const box = fig.getBoundingClientRect();
    for (const [id, piece] of before.pieces) {
      if (stillThere.has(id) || onBoat.has(id)) continue;
      const to = { left: box.left + box.width / 2 - piece.rect.width / 2, top: box.top + box.height / 2 - piece.rect.height / 2 };
      fly(piece.html, piece.rect, to, [1.4, 1.4]);
    }
  }
  players.forEach((p, s) => {
    const had = new Set(boatOf(prevPlayers[s]).tiles.map((t) => String(t.id)));
    const fig = root.querySelector(`figure.boat[data-seat="${s}"]`);
    if (!fig) return;
    for (const t of boatOf(p).tiles) {
      if (had.has(String(t.id))) continue;
      const target = fig.querySelector(`g.tile[data-tile-id="${t.id}"]`);
      if (!target) continue;
      target.classList.add("arrived");
      const from = before.pieces.get(String(t.id));
      if (!from) continue;
      const to = target.getBoundingClientRect();
      fly(from.html, from.rect, to, [to.width / Math.max(1, from.rect.width), to.height / Math.max(1, from.rect.height)]);
    }
    const now = p.fish, was = before.fish[String(s)];
    if (now !== undefined && was !== undefined && now !== was) {
      const badge = document.createElement("span");
      badge.className = "fish-delta " + (now < was ? "spent" : "gained");
      badge.innerHTML = `${now < was ? "−" : "+"}${Math.abs(now - was)} ${icon("fish")}`;
      fig.querySelector("figcaption").appendChild(badge);
      badge.animate([{ transform: "translateY(0)", opacity: 1 }, { transform: "translateY(-18px)", opacity: 0 }],
        { duration: 900, easing: "ease-out" }).finished.then(() => badge.remove(), () => badge.remove());
    }
  });
  const card = root.querySelector('#step-info [data-fresh="1"]');
  if (card) card.animate([{ transform: "translateY(14px) scale(.85)", opacity: 0 }, { transform: "none", opacity: 1 }], { duration: 320, easing: "ease-out" });
}

// ---- drawing one step ------------------------------------------------------------------------
function show(step, opts = {}) {
  if (!state.payload || !state.views.length) return;
  const t0 = performance.now();
  const last = state.views.length - 1;
  const prev = state.step;
  const next = Math.max(0, Math.min(last, Math.trunc(Number(step) || 0)));
  const animate = opts.animate && motion() && next === prev + 1;
  const before = animate ? snapshotPieces() : null;
  state.step = next;
  const view = state.views[next];
  const scores = state.payload.scores ? state.payload.scores[next] : null;
  const timed = state.profile ? (name, fn) => {
    const t = performance.now(); fn(); state.profile[name] = (state.profile[name] || 0) + performance.now() - t;
  } : (name, fn) => fn();
  timed("table", () => renderTable(view));
  timed("boats", () => renderBoats(view, scores));
  timed("step", () => renderStep());
  timed("scores", () => renderScores(scores));
  timed("final", () => renderFinal());
  const seek = $("#seek");
  seek.max = String(last);
  seek.value = String(next);
  seek.setAttribute("aria-valuetext", `Step ${next} of ${last}`);
  $("#step-label").textContent = `Step ${next} / ${last}`;
  root.classList.toggle("at-end", next === last);
  timed("moves", () => markMove($("#moves"), next));
  renderFollow();
  if (animate) animateChange(before, state.views[prev], view);
  const ms = performance.now() - t0;
  state.lastRenderMs = ms;
  state.maxRenderMs = Math.max(state.maxRenderMs, ms);
  state.renders += 1;
  if (!opts.noUrl) syncUrl();
}

// The address keeps the moment (step and view), so it can be shared or reloaded; an embed's
// address belongs to the page around it and is left alone.
function momentUrl() {
  const url = new URL(root.dataset.shareUrl || window.location.href, window.location.href);
  url.searchParams.set("step", String(state.step));
  if (state.seat === "spectator") url.searchParams.delete("seat"); else url.searchParams.set("seat", state.seat);
  return url;
}

function syncUrl() {
  if (root.dataset.chromeless) return;
  const url = new URL(window.location.href);
  url.searchParams.set("step", String(state.step));
  if (state.seat === "spectator") url.searchParams.delete("seat"); else url.searchParams.set("seat", state.seat);
  window.history.replaceState(null, "", url);
}

// ---- following a live match -------------------------------------------------------------------
// The spectator's own moves go through go(): a move to an earlier step than the newest stops
// following; reaching the newest step of a live match (End, "Follow") follows again.
function go(step, opts = {}) {
  show(step, opts);
  if (state.live) state.follow = state.step >= state.views.length - 1;
  renderFollow();
}

function renderFollow() {
  const button = $("#btn-live");
  if (!button) return;
  button.hidden = !state.live;
  button.setAttribute("aria-pressed", String(Boolean(state.live && state.follow)));
  button.textContent = state.follow ? "Following" : "Follow";
  button.title = state.follow ? "Showing each step as it is played" : "Jump to the newest step and follow the match";
}

// ---- playback -----------------------------------------------------------------------------------
function tick() {
  if (state.step >= state.views.length - 1) { if (!state.live) pause(); return; }
  go(state.step + 1, { animate: true });
}
function play() {
  if (state.step >= state.views.length - 1 && !state.live) show(0);
  state.playing = true;
  $("#btn-play").innerHTML = icon("pause");
  $("#btn-play").setAttribute("aria-label", "Pause");
  clearInterval(state.timer);
  state.timer = setInterval(tick, 700 / state.speed);
}
function pause() {
  state.playing = false;
  $("#btn-play").innerHTML = icon("play");
  $("#btn-play").setAttribute("aria-label", "Play");
  clearInterval(state.timer);
}

// ---- loading and live -------------------------------------------------------------------------
function framesUrl(seat, since, play) {
  const url = new URL(root.dataset.uploadUrl || root.dataset.framesUrl, window.location.href);
  url.searchParams.set("seat", seat);
  if (since !== undefined) url.searchParams.set("since", String(since));
  // the play followed so far: if the match started again, the server sends the new play whole
  if (play) url.searchParams.set("play", play);
  return url;
}

// "● live" only while the match is played; a queued one is waiting for a worker, and the
// page says so in words (with its place in the queue) instead of drawing an empty table.
function liveBadge(status) {
  const badge = $("#live-badge");
  const waiting = status === "queued" || status === "waiting";
  badge.textContent = waiting ? "waiting for a worker" : "● live";
  badge.classList.toggle("waiting", waiting);
  badge.hidden = !state.live || waiting;
  root.classList.toggle("is-waiting", waiting);
}

function waitingText(body) {
  if (body.status !== "queued") return "The match is starting; it will appear here as it is played.";
  const place = body.queue_place;
  const where = Number.isInteger(place)
    ? (place <= 1 ? " It is next in the queue." : ` It is number ${place} in the queue.`) : "";
  return `This match is waiting for a worker.${where} It will appear here as it is played.`;
}

function setStatus(text, error = false) {
  const el = $("#status");
  el.textContent = text;
  el.classList.toggle("error", error);
}

function adopt(body, step) {
  state.payload = body;
  state.seat = String(body.seat);
  state.live = Boolean(body.live);
  state.cursor = body.cursor || (body.steps ? body.steps.length : 0);
  state._range = null;
  $("#boats")._shape = undefined;
  const views = [body.views.base];
  for (const p of body.views.patches) views.push(applyPatch(views[views.length - 1], p));
  state.views = views;
  state._marks = dayMarks();
  deriveTimelines();
  renderSeekMarks();
  const select = $("#seat-select");
  if (select.options.length !== body.seats + 1) {
    while (select.options.length > 1) select.remove(1);
    for (let s = 0; s < body.seats; s++) select.add(new Option(`As ${fullName(s)}`, String(s)));
  }
  select.value = state.seat;
  select.disabled = state.live;
  root.classList.toggle("is-live", state.live);
  liveBadge(body.status);
  setStatus(state.note || "");
  root.classList.remove("is-empty");
  renderMoves($("#moves"), movesOf());
  show(step);
}

// The move list's entries: each step's sentence, with the day and phase it was played in.
function movesOf() {
  const p = state.payload;
  return p.steps.map((s, k) => {
    const before = state.views[k] || {};
    return { step: k + 1, seat: s.seat, say: s.say || `${fullName(s.seat)} acts`, day: before.day, phase: before.phase,
      colour: SEAT_COLOURS[s.seat % 4], fault: faultsAt(k + 1).length > 0, judged: state.judged.get(k + 1) };
  });
}

// The view the address asks for, when the match has it: a seat it does not have (?seat=7 of a
// 4-seat match), or any seat's view while the match is still played, is never asked of the
// server (which would refuse it): the spectator's view opens, and the status line says why.
function askedSeat(asked) {
  if (asked === null || asked === "" || asked === "spectator") return "spectator";
  const seats = Number(root.dataset.seats);
  if (root.dataset.uploadUrl || !Number.isInteger(seats)) return asked;
  const seat = Number(asked);
  if (/^\d+$/.test(asked) && seat < seats && !root.classList.contains("is-live")) return asked;
  state.note = root.classList.contains("is-live") && /^\d+$/.test(asked) && seat < seats
    ? "The seats' views open when the match has finished: showing the spectator's view."
    : `This match has no seat “${asked}” (its seats are 0 to ${seats - 1}): showing the spectator's view.`;
  return "spectator";
}

// `step` null: a live match is followed from its newest step, a replay opens at its start.
async function load(seat, step) {
  const upload = root.dataset.uploadUrl;
  if (upload && !state.file) return;
  setStatus("Loading the game…");
  const init = upload
    ? { method: "POST", body: state.file, headers: { Accept: "application/json", "Content-Type": "application/zstd", "X-CSRFToken": root.dataset.csrf } }
    : { headers: { Accept: "application/json" } };
  const response = await fetch(framesUrl(seat), init);
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    if (response.status === 400 && seat !== "spectator" && !upload) {
      // An unknown seat (or a seat's view of a match still played): the spectator's view.
      state.note = `There is no view “${seat}” of this match${body.error && body.error.message ? ` (${body.error.message.replace(/\.$/, "")})` : ""}: showing the spectator's view.`;
      return load("spectator", step);
    }
    setStatus((body.error && body.error.message) || `Error ${response.status}`, true);
    return;
  }
  if (body.waiting) {
    state.live = true;
    state.follow = true;
    liveBadge(body.status);
    setStatus(waitingText(body));
    schedulePoll();
    return;
  }
  if (body.live && step === null) state.follow = true;
  else if (body.live) state.follow = false;
  adopt(body, step === null ? (body.live ? Number.MAX_SAFE_INTEGER : 0) : step);
  if (!state.live) loadMarks(body).catch(() => undefined);
  if (!state.live) loadJudged(body).catch(() => undefined);
  if (state.live) {
    if (state.follow) state.step = state.views.length - 1;
    renderFollow();
    schedulePoll();
  }
}

function schedulePoll() {
  clearTimeout(state.pollTimer);
  state.pollTimer = setTimeout(() => poll().catch(() => schedulePoll()), POLL_MS);
}

async function poll() {
  const since = state.payload ? state.cursor : 0;
  const play = state.payload && state.payload.play;
  const response = await fetch(framesUrl("spectator", since, play), { headers: { Accept: "application/json" }, cache: "no-store" });
  const body = await response.json();
  if (!response.ok || !body.live) {
    // The match has finished: the ordinary replay takes over, at its last step.
    state.live = false;
    const at = !state.payload || state.follow ? Number.MAX_SAFE_INTEGER : state.step;
    state.follow = false;
    await load("spectator", at);
    document.dispatchEvent(new CustomEvent("viewer:finished"));
    return;
  }
  if (body.waiting) { liveBadge(body.status); setStatus(waitingText(body)); schedulePoll(); return; }
  if (body.views) {
    // A whole payload (the first steps, or a poll from step 0): take it, still following.
    const following = !state.payload || state.follow;
    state.note = "";
    adopt(body, following ? Number.MAX_SAFE_INTEGER : state.step);
    schedulePoll();
    return;
  }
  if (body.steps && body.steps.length && body.from === state.cursor) {
    const following = state.follow;
    const p = state.payload;
    for (let k = 0; k < body.steps.length; k++) {
      p.steps.push(body.steps[k]);
      p.events.push(body.events[k]);
      p.views.patches.push(body.patches[k]);
      if (p.scores) p.scores.push(body.scores[k]);
      state.views.push(applyPatch(state.views[state.views.length - 1], body.patches[k]));
    }
    state.cursor = body.cursor;
    state._range = chartRange(p.scores || []);
    state._marks = dayMarks();
    deriveTimelines();
    renderMoves($("#moves"), movesOf());
    if (following) show(state.views.length - 1, { animate: body.steps.length === 1 });
    else show(state.step, { noUrl: true });
  }
  schedulePoll();
}

// "Copy link": the address of this moment, to the clipboard (or selected for copying by hand
// where the page may not write the clipboard).
async function copyLink(button) {
  const url = momentUrl().toString();
  const out = $("#copy-status");
  try {
    await navigator.clipboard.writeText(url);
    out.textContent = "Link copied.";
  } catch (err) {
    out.innerHTML = `Copy this link: <input type="text" readonly value="${esc(url)}" aria-label="Link to this step">`;
    const input = out.querySelector("input");
    input.focus(); input.select();
  }
  button.dataset.copied = url;
}

// ---- wiring ------------------------------------------------------------------------------------
function wire() {
  for (const [id, name] of [["#btn-start", "first"], ["#btn-back", "back"], ["#btn-play", "play"], ["#btn-forward", "forward"], ["#btn-end", "last"]]) {
    $(id).innerHTML = icon(name);
  }
  const step = (d) => () => { pause(); go(state.step + d, { animate: d === 1 }); };
  $("#btn-start").addEventListener("click", () => { pause(); go(0); });
  $("#btn-back").addEventListener("click", step(-1));
  $("#btn-forward").addEventListener("click", step(1));
  $("#btn-end").addEventListener("click", () => { pause(); go(state.views.length - 1); });
  $("#btn-live").addEventListener("click", () => { pause(); state.follow = true; if (state.views.length) show(state.views.length - 1); renderFollow(); });
  // opened again: the current step is scrolled into the list's view
  $("#moves-panel").addEventListener("toggle", () => { $("#moves")._current = null; if (state.payload) markMove($("#moves"), state.step); });
  const copy = $("#btn-copy");
  if (copy) copy.addEventListener("click", () => copyLink(copy));
  $("#moves").addEventListener("click", (e) => {
    const a = e.target.closest("a[data-step]");
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    pause();
    go(Number(a.dataset.step));
  });
  $("#btn-play").addEventListener("click", () => (state.playing ? pause() : play()));
  $("#seek").addEventListener("input", (e) => { pause(); go(Number(e.target.value)); });
  $("#seek-marks").addEventListener("click", (e) => {
    const mark = e.target.closest(".seek-fault");
    if (mark) { pause(); go(Number(mark.dataset.frame)); }
  });
  $("#speed").addEventListener("change", (e) => {
    state.speed = Number(e.target.value);
    if (state.playing) play();
  });
  $("#seat-select").addEventListener("change", (e) => { pause(); state.note = ""; load(e.target.value, state.step); });
  $("#show-result").addEventListener("change", (e) => { state.showResult = e.target.checked; show(state.step, { noUrl: true }); });
  $("#chart").addEventListener("click", (e) => {
    const i = chartStep($("#chart"), e);
    if (i !== null) { pause(); go(i); }
  });
  document.addEventListener("keydown", (e) => {
    if (!state.payload || e.target.closest("input[type=text], input[type=range], select, textarea") || e.altKey || e.ctrlKey || e.metaKey) return;
    const keys = {
      " ": () => (state.playing ? pause() : play()), ArrowLeft: step(-1), ArrowRight: step(1),
      Home: () => { pause(); go(0); }, End: () => { pause(); go(state.views.length - 1); },
    };
    const action = keys[e.key];
    if (action && !(e.key === " " && e.target.closest("button"))) { e.preventDefault(); action(); }
  });
  // Touch: swipe the table left or right to step.
  let touch = null;
  const board = $(".main-col");
  board.addEventListener("touchstart", (e) => { touch = e.touches.length === 1 ? [e.touches[0].clientX, e.touches[0].clientY] : null; }, { passive: true });
  board.addEventListener("touchend", (e) => {
    if (!touch) return;
    const t = e.changedTouches[0], dx = t.clientX - touch[0], dy = t.clientY - touch[1];
    if (Math.abs(dx) > 60 && Math.abs(dx) > 2 * Math.abs(dy)) { pause(); go(state.step + (dx < 0 ? 1 : -1), { animate: dx < 0 }); }
    touch = null;
  }, { passive: true });
  const fileInput = document.getElementById("replay-file");
  if (fileInput) {
    fileInput.addEventListener("change", async () => {
      const file = fileInput.files[0];
      if (!file) return;
      // The replay on screen goes first: a file that cannot be opened never shows under the
      // previous one's name.
      pause();
      root.classList.add("is-empty");
      state.payload = null;
      document.getElementById("file-name").textContent = "";
      state.file = await file.arrayBuffer();
      try {
        await load("spectator", 0);
      } catch (err) {
        setStatus(`Could not open the replay: ${err.message || err}`, true);
      }
      if (state.payload) {
        document.getElementById("file-name").textContent = file.name;
      } else {
        setStatus(`“${file.name}” is not a replay this site can open: ${$("#status").textContent}`, true);
      }
    });
  }
}

if (root) {
  wire();
  state.show = show;
  const params = new URLSearchParams(root.dataset.query !== undefined ? root.dataset.query : window.location.search);
  const asked = params.get("step");
  const start = asked === null || asked === "" || !Number.isFinite(Number(asked)) ? null : Math.max(0, Math.trunc(Number(asked)));
  load(askedSeat(params.get("seat")), start).catch((err) => setStatus("Could not load the replay: " + err, true));
}
