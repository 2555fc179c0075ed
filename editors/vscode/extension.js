// A minimal client for `forgec lsp`: start the server for JSON, YAML and TOML files (it answers only
// for the files forgec reads), and show the `forgec.preview` command's answer beside a stack.
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("forgec");
  const serverOptions = { command: config.get("path", "forgec"), args: ["lsp"] };
  const clientOptions = {
    documentSelector: [
      { scheme: "file", language: "json" },
      { scheme: "file", language: "jsonc" },
      { scheme: "file", language: "yaml" },
      { scheme: "file", language: "toml" },
    ],
    initializationOptions: config.get("initializationOptions", {}),
  };
  client = new LanguageClient("forgec", "forgec", serverOptions, clientOptions);
  client.start();

  context.subscriptions.push(
    vscode.commands.registerCommand("forgec.showPreview", async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) {
        return;
      }
      const result = await client.sendRequest("workspace/executeCommand", {
        command: "forgec.preview",
        arguments: [editor.document.uri.toString()],
      });
      const shown = result.error
        ? `forgec: ${result.error}`
        : [`# ${result.stackId} against ${result.context}`, "", "## System prompt", "", result.systemPrompt, "",
           "## Messages", "", "```json", JSON.stringify(result.messages, null, 2), "```"].join("\n");
      const document = await vscode.workspace.openTextDocument({ content: shown, language: "markdown" });
      await vscode.window.showTextDocument(document, vscode.ViewColumn.Beside, true);
    }),
  );
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
