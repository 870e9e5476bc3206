// Isle Arena: the site's progressive enhancements (every page works without them).
// - upload forms [data-upload]: drag and drop, XHR with a progress bar;
// - the validation panel #version-status: polled while "pending", replaced in place;
// - a match still queued or running [data-match-poll]: its status kept current; when it ends
//   the seats panel is refreshed in place (the live viewer turns into the replay by itself),
//   or the page is reloaded when it has no viewer;
// - forms [data-confirm]: ask first;
// - the home page's featured match (iframe.featured-viewer): as tall as the viewer in it, so
//   the board shows whole at its own size, with no scroll of its own;
// - a table box .scroll that is wider than the screen: marked .scrolls, so the stylesheet
//   says "scroll sideways" under it.
"use strict";
(function () {
  const POLL_MS = 1500;
  const PHONE_FRAME = 520; // px: at this width and under, the viewer (viewer.css) fixes its controls to the foot

  function csrf(form) {
    const field = form.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function setupUpload(form) {
    const input = form.querySelector("input[type=file]");
    const zone = form.querySelector("[data-dropzone]");
    const bar = form.querySelector("[data-progress]");
    const status = form.querySelector("[data-upload-status]");
    const button = form.querySelector("button[type=submit]");

    function refuse(message) {
      status.textContent = message;
      status.classList.add("errorlist");
    }

    function send() {
      status.classList.remove("errorlist");
      if (!input.files.length) { refuse("Choose a file first."); return; }
      // The server says the same (tournament/errors.py); checked here to spare the upload.
      if (input.files[0].size === 0) { refuse("The file is empty."); return; }
      const max = Number(form.dataset.maxBytes || 0);
      if (max && input.files[0].size > max) {
        refuse("The file is too large: the limit is " + form.dataset.limit + ".");
        return;
      }
      const data = new FormData(form);
      const xhr = new XMLHttpRequest();
      xhr.open("POST", form.action);
      xhr.setRequestHeader("Accept", "application/json");
      xhr.setRequestHeader("X-CSRFToken", csrf(form));
      bar.hidden = false; bar.value = 0; button.disabled = true;
      status.textContent = "Uploading " + input.files[0].name + "…";
      xhr.upload.addEventListener("progress", (e) => {
        if (e.lengthComputable) bar.value = Math.round(100 * e.loaded / e.total);
      });
      xhr.upload.addEventListener("load", () => {
        bar.value = 100; status.textContent = "Uploaded; queuing its validation match…";
      });
      xhr.addEventListener("load", () => {
        let body = {};
        try { body = JSON.parse(xhr.responseText); } catch (err) { body = {}; }
        if (xhr.status === 201 && body.url) { window.location.assign(body.url); return; }
        button.disabled = false; bar.hidden = true;
        const text = xhr.getResponseHeader("Content-Type") || "";
        const plain = text.startsWith("text/plain") ? xhr.responseText.trim() : "";
        refuse(body.error || plain || ("Upload failed (HTTP " + xhr.status + ")."));
      });
      xhr.addEventListener("error", () => {
        button.disabled = false; bar.hidden = true;
        status.textContent = "The upload did not reach the server; try again.";
      });
      xhr.send(data);
    }

    form.addEventListener("submit", (e) => { e.preventDefault(); send(); });
    if (!zone) return;
    ["dragenter", "dragover"].forEach((t) => zone.addEventListener(t, (e) => {
      e.preventDefault(); zone.classList.add("over");
    }));
    ["dragleave", "drop"].forEach((t) => zone.addEventListener(t, (e) => {
      e.preventDefault(); zone.classList.remove("over");
    }));
    zone.addEventListener("drop", (e) => {
      if (!e.dataTransfer || !e.dataTransfer.files.length) return;
      input.files = e.dataTransfer.files;
      send();
    });
  }

  function pollVersion(panel) {
    if (!panel || panel.dataset.status !== "pending") return;
    window.setTimeout(() => {
      fetch(panel.dataset.poll, { headers: { Accept: "text/html" }, cache: "no-store" })
        .then((r) => (r.ok ? r.text() : Promise.reject(r.status)))
        .then((html) => {
          const box = document.createElement("div");
          box.innerHTML = html.trim();
          const fresh = box.firstElementChild;
          panel.replaceWith(fresh);
          pollVersion(fresh);
        })
        .catch(() => pollVersion(panel));
    }, POLL_MS);
  }

  function pollMatch(el) {
    window.setTimeout(() => {
      fetch(el.dataset.matchPoll, { headers: { Accept: "application/json" }, cache: "no-store" })
        .then((r) => (r.ok ? r.json() : Promise.reject(r.status)))
        .then((m) => {
          if (m.status === "queued" || m.status === "running") {
            // a queued match waits for a worker; only a running one is live
            const text = m.status === "queued" ? "waiting for a worker" : m.status;
            const badge = document.querySelector("[data-match-status]");
            if (badge && badge.textContent !== text) {
              badge.textContent = text;
              badge.className = "badge " + m.status + (m.status === "running" ? " live" : "");
            }
            const heading = document.querySelector("[data-match-heading]");
            if (heading) heading.textContent = m.status === "queued" ? "Waiting for a worker" : "Live";
            document.title = document.title.replace(/\((waiting for a worker|live)\)/, m.status === "queued" ? "(waiting for a worker)" : "(live)");
            pollMatch(el);
          } else if (el.hasAttribute("data-follow-live")) {
            refreshInfo();
          } else {
            window.location.reload();
          }
        })
        .catch(() => pollMatch(el));
    }, POLL_MS);
  }

  // Fields that only apply to one mode or format are hidden when they do not. Which fields
  // each format uses comes with the form (data-format-fields: tournament/formats/).
  function setupDependentFields(form) {
    const byFormat = JSON.parse(form.dataset.formatFields || "{}");
    const forFormat = (name) => [name, () => (byFormat[value("format")] || []).includes(name)];
    const rules = [
      ["difficulty", () => value("mode") === "solo"],
      ["seed_privacy", () => value("mode") === "solo"],
      ...[...new Set(Object.values(byFormat).flat())].map(forFormat),
    ];
    function value(name) {
      const field = form.elements.namedItem(name);
      return field ? field.value : null;
    }
    function apply() {
      rules.forEach(([name, shown]) => {
        const box = form.querySelector("#field-" + name);
        if (box && value("mode") !== null) box.hidden = !shown();
      });
    }
    form.addEventListener("change", apply);
    form.addEventListener("change", (e) => {
      if (!e.target || e.target.name === "mode") followMode(form);
    });
    apply();
    followMode(form);
  }

  // The seats follow the mode (data-mode-seats: each mode's fewest and most seats): a mode
  // that fixes them (the Duel, solo) sets and hides the seats field; a challenge shows only
  // the seat choices the mode has. The server takes a fixed value whatever is sent.
  function followMode(form) {
    const spans = JSON.parse(form.dataset.modeSeats || "{}");
    const mode = form.elements.namedItem("mode");
    const span = mode && spans[mode.value];
    if (!span) return;
    const [lo, hi] = span;
    const seats = form.elements.namedItem("seats");
    if (seats) {
      seats.min = String(lo);
      seats.max = String(hi);
      const n = Number(seats.value);
      if (lo === hi || !(n >= lo && n <= hi)) seats.value = String(lo === hi ? lo : Math.min(Math.max(n || lo, lo), hi));
      const box = form.querySelector("#field-seats");
      if (box) box.hidden = lo === hi;
    }
    for (let i = 0; ; i += 1) {
      const select = form.elements.namedItem("seat_" + i);
      if (!select) break;
      const box = form.querySelector("#field-seat_" + i);
      const shown = i < hi;
      if (box) box.hidden = !shown;
      if (!shown) select.value = "";
    }
  }

  document.querySelectorAll("form[data-dependent-fields]").forEach(setupDependentFields);
  // Swap in the seats panel (scores, ranks, faults, timing) of the page as it is now.
  function refreshInfo() {
    fetch(window.location.href, { headers: { Accept: "text/html" }, cache: "no-store" })
      .then((r) => (r.ok ? r.text() : Promise.reject(r.status)))
      .then((html) => {
        const doc = new DOMParser().parseFromString(html, "text/html");
        const fresh = doc.getElementById("match-info");
        const old = document.getElementById("match-info");
        if (fresh && old) old.replaceWith(fresh);
        // the match has ended: its title and heading say so ("replay"), never "(queued)" or "Live"
        document.title = doc.title;
        const heading = document.querySelector("[data-match-heading]");
        const newHeading = doc.querySelector("[data-match-heading]");
        if (heading && newHeading) heading.textContent = newHeading.textContent;
        const section = document.querySelector("[data-match-poll]");
        if (section) section.removeAttribute("data-match-poll");
      })
      .catch(() => undefined);
  }

  // The spoiler setting flipped in place: the same cookie the link would set, no reload.
  document.addEventListener("click", (e) => {
    const link = e.target.closest("[data-spoiler-toggle]");
    if (!link || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    const root = document.documentElement;
    const show = root.classList.contains("spoilers-hidden");
    document.cookie = show ? "spoilers=shown; path=/; max-age=31536000; samesite=lax"
      : "spoilers=; path=/; max-age=0; samesite=lax";
    root.classList.toggle("spoilers-hidden", !show);
    root.classList.toggle("spoilers-shown", show);
  });
  // A table too wide for its box says so (the stylesheet's .scrolls), at any window size.
  function markScrolling() {
    document.querySelectorAll(".scroll").forEach((box) => {
      box.classList.toggle("scrolls", box.scrollWidth - box.clientWidth > 1);
    });
  }
  const scrollObserver = window.ResizeObserver ? new ResizeObserver(markScrolling) : null;
  function watchScrolling() {
    if (scrollObserver) document.querySelectorAll(".scroll").forEach((box) => scrollObserver.observe(box));
    markScrolling();
  }
  watchScrolling();
  window.addEventListener("resize", markScrolling);
  // a part of the page drawn again in place (bracket.js's live bracket): its boxes are new
  document.addEventListener("arena:redrawn", watchScrolling);
  // The featured viewer (same origin) grows with what it draws: a step's cards, a live match.
  function fitFrame(frame) {
    let observed = null;
    function fit() {
      const doc = frame.contentDocument;
      // not before the viewer's own page is there (a lazy frame starts as about:blank)
      if (!doc || !doc.body || doc.URL === "about:blank") return;
      // On a phone the viewer keeps its controls at the foot of its frame: the frame stays a
      // screen tall (site.css) and scrolls, so they stay in reach.
      const size = () => {
        frame.style.height = frame.clientWidth > PHONE_FRAME ? doc.documentElement.scrollHeight + "px" : "";
      };
      size();
      const view = frame.contentWindow;  // an observer of the frame's own document
      if (observed !== doc && view && view.ResizeObserver) {
        observed = doc;
        new view.ResizeObserver(size).observe(doc.body);
      }
    }
    frame.addEventListener("load", fit);
    fit();
  }
  document.querySelectorAll("iframe.featured-viewer").forEach(fitFrame);
  document.querySelectorAll("form[data-upload]").forEach(setupUpload);
  pollVersion(document.getElementById("version-status"));
  document.querySelectorAll("[data-match-poll]").forEach(pollMatch);
  document.querySelectorAll("form[data-confirm]").forEach((form) => {
    form.addEventListener("submit", (e) => {
      if (!window.confirm(form.dataset.confirm)) e.preventDefault();
    });
  });
})();
