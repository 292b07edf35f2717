// Tokenize scripts with the VS Code extension's TextMate grammar, on the engine VS Code
// itself runs (vscode-textmate + the Oniguruma regex library as WebAssembly).
// Input (stdin, JSON): {"grammar": PATH, "files": [PATH...], "probes": [[PATH, LINE, COLUMN]...]}
// (0-based lines and columns). Output (stdout, JSON): {"lines": N, "bare": [[PATH, LINE, COLUMN,
// TEXT]...]: tokens of non-whitespace text with no scope but the grammar's own,
// "probes": [[scopes...]...]: the scopes at each probe}. Used by tests/test_editors.py.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const oniguruma = require("vscode-oniguruma");
const textmate = require("vscode-textmate");

const request = JSON.parse(readFileSync(0, "utf8"));
const wasm = readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
await oniguruma.loadWASM(wasm);
const registry = new textmate.Registry({
  onigLib: Promise.resolve({
    createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
    createOnigString: (s) => new oniguruma.OnigString(s),
  }),
  loadGrammar: async () => textmate.parseRawGrammar(readFileSync(request.grammar, "utf8"), request.grammar),
});
const grammar = await registry.loadGrammar("source.cardscript");
const scopesOf = new Map(); // file -> per line, the tokens
function tokenize(file) {
  if (scopesOf.has(file)) return scopesOf.get(file);
  const lines = readFileSync(file, "utf8").replace(/\r\n?/g, "\n").split("\n");
  let state = textmate.INITIAL;
  const out = lines.map((line) => {
    const r = grammar.tokenizeLine(line, state);
    state = r.ruleStack;
    return { line, tokens: r.tokens };
  });
  scopesOf.set(file, out);
  return out;
}
const bare = [];
let count = 0;
for (const file of request.files) {
  tokenize(file).forEach(({ line, tokens }, n) => {
    count += 1;
    for (const t of tokens) {
      const text = line.slice(t.startIndex, t.endIndex);
      if (t.scopes.length < 2 && text.trim() !== "") bare.push([file, n, t.startIndex, text]);
    }
  });
}
const probes = (request.probes || []).map(([file, n, col]) => {
  const { tokens } = tokenize(file)[n];
  const t = tokens.find((x) => x.startIndex <= col && col < x.endIndex);
  return t ? t.scopes : [];
});
process.stdout.write(JSON.stringify({ lines: count, bare, probes }));
