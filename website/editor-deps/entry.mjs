// The workshop's editor: CodeMirror 6 with what the workshop uses, exposed as the global
// ArenaEditor by the bundle (see package.json's "bundle" script).
import { EditorView, basicSetup } from "codemirror";
import { EditorState } from "@codemirror/state";
import { keymap } from "@codemirror/view";
import { indentWithTab } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { javascript } from "@codemirror/lang-javascript";

export { EditorView, EditorState, basicSetup, keymap, indentWithTab, python, javascript };
