/* The score-over-time chart: one line per seat (the score the seat would have if the game
 * ended at that step), marks at the start of each day and at each fault, a cursor at the
 * current step. Lines are clipped at the current step unless the result is shown (no spoilers);
 * the lines are drawn once per payload, a step only moves the clip, the cursor and the dots.
 * Clicking (or tapping) the chart seeks to that step. */
import { esc } from "./patch.js";
import { SEAT_COLOURS } from "./draw.js";

const W = 360, H = 170, PAD_L = 30, PAD_R = 8, PAD_T = 12, PAD_B = 20;

export function chartRange(scores, extra = []) {
  let lo = Infinity, hi = -Infinity;
  for (const row of scores) {
    if (!row) continue;
    for (const v of row) if (v !== null && v !== undefined) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  }
  for (const line of extra) {
    for (const v of line.values || []) if (v !== null && v !== undefined) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  }
  if (lo === Infinity) return null;
  if (hi - lo < 10) { hi = lo + 10; }
  return [lo, hi];
}

export function renderChart(el, opts) {
  const { scores, frames, step, upto, marks, names, range } = opts;
  if (!scores || !range) { el.hidden = true; return; }
  el.hidden = false;
  const [lo, hi] = range;
  const last = Math.max(1, frames - 1);
  const px = (i) => PAD_L + (W - PAD_L - PAD_R) * i / last;
  const py = (v) => PAD_T + (H - PAD_T - PAD_B) * (1 - (v - lo) / (hi - lo));
  const clipId = "chart-clip";
  if (el._key !== opts.key) {
    // The static part: axes, day marks, faults, and the lines up to `upto`.
    el._key = opts.key;
    const parts = [];
    const ticks = niceTicks(lo, hi, 4);
    for (const t of ticks) {
      parts.push(`<line x1="${PAD_L}" x2="${W - PAD_R}" y1="${py(t)}" y2="${py(t)}" stroke="#e6eaee"/><text x="${PAD_L - 4}" y="${py(t) + 4}" text-anchor="end" class="tick">${t}</text>`);
    }
    if (lo < 0 && hi > 0) parts.push(`<line x1="${PAD_L}" x2="${W - PAD_R}" y1="${py(0)}" y2="${py(0)}" stroke="#b9c2ca"/>`);
    for (const d of marks.days || []) {
      parts.push(`<line class="day-mark" x1="${px(d.frame)}" x2="${px(d.frame)}" y1="${PAD_T}" y2="${H - PAD_B}" stroke="#9aa7b0" stroke-dasharray="3 3"/><text x="${px(d.frame) + 2}" y="${H - 6}" class="tick">D${esc(d.day)}</text>`);
    }
    const seats = Math.max(...scores.map((r) => (r ? r.length : 0)));
    for (let s = 0; s < seats; s++) {
      const pts = [];
      for (let i = 0; i < scores.length; i++) {
        const v = scores[i] && scores[i][s];
        if (v !== null && v !== undefined) pts.push(`${px(i).toFixed(1)},${py(v).toFixed(1)}`);
      }
      if (pts.length) parts.push(`<polyline class="line" data-seat="${s}" points="${pts.join(" ")}" fill="none" stroke="${SEAT_COLOURS[s % 4]}" stroke-width="2" stroke-linejoin="round" clip-path="url(#${clipId})"><title>${esc(names[s] || "seat " + s)}</title></polyline>`);
    }
    // Lines that are not seats (the solo sister): dashed, in their own colour.
    for (const line of opts.extra || []) {
      const pts = [];
      (line.values || []).forEach((v, i) => { if (v !== null && v !== undefined) pts.push(`${px(i).toFixed(1)},${py(v).toFixed(1)}`); });
      if (pts.length) parts.push(`<polyline class="line extra" data-line="${esc(line.key)}" points="${pts.join(" ")}" fill="none" stroke="${line.colour}" stroke-width="2" stroke-dasharray="5 3" stroke-linejoin="round" clip-path="url(#${clipId})"><title>${esc(line.label)}</title></polyline>`);
    }
    for (const f of marks.faults || []) {
      const row = scores[f.frame] || [];
      const v = row[f.seat] ?? lo;
      parts.push(`<g class="fault-mark" clip-path="url(#${clipId})"><title>${esc(f.say || `fault: ${names[f.seat] || "seat " + f.seat} ${f.kind || ""}`)}</title><path d="M${px(f.frame) - 5} ${py(v) - 5}l10 10m0 -10l-10 10" stroke="#b00020" stroke-width="2.5"/></g>`);
    }
    el.innerHTML = `<svg viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="Score over time; click to go to a step" class="chart-svg"><defs><clipPath id="${clipId}"><rect class="clip" x="0" y="0" width="${W}" height="${H}"/></clipPath></defs><rect x="${PAD_L}" y="${PAD_T}" width="${W - PAD_L - PAD_R}" height="${H - PAD_T - PAD_B}" fill="transparent" class="hit"/>${parts.join("")}<line class="cursor" y1="${PAD_T}" y2="${H - PAD_B}" stroke="#e69b00" stroke-width="2"/><g class="dots"></g></svg>`;
    el._cursor = el.querySelector(".cursor");
    el._clip = el.querySelector("rect.clip");
    el._dots = el.querySelector(".dots");
    el._px = px; el._frames = frames;
  }
  const x = px(step);
  el._clip.setAttribute("width", String(px(Math.min(upto, last)) + 4));
  el._cursor.setAttribute("x1", x); el._cursor.setAttribute("x2", x);
  const row = scores[step] || [];
  el._dots.innerHTML = row.map((v, s) => (v === null || v === undefined) ? "" :
    `<circle cx="${x}" cy="${py(v)}" r="3.5" fill="${SEAT_COLOURS[s % 4]}" stroke="#fff"/>`).join("") +
    (opts.extra || []).map((line) => {
      const v = (line.values || [])[step];
      return v === null || v === undefined ? "" : `<circle cx="${x}" cy="${py(v)}" r="3.5" fill="${line.colour}" stroke="#fff"/>`;
    }).join("");
}

/* The step under a click or tap on the chart. */
export function chartStep(el, event) {
  const svg = el.querySelector("svg");
  if (!svg || !el._frames) return null;
  const box = svg.getBoundingClientRect();
  const x = (event.clientX - box.left) * (W / box.width);
  const last = Math.max(1, el._frames - 1);
  const i = Math.round((x - PAD_L) / (W - PAD_L - PAD_R) * last);
  return Math.max(0, Math.min(last, i));
}

function niceTicks(lo, hi, count) {
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) || raw;
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + 1e-9; t += step) out.push(Math.round(t));
  return out;
}
