// The workshop's editor: CodeMirror 6 with what the workshop uses, exposed as the global
// ArenaEditor by the bundle (build.mjs). website/static/website/workshop.js uses it.
import { EditorView, basicSetup } from "codemirror";
import { EditorState } from "@codemirror/state";
import { keymap } from "@codemirror/view";
import { indentWithTab } from "@codemirror/commands";
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { tags } from "@lezer/highlight";
import { python } from "@codemirror/lang-python";
import { javascript } from "@codemirror/lang-javascript";

export {
  EditorView, EditorState, basicSetup, keymap, indentWithTab,
  HighlightStyle, syntaxHighlighting, tags, python, javascript,
};
