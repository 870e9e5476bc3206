// The bracket page while its league runs: every few seconds the bracket part of the page is
// fetched again (?fragment=1) and swapped in when it changed, until the league stops running
// (the page works without it: reload to see the latest). A line for screen readers says when
// a series was decided.
"use strict";
(function () {
  const POLL_MS = 3000;
  const box = document.getElementById("bracket-live");
  if (!box) return;
  const status = document.createElement("p");
  status.className = "visually-hidden";
  status.setAttribute("role", "status");
  box.before(status);

  function live() {
    const state = box.querySelector(".bracket-state");
    return state && state.dataset.live === "true";
  }

  function poll() {
    if (!live()) return;
    window.setTimeout(() => {
      fetch(box.dataset.bracketPoll, { headers: { Accept: "text/html" }, cache: "no-store" })
        .then((r) => (r.ok ? r.text() : Promise.reject(r.status)))
        .then((html) => {
          const before = box.querySelectorAll(".series.done").length;
          if (html.trim() !== box.innerHTML.trim()) {
            box.innerHTML = html;
            document.dispatchEvent(new CustomEvent("arena:redrawn")); // site.js: wide boxes
          }
          const after = box.querySelectorAll(".series.done").length;
          if (after !== before) status.textContent = after + " series decided.";
          if (!live()) {
            status.textContent = "The bracket is over.";
            window.location.reload(); // the podium above the bracket
            return;
          }
          poll();
        })
        .catch(() => poll());
    }, POLL_MS);
  }
  poll();
})();
