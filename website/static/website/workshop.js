// The workshop's editor (website/templates/website/workshop_bot.html): the page's text area
// becomes a CodeMirror editor (codemirror.bundle.js, the global ArenaEditor) with line numbers
// and the language's highlighting, and each pause in typing saves the draft through the API
// (PUT /api/v1/bots/{id}/draft/), said in the status line. Without script the text area and
// the form's buttons do the same by plain posts.
(function () {
  "use strict";
  const SAVE_AFTER_MS = 800;
  const area = document.querySelector("[data-workshop-source]");
  const lib = window.ArenaEditor;
  if (!area || !lib) return;
  const form = area.form;
  const status = form.querySelector("[data-workshop-status]");
  const token = form.querySelector("input[name=csrfmiddlewaretoken]").value;
  const modes = { python: lib.python, javascript: lib.javascript };
  const language = modes[area.dataset.mode];
  // The site's colours for the code, each at least 4.5:1 on the editor's white and on its
  // highlighted line (CodeMirror's default style has some lighter ones).
  const t = lib.tags;
  const colours = lib.HighlightStyle.define([
    { tag: [t.keyword, t.controlKeyword, t.operatorKeyword, t.moduleKeyword], color: "#6a1b9a" },
    { tag: [t.string, t.special(t.string), t.regexp], color: "#1b6130" },
    { tag: [t.comment, t.lineComment, t.blockComment, t.docComment], color: "#4f5b66", fontStyle: "italic" },
    { tag: [t.number, t.bool, t.null, t.atom], color: "#8a4500" },
    { tag: [t.definition(t.variableName), t.function(t.definition(t.variableName)), t.definition(t.propertyName)], color: "#0a5670" },
    { tag: [t.className, t.typeName, t.namespace], color: "#7a3e00" },
    { tag: [t.meta, t.self], color: "#6a1b9a" },
    { tag: t.invalid, color: "#b3261e" },
  ]);

  let timer = null;
  let saving = null; // the save under way (a promise), so a submit waits for it
  let savedText = area.value;

  function say(text, failed) {
    status.textContent = text;
    status.classList.toggle("error", Boolean(failed));
  }

  function save() {
    timer = null;
    const text = view.state.doc.toString();
    if (text === savedText) return Promise.resolve(true);
    say("Saving…");
    saving = fetch(area.dataset.draftUrl, {
      method: "PUT",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": token },
      body: JSON.stringify({ source: text }),
      credentials: "same-origin",
    })
      .then((response) => response.json().then((body) => ({ response, body })))
      .then(({ response, body }) => {
        if (!response.ok) {
          say("Not saved: " + ((body.error && body.error.message) || response.statusText), true);
          return false;
        }
        savedText = text;
        const at = new Date(body.updated_at);
        say("Saved at " + at.toLocaleTimeString() + ".");
        return true;
      })
      .catch(() => {
        say("Not saved: the server cannot be reached. Your text stays here; it is saved when you save again.", true);
        return false;
      })
      .finally(() => { saving = null; });
    return saving;
  }

  function later() {
    if (timer) clearTimeout(timer);
    say("Edited: saving when you pause…");
    timer = setTimeout(save, SAVE_AFTER_MS);
  }

  const view = new lib.EditorView({
    doc: area.value,
    extensions: [
      lib.basicSetup,
      lib.keymap.of([lib.indentWithTab]),
      language ? language() : [],
      lib.syntaxHighlighting(colours),
      lib.EditorView.contentAttributes.of({
        tabindex: "0", // named focusable, so a checker sees the scrolled region reachable
        "aria-label": "Source of " + area.dataset.filename,
        "aria-describedby": "editor-keys",
      }),
      lib.EditorView.updateListener.of((update) => { if (update.docChanged) later(); }),
    ],
  });
  view.dom.classList.add("editor");
  area.parentNode.insertBefore(view.dom, area);
  area.hidden = true;
  // the label names the editor now: a click on it puts the caret in the editor
  const label = form.querySelector("label[for=" + area.id + "]");
  if (label) label.addEventListener("click", (event) => { event.preventDefault(); view.focus(); });

  // Every post of the form (save, play, submit) carries the editor's text; a pending save is sent
  // first, so a submit never races the autosave.
  form.addEventListener("submit", (event) => {
    area.value = view.state.doc.toString();
    if (timer || saving) {
      event.preventDefault();
      if (timer) clearTimeout(timer);
      const button = event.submitter;
      Promise.resolve(saving || save()).then(() => {
        timer = null;
        form.requestSubmit(button);
      });
    }
  });
  window.addEventListener("beforeunload", (event) => {
    if (timer || saving) { save(); event.preventDefault(); }
  });
})();
