// The cardscript extension: starts `cardscript lsp` (the setting cardscript.server.command)
// over stdio for .rules, .cards, .variant and .scenario files. Highlighting is the TextMate
// grammar in syntaxes/; everything else comes from the server (docs/editors.md).
"use strict";
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("cardscript").get("server.command", ["cardscript", "lsp"]);
  const server = { command: command[0], args: command.slice(1), transport: TransportKind.stdio };
  client = new LanguageClient("cardscript", "cardscript", server, {
    documentSelector: [{ scheme: "file", language: "cardscript" }],
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
