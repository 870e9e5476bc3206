/* The replay viewer: loads the frames payload once, rebuilds every view from its patches,
 * then draws any step on demand. Data-driven: boats come from `layouts` + the tiles in the
 * view; every other part of the view is drawn generically (per-seat arrays as a table,
 * tile lists as chips, card ids with their labels), so every mode renders.
 * No build step, no dependencies. window.viewer exposes state for tests and debugging. */
(function () {
  "use strict";

  const CELL = 18;
  const COLOURS = {
    blue: "#3b7dd8", green: "#3fa34d", red: "#d64541", purple: "#8e5cc2", orange: "#f08a24",
  };
  const TREASURE = { common_treasure: "#d9b44a", rare_treasure: "#b8860b" };
  const ROOM_FILLS = ["#f6ead2", "#efe0c2", "#f3e6cb", "#ead9b8"];
  // Keys whose integer lists hold card ids (counts such as "hand_count" never do).
  const CARD_KEYS = /lesson|card|hand|dealt|kept|deck|discard|played|draft|bought|rescue/i;
  const COUNT_KEYS = /count|used|size|number|total/i;
  const isCardList = (key) => CARD_KEYS.test(key) && !COUNT_KEYS.test(key);
  const isCardScalar = (key) => /(^|_)cards?$/i.test(key);

  const root = document.getElementById("viewer");
  const $ = (sel) => root.querySelector(sel);
  const state = {
    payload: null, views: [], step: 0, seat: "spectator", playing: false, timer: null,
    speed: 1, lastRenderMs: 0, maxRenderMs: 0, renders: 0, staticBoats: {},
  };
  window.viewer = state;

  // ---- patches (inverse of replays/frames.py diff) ---------------------------------------
  function applyPatch(old, p) {
    if (p === null || p === undefined) return old;
    if (p[0] === "=") return p[1];
    if (p[0] === "d") {
      const out = Object.assign({}, old);
      for (const k of p[2]) delete out[k];
      for (const k in p[1]) out[k] = applyPatch(old ? old[k] : undefined, p[1][k]);
      return out;
    }
    if (p[0] === "l") {
      const out = (old || []).slice(0, p[1]);
      for (const k in p[2]) {
        const i = Number(k);
        out[i] = applyPatch(i < out.length ? out[i] : undefined, p[2][k]);
      }
      return out;
    }
    throw new Error("unknown patch op " + p[0]);
  }

  // ---- helpers ----------------------------------------------------------------------------
  function esc(value) {
    return String(value).replace(/[&<>"']/g, (c) => (
      { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  }
  function label(key) { return esc(String(key).replace(/_/g, " ")); }
  function isTile(v) { return v && typeof v === "object" && !Array.isArray(v) && "kind" in v && ("shape" in v || "colour" in v); }
  function tileColour(t) {
    if (t.kind === "cat" || t.kind === "oshax") return COLOURS[t.colour] || "#999";
    return TREASURE[t.kind] || "#bbb";
  }
  function seatName(s) {
    const players = (state.payload.header.players || []);
    const p = players.find((x) => x.seat === s) || {};
    if (!p.bot) return `Seat ${s}`;
    const v = p.version === null || p.version === undefined ? "" : String(p.version);
    return esc(p.bot) + (/^\d+$/.test(v) ? " v" + v : v ? ` (${esc(v)})` : "");
  }
  function cardChip(id) {
    const card = state.payload.cards[String(id)];
    if (!card) return `<span class="chip">${esc(id)}</span>`;
    return `<span class="chip card fam-${esc(card.family)}" title="${esc(card.effect || "")}">#${esc(id)} ${esc(card.label)}</span>`;
  }
  function tileChip(t) {
    const name = t.kind === "cat" ? t.colour : t.kind === "oshax" ? `oshax ${t.colour || ""}`
      : `${t.kind === "rare_treasure" ? "rare" : "common"} ${String(t.shape || "").replace(/_\d+$/, "")}`;
    return `<span class="chip tile kind-${esc(t.kind)}" style="--c:${tileColour(t)}" title="${esc(t.shape || "")}${t.id !== undefined ? " #" + esc(t.id) : ""}">${esc(name)}</span>`;
  }

  function renderValue(key, v, depth) {
    if (v === null || v === undefined) return '<span class="nil">—</span>';
    if (typeof v === "boolean") return v ? "yes" : "no";
    if (typeof v === "number" || typeof v === "string") {
      if (typeof v === "number" && isCardScalar(key) && state.payload.cards[String(v)]) return cardChip(v);
      return esc(v);
    }
    if (Array.isArray(v)) {
      if (v.length === 0) return '<span class="nil">none</span>';
      if (v.every(isTile)) return `<span class="chips">${v.map(tileChip).join("")}</span>`;
      if (v.every((x) => typeof x === "number") && isCardList(key)) {
        return `<span class="chips">${v.map(cardChip).join("")}</span>`;
      }
      if (v.every((x) => typeof x !== "object" || x === null)) return esc(v.join(", "));
      if (depth > 2) return `<code>${esc(JSON.stringify(v))}</code>`;
      return `<ol class="items">${v.map((x) => `<li>${renderValue(key, x, depth + 1)}</li>`).join("")}</ol>`;
    }
    if (typeof v === "object") {
      if (isTile(v)) return tileChip(v);
      if (typeof v.label === "string" && ("id" in v || "effect" in v)) {
        return `<span class="chip card" title="${esc(v.effect || "")}">${"id" in v ? "#" + esc(v.id) + " " : ""}${esc(v.name || v.label)}</span>`;
      }
      if (isCardList(key) && typeof v.id === "number" && state.payload.cards[String(v.id)]) return cardChip(v.id);
      if (depth > 2) return `<code>${esc(JSON.stringify(v))}</code>`;
      const rows = Object.keys(v).map((k) => `<dt>${label(k)}</dt><dd>${renderValue(k, v[k], depth + 1)}</dd>`);
      return `<dl class="kv">${rows.join("")}</dl>`;
    }
    return esc(v);
  }

  // ---- boats --------------------------------------------------------------------------------
  function findBoats(view) {
    if (Array.isArray(view.boats)) return view.boats.map(normBoat);
    const players = view.players || view.seats_state;
    if (Array.isArray(players)) {
      return players.map((p) => normBoat(p && typeof p.boat === "object" ? p.boat : { boat: p.boat, tiles: p.tiles }));
    }
    return [];
  }
  function normBoat(b) {
    if (!b) return { boat: null, tiles: [] };
    return { boat: b.boat || b.name || b.layout, tiles: b.tiles || [] };
  }

  function staticBoat(name) {
    if (state.staticBoats[name]) return state.staticBoats[name];
    const layout = state.payload.layouts[name];
    const out = { svg: "", width: 22 * CELL, height: 9 * CELL };
    if (!layout) { state.staticBoats[name] = out; return out; }
    let maxX = 0, maxY = 0;
    for (const [x, y] of layout.cells) { maxX = Math.max(maxX, x); maxY = Math.max(maxY, y); }
    out.width = (maxX + 1) * CELL; out.height = (maxY + 1) * CELL;
    const roomOf = new Map();
    layout.rooms.forEach((r, i) => r.cells.forEach(([x, y]) => roomOf.set(x + "," + y, i)));
    const parts = [];
    for (const [x, y] of layout.cells) {
      const r = roomOf.get(x + "," + y);
      parts.push(`<rect x="${x * CELL}" y="${y * CELL}" width="${CELL}" height="${CELL}" fill="${r === undefined ? "#fbf5e8" : ROOM_FILLS[r % ROOM_FILLS.length]}" stroke="#e0d3b8" stroke-width="0.5"/>`);
    }
    // Room walls: an edge between a cell and a neighbour of another room (or outside).
    const inBoat = new Set(layout.cells.map(([x, y]) => x + "," + y));
    const walls = [];
    for (const [x, y] of layout.cells) {
      const r = roomOf.get(x + "," + y);
      for (const [dx, dy] of [[1, 0], [0, 1], [-1, 0], [0, -1]]) {
        const k = (x + dx) + "," + (y + dy);
        if (inBoat.has(k) && roomOf.get(k) === r) continue;
        if (inBoat.has(k) && (dx < 0 || dy < 0)) continue; // drawn from the other side
        const x1 = (dx === 1 ? x + 1 : x) * CELL, y1 = (dy === 1 ? y + 1 : y) * CELL;
        const x2 = dx === 0 ? x1 + CELL : x1, y2 = dy === 0 ? y1 + CELL : y1;
        walls.push(`M${x1} ${y1}L${x2} ${y2}`);
      }
    }
    parts.push(`<path d="${walls.join("")}" stroke="#7a5c3a" stroke-width="1.6" fill="none"/>`);
    for (const [x, y] of layout.rats) {
      parts.push(`<circle class="rat" cx="${x * CELL + CELL / 2}" cy="${y * CELL + CELL / 2}" r="${CELL / 4}" fill="#6b6b6b"><title>rat</title></circle>`);
    }
    for (const colour in layout.maps) {
      const [x, y] = layout.maps[colour];
      parts.push(`<rect class="map" x="${x * CELL + 3}" y="${y * CELL + 3}" width="${CELL - 6}" height="${CELL - 6}" fill="none" stroke="${COLOURS[colour] || "#333"}" stroke-width="2.5"><title>${esc(colour)} treasure map</title></rect>`);
    }
    out.svg = parts.join("");
    state.staticBoats[name] = out;
    return out;
  }

  function tileSvg(t) {
    const cells = t.cells || [];
    const own = new Set(cells.map(([x, y]) => x + "," + y));
    const fill = tileColour(t);
    const parts = [];
    for (const [x, y] of cells) {
      parts.push(`<rect x="${x * CELL}" y="${y * CELL}" width="${CELL}" height="${CELL}" fill="${fill}"/>`);
    }
    const edges = [];
    for (const [x, y] of cells) {
      if (!own.has((x + 1) + "," + y)) edges.push(`M${(x + 1) * CELL} ${y * CELL}v${CELL}`);
      if (!own.has((x - 1) + "," + y)) edges.push(`M${x * CELL} ${y * CELL}v${CELL}`);
      if (!own.has(x + "," + (y + 1))) edges.push(`M${x * CELL} ${(y + 1) * CELL}h${CELL}`);
      if (!own.has(x + "," + (y - 1))) edges.push(`M${x * CELL} ${y * CELL}h${CELL}`);
    }
    parts.push(`<path d="${edges.join("")}" stroke="#222" stroke-width="1.4" fill="none"/>`);
    if (t.kind !== "cat" && cells.length) {
      const [x, y] = cells[0];
      const mark = t.kind === "oshax" ? "O" : t.kind === "rare_treasure" ? "★" : "$";
      parts.push(`<text x="${x * CELL + CELL / 2}" y="${y * CELL + CELL * 0.72}" text-anchor="middle" font-size="${CELL * 0.7}" fill="#fff" stroke="#000" stroke-width="0.4">${mark}</text>`);
    }
    return `<g class="tile kind-${esc(t.kind)}" data-colour="${esc(t.colour || "")}"><title>${esc(t.kind)} ${esc(t.colour || "")} ${esc(t.shape || "")}</title>${parts.join("")}</g>`;
  }

  // Views rebuilt from patches share every unchanged object with the frame before, so HTML
  // is memoised by object identity and the DOM is only written where the HTML changed.
  const memo = new WeakMap();
  function cached(obj, key, build) {
    if (obj === null || typeof obj !== "object") return build();
    let byKey = memo.get(obj);
    if (!byKey) { byKey = new Map(); memo.set(obj, byKey); }
    if (!byKey.has(key)) byKey.set(key, build());
    return byKey.get(key);
  }
  function setHTML(el, html) {
    if (el._html !== html) { el.innerHTML = html; el._html = html; }
  }
  function valueHTML(key, v) { return cached(v, "v:" + key, () => renderValue(key, v, 1)); }

  function renderBoats(view, scores) {
    const boats = findBoats(view);
    const root = $("#boats");
    const shape = boats.map((b) => b.boat).join("|") + "#" + state.seat;
    if (root._shape !== shape) {
      root._shape = shape;
      root._html = undefined;
      root.innerHTML = boats.map((b, s) => {
        const st = staticBoat(b.boat);
        return `<figure class="boat" data-seat="${s}"><figcaption></figcaption>
          <svg viewBox="-2 -2 ${st.width + 4} ${st.height + 4}" width="${st.width + 4}" height="${st.height + 4}" role="img" aria-label="Boat of seat ${s}"><g class="layout">${st.svg}</g><g class="tiles"></g></svg>
        </figure>`;
      }).join("") || '<p class="nil">This view shows no boats.</p>';
    }
    const seatView = state.seat === "spectator" ? null : Number(state.seat);
    const step = state.payload.steps[state.step - 1];
    const figures = root.querySelectorAll("figure.boat");
    boats.forEach((b, s) => {
      const fig = figures[s];
      const score = scores && scores[s] !== null && scores[s] !== undefined ? `<span class="score">${scores[s]} pts</span>` : "";
      fig.classList.toggle("me", seatView === s);
      fig.classList.toggle("acted", Boolean(step && step.seat === s));
      fig.dataset.tiles = String(b.tiles.length);
      setHTML(fig.querySelector("figcaption"), `<b>Seat ${s}</b> ${seatName(s)} <span class="boatname">${esc(b.boat || "")} boat</span> <span class="ntiles">${b.tiles.length} tiles</span> ${score}`);
      setHTML(fig.querySelector("g.tiles"), cached(b.tiles, "tiles", () => b.tiles.map(tileSvg).join("")));
    });
  }

  // ---- the Duel island ----------------------------------------------------------------------
  function renderIsland(view) {
    const board = state.payload.island;
    const el = $("#island");
    if (!board || !Array.isArray(view.island)) { el.hidden = true; return; }
    el.hidden = false;
    const W = 112, H = 74, pos = {};
    for (const sp of board.spaces) pos[sp.space] = [12 + sp.col * (W + 18), 12 + sp.row * (H + 18)];
    const touched = new Set((view.turn && view.turn.touched) || []);
    const parts = [];
    for (const [a, b] of board.paths) {
      if (!pos[a] || !pos[b]) continue;
      parts.push(`<line x1="${pos[a][0] + W / 2}" y1="${pos[a][1] + H / 2}" x2="${pos[b][0] + W / 2}" y2="${pos[b][1] + H / 2}" stroke="#c9b48a" stroke-width="3" stroke-dasharray="2 5" stroke-linecap="round"/>`);
    }
    for (const cell of view.island) {
      const p = pos[cell.space];
      if (!p) continue;
      const item = cell.item;
      const fill = cell.kind === "card" ? "#e8f0fb" : "#eef7e8";
      const stroke = touched.has(cell.space) ? "#f0a500" : "#9aa7b0";
      parts.push(`<g class="space" data-space="${cell.space}"><rect x="${p[0]}" y="${p[1]}" width="${W}" height="${H}" rx="8" fill="${fill}" stroke="${stroke}" stroke-width="${touched.has(cell.space) ? 3 : 1}"/>`);
      parts.push(`<text x="${p[0] + 6}" y="${p[1] + 14}" font-size="11" fill="#6b7680">${cell.space} ${esc(cell.kind)}</text>`);
      if (item && item.kind === "cat") {
        parts.push(`<rect x="${p[0] + 8}" y="${p[1] + 24}" width="22" height="22" fill="${COLOURS[item.colour] || "#999"}" stroke="#222"/>`);
        parts.push(`<text x="${p[0] + 36}" y="${p[1] + 40}" font-size="11">${esc(String(item.shape || "").replace(/_/g, " "))}${item.fish ? " 🐟" : ""}</text>`);
      } else if (item) {
        const text = String(item.label || item.name || item.kind || "");
        parts.push(`<text x="${p[0] + 8}" y="${p[1] + 40}" font-size="11"><title>${esc(item.effect || "")}</title>${esc(text.length > 17 ? text.slice(0, 16) + "…" : text)}</text>`);
      }
      if (view.oshax === cell.space) {
        parts.push(`<g class="oshax-marker"><circle cx="${p[0] + W - 16}" cy="${p[1] + H - 16}" r="12" fill="#222"/><text x="${p[0] + W - 16}" y="${p[1] + H - 11}" font-size="13" fill="#fff" text-anchor="middle">O</text><title>the Oshax</title></g>`);
      }
      parts.push("</g>");
    }
    const cols = Math.max(...board.spaces.map((sp) => sp.col)) + 1;
    const rows = Math.max(...board.spaces.map((sp) => sp.row)) + 1;
    const w = 24 + cols * (W + 18), h = 24 + rows * (H + 18);
    el.querySelector(".content").innerHTML = `<svg viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="The island">${parts.join("")}</svg>`;
  }

  // ---- panels -------------------------------------------------------------------------------
  function renderStep() {
    const i = state.step;
    const events = state.payload.events[i] || [];
    let html = "";
    if (i === 0) {
      html += "<p>Set-up (before the first decision).</p>";
    } else {
      const s = state.payload.steps[i - 1];
      const secs = s.seconds === null || s.seconds === undefined ? ""
        : ` <span class="time" title="time the bot took">${s.seconds >= 0.001 ? (s.seconds * 1000).toFixed(1) + " ms" : Math.round(s.seconds * 1e6) + " µs"}</span>`;
      html += `<p><b>Seat ${s.seat}</b> (${seatName(s.seat)})${secs}</p><p class="action"><code>${esc(s.text)}</code></p>`;
      if (s.note) html += `<p class="note" title="the bot's debug note">💬 ${esc(s.note)}</p>`;
    }
    if (events.length) {
      html += '<ul class="events">' + events.map((e) => {
        const rest = Object.keys(e).filter((k) => k !== "type" && k !== "step")
          .map((k) => `${label(k)}=${renderValue(k, e[k], 3)}`).join(" ");
        return `<li><b>${label(e.type)}</b> ${rest}</li>`;
      }).join("") + "</ul>";
    }
    $("#step-info .content").innerHTML = html;
  }

  function renderScores(scores) {
    const el = $("#scores");
    if (!scores) { el.hidden = true; return; }
    el.hidden = false;
    el.querySelector(".content").innerHTML = '<table class="grid"><tr>' +
      scores.map((_, s) => `<th>Seat ${s}</th>`).join("") + "</tr><tr>" +
      scores.map((v) => `<td class="num">${v === null ? "?" : v}</td>`).join("") + "</tr></table>";
  }

  function renderState(view) {
    const seats = state.payload.seats;
    const perSeat = [], shared = [];
    for (const key of Object.keys(view)) {
      if (key === "boats" || key === "mode") continue;
      if (state.payload.island && (key === "island" || key === "oshax")) continue;
      const v = view[key];
      if (Array.isArray(v) && v.length === seats && (seats > 1 || key === "players") && !v.every(isTile)) perSeat.push(key);
      else shared.push(key);
    }
    // Rows of the players table: [row label, value key, per-seat values].
    const rows = [];
    for (const key of perSeat) {
      const v = view[key];
      if (key === "players" && v.every((p) => p && typeof p === "object" && !Array.isArray(p))) {
        const keys = [...new Set(v.flatMap((p) => Object.keys(p)))].filter((k) => !["tiles", "boat", "seat"].includes(k));
        for (const k of keys) rows.push([k, v.map((p) => p[k])]);
      } else {
        rows.push([key, v]);
      }
    }
    const seatEl = $("#seat-state .content");
    const seatShape = rows.map((r) => r[0]).join("|") + "#" + seats;
    if (seatEl._shape !== seatShape) {
      seatEl._shape = seatShape;
      seatEl.innerHTML = rows.length
        ? `<table class="grid"><tr><th></th>${Array.from({ length: seats }, (_, s) => `<th>Seat ${s}</th>`).join("")}</tr>${rows.map(([k]) => `<tr><th>${label(k)}</th>${"<td></td>".repeat(seats)}</tr>`).join("")}</table>`
        : '<p class="nil">—</p>';
      seatEl._cells = Array.from(seatEl.querySelectorAll("tr")).slice(1).map((tr) => Array.from(tr.querySelectorAll("td")));
    }
    rows.forEach(([k, values], i) => values.forEach((x, s) => setHTML(seatEl._cells[i][s], valueHTML(k, x))));

    const tableEl = $("#table-state .content");
    const tableShape = shared.join("|");
    if (tableEl._shape !== tableShape) {
      tableEl._shape = tableShape;
      tableEl.innerHTML = `<dl class="kv">${shared.map((k) => `<dt>${label(k)}</dt><dd></dd>`).join("")}</dl>`;
      tableEl._cells = Array.from(tableEl.querySelectorAll("dd"));
    }
    shared.forEach((k, i) => setHTML(tableEl._cells[i], valueHTML(k, view[k])));
  }

  function renderFinal() {
    const r = state.payload.result;
    const el = $("#final .content");
    if (!r) { el.innerHTML = '<p class="nil">No result recorded (the match did not finish).</p>'; return; }
    const n = r.scores.length;
    const keys = [];
    for (const b of r.breakdown || []) {
      for (const k of Object.keys(b)) {
        if (k !== "total" && typeof b[k] === "number" && !keys.includes(k)) keys.push(k);
      }
    }
    let html = `<table class="grid final-table"><tr><th></th>${Array.from({ length: n }, (_, s) => `<th>Seat ${s}<br><small>${seatName(s)}</small></th>`).join("")}</tr>`;
    for (const k of keys) html += `<tr><th>${label(k)}</th>${(r.breakdown || []).map((b) => `<td class="num">${b[k] ?? ""}</td>`).join("")}</tr>`;
    html += `<tr class="total"><th>total</th>${r.scores.map((v, s) => `<td class="num final-score" data-seat="${s}">${v}</td>`).join("")}</tr>`;
    html += `<tr><th>rank</th>${(r.ranks || []).map((v) => `<td class="num">${v}</td>`).join("")}</tr></table>`;
    if (r.tiebreak) html += `<p>Tiebreak: ${label(r.tiebreak.name)} ${esc((r.tiebreak.values || []).join(", "))}</p>`;
    const winners = (r.winners || []).map((s) => `Seat ${s} (${seatName(s)})`).join(", ");
    if (winners) html += `<p class="winners">Winner: ${winners}</p>`;
    const known = new Set(["mode", "seats", "seed", "options", "engine_version", "scores", "ranks",
      "winners", "breakdown", "tiebreak", "boats", "state_hash", "lessons"]);
    const extra = Object.keys(r).filter((k) => !known.has(k));  // e.g. solo: sister, margin, won
    if (extra.length) html += `<dl class="kv result-extra">${extra.map((k) => `<dt>${label(k)}</dt><dd>${renderValue(k, r[k], 1)}</dd>`).join("")}</dl>`;
    const faults = state.payload.faults || [];
    if (faults.length) html += `<p class="faults">Faults: ${faults.map((f) => esc(JSON.stringify(f))).join("; ")}</p>`;
    el.innerHTML = html;
  }

  // ---- drawing one step -------------------------------------------------------------------
  function show(step) {
    const t0 = performance.now();
    const last = state.views.length - 1;
    state.step = Math.max(0, Math.min(last, step | 0));
    const view = state.views[state.step];
    const scores = state.payload.scores ? state.payload.scores[state.step] : null;
    renderIsland(view);
    renderBoats(view, scores);
    renderStep();
    renderScores(scores);
    renderState(view);
    $("#seek").value = String(state.step);
    $("#step-label").textContent = `Step ${state.step} / ${last}`;
    const ms = performance.now() - t0;
    state.lastRenderMs = ms;
    state.maxRenderMs = Math.max(state.maxRenderMs, ms);
    state.renders += 1;
    syncUrl();
  }

  function syncUrl() {
    const url = new URL(window.location.href);
    url.searchParams.set("step", String(state.step));
    if (state.seat === "spectator") url.searchParams.delete("seat"); else url.searchParams.set("seat", state.seat);
    window.history.replaceState(null, "", url);
  }

  // ---- playback -----------------------------------------------------------------------------
  function tick() {
    if (state.step >= state.views.length - 1) { pause(); return; }
    show(state.step + 1);
  }
  function play() {
    if (state.step >= state.views.length - 1) show(0);
    state.playing = true;
    $("#btn-play").textContent = "Pause";
    clearInterval(state.timer);
    state.timer = setInterval(tick, 600 / state.speed);
  }
  function pause() {
    state.playing = false;
    $("#btn-play").textContent = "Play";
    clearInterval(state.timer);
  }

  // ---- loading --------------------------------------------------------------------------------
  async function load(seat, step) {
    const upload = root.dataset.uploadUrl;
    if (upload && !state.file) return;  // the file page waits for a file
    const url = new URL(upload || root.dataset.framesUrl, window.location.href);
    url.searchParams.set("seat", seat);
    $("#status").textContent = "Loading frames…";
    $("#status").classList.remove("error");
    const init = upload
      ? { method: "POST", body: state.file, headers: { Accept: "application/json", "Content-Type": "application/zstd", "X-CSRFToken": root.dataset.csrf } }
      : { headers: { Accept: "application/json" } };
    const response = await fetch(url, init);
    const body = await response.json();
    if (!response.ok) {
      $("#status").textContent = (body.error && body.error.message) || `Error ${response.status}`;
      $("#status").classList.add("error");
      return;
    }
    state.payload = body;
    state.seat = String(body.seat);
    state.staticBoats = {};
    for (const sel of ["#boats", "#seat-state .content", "#table-state .content"]) $(sel)._shape = undefined;
    const views = [body.views.base];
    for (const p of body.views.patches) views.push(applyPatch(views[views.length - 1], p));
    state.views = views;
    $("#seek").max = String(views.length - 1);
    const select = $("#seat-select");
    if (select.options.length !== body.seats + 1) {
      while (select.options.length > 1) select.remove(1);
      for (let s = 0; s < body.seats; s++) select.add(new Option(`Seat ${s}: ${seatName(s).replace(/&[a-z#0-9]+;/g, "")}`, String(s)));
    }
    select.value = state.seat;
    $("#status").textContent = "";
    renderFinal();
    show(step);
  }

  // ---- wiring ----------------------------------------------------------------------------------
  $("#btn-start").addEventListener("click", () => { pause(); show(0); });
  $("#btn-back").addEventListener("click", () => { pause(); show(state.step - 1); });
  $("#btn-forward").addEventListener("click", () => { pause(); show(state.step + 1); });
  $("#btn-end").addEventListener("click", () => { pause(); show(state.views.length - 1); });
  $("#btn-play").addEventListener("click", () => (state.playing ? pause() : play()));
  $("#seek").addEventListener("input", (e) => { pause(); show(Number(e.target.value)); });
  $("#speed").addEventListener("change", (e) => {
    state.speed = Number(e.target.value);
    e.target.blur();
    if (state.playing) play();
  });
  // Selects give the focus back, so the keyboard shortcuts work again at once.
  $("#seat-select").addEventListener("change", (e) => { pause(); e.target.blur(); load(e.target.value, state.step); });
  document.addEventListener("keydown", (e) => {
    if (!state.payload || e.target.closest("input[type=text], select, textarea")) return;
    const keys = { " ": () => (state.playing ? pause() : play()), ArrowLeft: () => { pause(); show(state.step - 1); },
      ArrowRight: () => { pause(); show(state.step + 1); }, Home: () => { pause(); show(0); },
      End: () => { pause(); show(state.views.length - 1); } };
    const action = keys[e.key];
    if (action) { e.preventDefault(); action(); }
  });

  const fileInput = document.getElementById("replay-file");
  if (fileInput) {
    fileInput.addEventListener("change", async () => {
      const file = fileInput.files[0];
      if (!file) return;
      pause();
      state.file = await file.arrayBuffer();
      $("#file-name").textContent = file.name;
      load("spectator", 0).catch((err) => { $("#status").textContent = "Could not load the replay: " + err; });
    });
  }

  const params = new URLSearchParams(window.location.search);
  state.show = show;
  load(params.get("seat") || "spectator", Number(params.get("step") || 0)).catch((err) => {
    $("#status").textContent = "Could not load the replay: " + err;
    $("#status").classList.add("error");
  });
})();
