/* Frames arrive as one whole view and a patch per step (see replayfile/frames.py `diff`);
 * applyPatch rebuilds the next view, sharing every unchanged object with the one before. */
export function applyPatch(old, p) {
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

/* HTML is memoised by object identity: patched views share unchanged objects, so a part of
 * the table that did not change is neither rebuilt nor written to the DOM again. */
const memo = new WeakMap();
export function cached(obj, key, build) {
  if (obj === null || typeof obj !== "object") return build();
  let byKey = memo.get(obj);
  if (!byKey) { byKey = new Map(); memo.set(obj, byKey); }
  if (!byKey.has(key)) byKey.set(key, build());
  return byKey.get(key);
}

export function setHTML(el, html) {
  if (el && el._html !== html) { el.innerHTML = html; el._html = html; }
}

export function esc(value) {
  return String(value).replace(/[&<>"']/g, (c) => (
    { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}
