/**
 * The soak's driver: a small extension, written and packaged at soak time (as the bench's webview
 * floor is), installed next to Elicit. It does what another extension (or a keybinding) may do with
 * Elicit's commands: "Soak: Start Servers" starts each server named in $SOAK_SERVERS with
 * `elicit.startServer`, one after another, and writes how many started to $SOAK_DRIVER_RECORD.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageExtension } from '../e2e/harness/extensionVsix';

/** The command's title in the palette. */
export const START_SERVERS = 'Soak: Start Servers';

const manifest = {
  name: 'soak-driver',
  displayName: 'Soak driver (Elicit soak)',
  description: "Starts the soak's servers through Elicit's commands.",
  version: '0.0.1',
  publisher: 'elicit-soak',
  engines: { vscode: '^1.90.0' },
  main: './extension.js',
  activationEvents: ['onCommand:soakDriver.startServers'],
  contributes: { commands: [{ command: 'soakDriver.startServers', title: START_SERVERS }] },
};

const extension = `'use strict';
const vscode = require('vscode');
const fs = require('fs');

exports.activate = (context) => {
  context.subscriptions.push(
    vscode.commands.registerCommand('soakDriver.startServers', async () => {
      const names = (process.env.SOAK_SERVERS || '').split(',').filter(Boolean);
      let started = 0;
      for (const name of names) {
        try {
          await vscode.commands.executeCommand('elicit.startServer', name);
          started++;
        } catch (error) {
          fs.appendFileSync(process.env.SOAK_DRIVER_RECORD, JSON.stringify({ name, error: String(error) }) + '\\n');
        }
      }
      fs.appendFileSync(process.env.SOAK_DRIVER_RECORD, JSON.stringify({ started }) + '\\n');
    }),
  );
};

exports.deactivate = () => undefined;
`;

/** Writes the extension into `dir` and packages it (extensionVsix.ts); returns the VSIX's path. */
export async function buildDriverVsix(dir: string): Promise<string> {
  const source = path.join(dir, 'soak-driver');
  fs.mkdirSync(source, { recursive: true });
  fs.writeFileSync(path.join(source, 'package.json'), JSON.stringify(manifest, null, 2));
  fs.writeFileSync(path.join(source, 'extension.js'), extension);
  fs.writeFileSync(path.join(source, 'README.md'), "# Soak driver\n\nStarts the Elicit soak's servers.\n");
  return packageExtension(source);
}
