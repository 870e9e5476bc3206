/* Who was winning (website/templates/website/_chances.html), tied to the replay viewer of the
 * same page when there is one: a cursor on the chances chart follows the viewer's step, and a
 * blunder or a table's step link moves the viewer there in place (without the viewer, or
 * without JavaScript, the links open the match page at that step). While an analysis is
 * queued or running, the panel asks the API for its status every few seconds and, once it is
 * done or failed, swaps in the page's fresh panel: no reload. */
const viewer = () => (window.viewer && typeof window.viewer.show === "function" ? window.viewer : null);
const POLL_MS = 4000;

function followSteps(panel) {
  panel.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-step]");
    const v = viewer();
    if (!link || !v || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    v.show(Number(link.dataset.step));
    const href = link.getAttribute("href");
    if (href) history.replaceState(history.state, "", href);
    document.getElementById("viewer")?.scrollIntoView({ block: "start" });
  });
}

function drawCursor(svg) {
  const left = Number(svg.dataset.left), right = Number(svg.dataset.right);
  const frames = Math.max(1, Number(svg.dataset.frames));
  const cursor = document.createElementNS("http://www.w3.org/2000/svg", "line");
  cursor.setAttribute("class", "cursor");
  cursor.setAttribute("y1", svg.dataset.top);
  cursor.setAttribute("y2", svg.dataset.bottom);
  cursor.setAttribute("aria-hidden", "true");
  cursor.style.display = "none";
  svg.appendChild(cursor);
  let shown = null;
  setInterval(() => {
    const v = viewer();
    const step = v ? v.step : null;
    if (step === shown || typeof step !== "number") return;
    shown = step;
    const x = left + (right - left) * Math.min(step, frames) / frames;
    cursor.setAttribute("x1", x.toFixed(1));
    cursor.setAttribute("x2", x.toFixed(1));
    cursor.style.display = "";
  }, 250);
}

function waitForAnalysis(panel, status) {
  const swap = () =>
    fetch(window.location.pathname, { headers: { Accept: "text/html" }, cache: "no-store" })
      .then((r) => (r.ok ? r.text() : Promise.reject(r.status)))
      .then((html) => {
        const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("chances");
        if (!fresh) return;
        panel.replaceWith(fresh);
        setup(fresh);
      });
  const tick = () =>
    fetch(status.dataset.analysisPoll, { headers: { Accept: "application/json" }, cache: "no-store" })
      .then((r) => (r.ok ? r.json() : Promise.reject(r.status)))
      .then((analysis) => {
        if (analysis.status === "queued" || analysis.status === "running") {
          const word = status.querySelector("[data-analysis-word]");
          if (word && word.textContent !== analysis.status) word.textContent = analysis.status;
          window.setTimeout(tick, POLL_MS);
          return undefined;
        }
        return swap();
      })
      .catch(() => window.setTimeout(tick, 2 * POLL_MS));
  window.setTimeout(tick, POLL_MS);
}

function setup(panel) {
  if (!panel) return;
  followSteps(panel);
  const svg = panel.querySelector(".chances-chart svg");
  if (svg) drawCursor(svg);
  const status = panel.querySelector("[data-analysis-poll]");
  if (status) waitForAnalysis(panel, status);
}

setup(document.getElementById("chances"));
