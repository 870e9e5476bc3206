// Bundles entry.mjs into ../static/website/editor/codemirror.bundle.js with esbuild, and
// writes beside it codemirror.bundle.json: the packages (from package-lock.json) and the
// bundle's sha256, which tests/website/test_editor_bundle.py checks against the lock file.
// Usage: npm ci && npm run bundle   (or: node build.mjs OUT_DIR, to build elsewhere)
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] || join(here, "..", "static", "website", "editor");
mkdirSync(out, { recursive: true });
const bundle = join(out, "codemirror.bundle.js");
await build({
  entryPoints: [join(here, "entry.mjs")],
  bundle: true,
  format: "iife",
  globalName: "ArenaEditor",
  minify: true,
  legalComments: "eof",
  target: "es2020",
  outfile: bundle,
  logLevel: "warning",
});
const lock = JSON.parse(readFileSync(join(here, "package-lock.json"), "utf8"));
const packages = Object.fromEntries(
  Object.entries(lock.packages)
    .filter(([path]) => path.startsWith("node_modules/") && !path.includes("@esbuild/"))
    .map(([path, info]) => [path.slice("node_modules/".length), info.version])
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
const sha256 = createHash("sha256").update(readFileSync(bundle)).digest("hex");
const record = { command: "npm ci && npm run bundle", sha256, packages };
writeFileSync(join(out, "codemirror.bundle.json"), JSON.stringify(record, null, 2) + "\n");
console.log(`${bundle}: ${sha256}`);
