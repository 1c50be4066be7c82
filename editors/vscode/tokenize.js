// Tokenise rule files with the TextMate grammar, as VS Code does (vscode-textmate + vscode-oniguruma),
// and print, as JSON, each file's tokens whose scopes are only the file's: text no rule of the grammar matched.
// Usage: node tokenize.js FILE.game...  (after npm install; tests/unit/test_editors.py runs it)
"use strict";

const fs = require("fs");
const path = require("path");
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
const onigLib = oniguruma.loadWASM(wasm).then(() => ({
  createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
  createOnigString: (text) => new oniguruma.OnigString(text),
}));
const registry = new vsctm.Registry({
  onigLib,
  loadGrammar: async () =>
    vsctm.parseRawGrammar(fs.readFileSync(path.join(__dirname, "syntaxes", "ruledsl.tmLanguage.json"), "utf8"), "x.json"),
});

registry.loadGrammar("source.ruledsl").then((grammar) => {
  const report = {};
  for (const file of process.argv.slice(2)) {
    let stack = vsctm.INITIAL;
    const words = {};
    fs.readFileSync(file, "utf8").split("\n").forEach((line) => {
      const result = grammar.tokenizeLine(line, stack);
      for (const token of result.tokens) {
        const text = line.slice(token.startIndex, token.endIndex);
        const scope = token.scopes[token.scopes.length - 1];
        (words[scope] = words[scope] || new Set()).add(text.trim());
      }
      stack = result.ruleStack;
    });
    report[file] = Object.fromEntries(Object.entries(words).map(([s, w]) => [s, [...w].filter(Boolean).sort()]));
  }
  process.stdout.write(JSON.stringify(report));
});
