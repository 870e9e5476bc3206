/* Who was winning (website/templates/website/_chances.html), tied to the replay viewer of the
 * same page when there is one: a cursor on the chances chart follows the viewer's step, and a
 * blunder or a table's step link moves the viewer there in place (without the viewer, or
 * without JavaScript, the links open the match page at that step). */
const panel = document.getElementById("chances");
const svg = panel && panel.querySelector(".chances-chart svg");
const viewer = () => (window.viewer && typeof window.viewer.show === "function" ? window.viewer : null);

if (panel) {
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

if (svg) {
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
