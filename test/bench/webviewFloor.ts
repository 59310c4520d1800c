/**
 * The webview floor (issue #34 item 4): a bare extension, written and packaged at bench time in a
 * temp folder (the repo's vsce, no network), installed into the bench's code-server next to Elicit.
 * Its one command opens $ELICIT_BENCH_FLOOR_SERIES webview panels one after another, each in a new
 * tab of the active column, as Elicit opens a cold form: a page with one <input> (and a Close button)
 * under a CSP like Elicit's (webviewShell.ts), enableScripts, localResourceRoots, no retained context.
 *
 * Timed as `formColdMs` is: Date.now() written to $ELICIT_BENCH_FLOOR_RECORD just before the panel
 * is created (Elicit's: the bench server's, just before it sends, 1–2 ms before Elicit creates its
 * panel), to the readiness probe's Date.now() once the page's input is there, enabled and painted; each panel
 * opened $ELICIT_BENCH_FLOOR_SETTLE_MS (300) after the last one closed, as bench-server.mjs does.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageExtension } from '../e2e/harness/extensionVsix';

/** The command's title in the palette. */
export const FLOOR_COMMAND = 'Bench: Open Bare Webviews';
/** The record's `tool` for each panel opened. */
export const FLOOR_TOOL = 'webview_floor';

const manifest = {
  name: 'webview-floor',
  displayName: 'Webview floor (Elicit bench)',
  description: 'Opens bare webview panels, for the benchmark.',
  version: '0.0.1',
  publisher: 'elicit-bench',
  engines: { vscode: '^1.90.0' },
  main: './extension.js',
  activationEvents: ['onCommand:benchFloor.series'],
  contributes: { commands: [{ command: 'benchFloor.series', title: FLOOR_COMMAND }] },
};

// Plain CommonJS with no dependencies: nothing to build or bundle.
const extension = `'use strict';
const vscode = require('vscode');
const fs = require('fs');
const crypto = require('crypto');

exports.activate = (context) => {
  context.subscriptions.push(
    vscode.commands.registerCommand('benchFloor.series', async () => {
      const record = process.env.ELICIT_BENCH_FLOOR_RECORD;
      const series = Number(process.env.ELICIT_BENCH_FLOOR_SERIES || 21);
      const settleMs = Number(process.env.ELICIT_BENCH_FLOOR_SETTLE_MS || 300);
      for (let i = 0; i < series; i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, settleMs));
        fs.appendFileSync(record, JSON.stringify({ tool: ${JSON.stringify(FLOOR_TOOL)}, i, sentAt: Date.now() }) + '\\n');
        await openOnce(context.extensionUri, i);
      }
    }),
  );
};

/** One panel; resolves when it has closed (its Close button, or its tab closed). */
function openOnce(extensionUri, i) {
  return new Promise((resolve) => {
    const media = vscode.Uri.joinPath(extensionUri, 'media');
    const panel = vscode.window.createWebviewPanel(
      'benchFloor.page',
      'Floor',
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { enableScripts: true, localResourceRoots: [media], retainContextWhenHidden: false },
    );
    panel.onDidDispose(() => resolve());
    panel.webview.onDidReceiveMessage((message) => {
      if (message && message.type === 'close') panel.dispose();
    });
    const webview = panel.webview;
    const nonce = crypto.randomBytes(16).toString('base64');
    const csp = [
      "default-src 'none'",
      'style-src ' + webview.cspSource + " 'nonce-" + nonce + "'",
      "script-src 'nonce-" + nonce + "'",
      'font-src ' + webview.cspSource,
      'img-src ' + webview.cspSource,
    ].join('; ');
    webview.html = \`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="\${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Floor</title>
</head>
<body>
<main id="floor"><input aria-label="Floor" data-bench-floor="\${i}"> <button type="button">Close</button></main>
<script type="module" nonce="\${nonce}">
const api = acquireVsCodeApi();
document.querySelector('button').addEventListener('click', () => api.postMessage({ type: 'close' }));
</script>
</body>
</html>\`;
  });
}

exports.deactivate = () => undefined;
`;

/** Writes the extension into `dir` and packages it (extensionVsix.ts); returns the VSIX's path. */
export async function buildFloorVsix(dir: string): Promise<string> {
  const source = path.join(dir, 'webview-floor');
  // localResourceRoots names media/, as Elicit's names dist/webview; nothing is loaded from it.
  fs.mkdirSync(path.join(source, 'media'), { recursive: true });
  fs.writeFileSync(path.join(source, 'package.json'), JSON.stringify(manifest, null, 2));
  fs.writeFileSync(path.join(source, 'extension.js'), extension);
  fs.writeFileSync(path.join(source, 'README.md'), '# Webview floor\n\nA bare webview, for the Elicit benchmark.\n');
  return packageExtension(source);
}
