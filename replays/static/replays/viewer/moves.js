/* The move list: every step as its sentence, grouped by day and phase, each a link to that
 * step (`?step=K`, so it also works as a plain link). The current step carries
 * aria-current="step" and is kept in view inside the list's own scroll box (never the page's).
 * A live match only appends: the list grows without being rebuilt. A step judged costly by
 * a seat's review (replayfile/decision_review.py) carries lichess's mark: "?" for a loss of
 * 10 points of win chance or more, "??" for 15 or more (`judged`, set by `markJudged`). */
import { esc } from "./patch.js";
import { phaseName } from "./table.js";

function groupTitle(m) {
  const day = m.day !== undefined && m.day !== null ? `Day ${m.day}` : "Setup";
  return m.phase ? `${day} · ${phaseName(m.phase)}` : day;
}

function itemHTML(m) {
  const fault = m.fault ? ' <span class="move-fault" title="a fault happened here">fault</span>' : "";
  return `<li><a href="?step=${m.step}" data-step="${m.step}" style="--seat:${m.colour}"><span class="move-n" aria-hidden="true">${m.step}</span><span class="move-say">${esc(m.say)}</span>${judgedHTML(m.judged)}${fault}</a></li>`;
}

function judgedHTML(j) {
  if (!j || !j.mark) return "";
  const words = `${j.mark === "??" ? "blunder" : "mistake"}: ${Math.round(j.loss * 100)} points of win chance lost; better: ${j.best}`;
  return ` <span class="move-judge" title="${esc(words)}"><span aria-hidden="true">${j.mark}</span><span class="visually-hidden">${esc(words)}</span></span>`;
}

/* Put the marks of `judged` (frame -> {mark, loss, best}) on the list's steps already drawn. */
export function markJudged(el, judged) {
  if (!el || !el._list) return;
  for (const a of el.querySelectorAll("a[data-step]")) {
    const j = judged.get(Number(a.dataset.step));
    if (!j || a.querySelector(".move-judge")) continue;
    a.querySelector(".move-say").insertAdjacentHTML("afterend", judgedHTML(j));
  }
}

function groupHTML(m, index) {
  return `<li class="move-group" data-key="${esc(groupTitle(m))}"><h3 id="moves-g${index}">${esc(groupTitle(m))}</h3><ol aria-labelledby="moves-g${index}">${itemHTML(m)}</ol></li>`;
}

/* Draw `moves` ({step, seat, say, day, phase, colour, fault, judged}) into `el`. */
export function renderMoves(el, moves) {
  if (!el) return;
  const first = moves.length ? moves[0].say : "";
  const same = el._moves && el._first === first && moves.length >= el._count;
  if (!same || !el._list) {
    el.innerHTML = '<ol class="move-groups"><li class="move-group" data-key="start"><h3 id="moves-g0">Start</h3><ol aria-labelledby="moves-g0"><li><a href="?step=0" data-step="0"><span class="move-n" aria-hidden="true">0</span><span class="move-say">The table is set.</span></a></li></ol></li></ol>';
    el._list = el.firstElementChild;
    el._count = 0;
    el._groups = 1;
    el._first = first;
    el._current = null;
  }
  el._moves = true;
  let last = el._list.lastElementChild;
  let html = "";
  const flush = () => { if (html) { last.querySelector("ol").insertAdjacentHTML("beforeend", html); html = ""; } };
  for (let k = el._count; k < moves.length; k++) {
    const m = moves[k];
    if (last.dataset.key === groupTitle(m)) { html += itemHTML(m); continue; }
    flush();
    el._list.insertAdjacentHTML("beforeend", groupHTML(m, el._groups++));
    last = el._list.lastElementChild;
  }
  flush();
  el._count = moves.length;
  el._links = null;
}

/* Mark step `step` as the current one and scroll the list (only the list) to show it. */
export function markMove(el, step) {
  if (!el || !el._list) return;
  if (!el._links || el._links.length !== el._count + 1) el._links = el.querySelectorAll("a[data-step]");
  const link = el._links[step];
  if (el._current === link) return;
  if (el._current) { el._current.removeAttribute("aria-current"); el._current.parentElement.classList.remove("current"); }
  el._current = link || null;
  if (!link) return;
  link.setAttribute("aria-current", "step");
  link.parentElement.classList.add("current");
  if (!el.offsetParent) return;  // folded away
  const top = link.offsetTop - el.offsetTop, bottom = top + link.offsetHeight;
  if (top < el.scrollTop + 24 || bottom > el.scrollTop + el.clientHeight - 8) {
    el.scrollTop = Math.max(0, top - el.clientHeight / 3);
  }
}
