/**
 * The "Pair a Device" tab: a webview typed by pairingProtocol.ts, its script
 * written into the page (webview/pairing/main.ts).
 */
import * as vscode from 'vscode';
import { isPairingToHost, type PairingToHost, type PairingToPage } from '../../core/protocols/pairingProtocol';
import { WebviewHost } from '../webviewHost';

export class PairingPanel extends WebviewHost<PairingToPage, PairingToHost> {
  constructor(extensionUri: vscode.Uri) {
    super(extensionUri, {
      viewType: 'elicit.pairing',
      title: vscode.l10n.t('Pair a Device'),
      pageTitle: 'Pair a Device',
      script: 'pairing',
      inline: true,
      isMessage: isPairingToHost,
      column: vscode.ViewColumn.Active,
    });
  }
}
