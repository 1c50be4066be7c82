// Start `ruledsl lsp` over stdio for .game files: diagnostics, hover, completion, formatting...
// Highlighting and indentation need no server: see package.json's "contributes".
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("ruledsl").get("server.command");
  const server = { command, args, transport: TransportKind.stdio };
  client = new LanguageClient(
    "ruledsl",
    "ruledsl language server",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "ruledsl" }] }
  );
  client.start().catch((error) => {
    vscode.window.showErrorMessage(
      `ruledsl: could not start '${[command, ...args].join(" ")}' (${error.message}). ` +
        "Install it with pip install 'ruledsl[lsp]', or set ruledsl.server.command."
    );
  });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
