/**
 * Which address paired devices reach this computer at: a quick pick of its
 * network addresses (IPv4 first, the ones a phone on the same network uses),
 * this computer only, and VS Code's own forwarding where the window is remote
 * or in a browser. Never all interfaces: a person picks one network.
 */
import { networkInterfaces } from 'node:os';
import * as vscode from 'vscode';
import { inertText } from '../../core/display';
import { addressScope } from '../../core/device/addressScope';
import { KEPT_OPEN } from '../keptOpen';

export function isAllInterfaces(address: string): boolean {
  return address === '0.0.0.0' || address === '::' || address === '[::]';
}

/** An address as the host part of a URL (IPv6 in brackets). */
export function urlHost(address: string): string {
  return address.includes(':') ? `[${address}]` : address;
}

export async function chooseAddress(): Promise<string | undefined> {
  interface Choice extends vscode.QuickPickItem {
    address: string;
  }
  const network: Choice[] = [];
  const internet: Choice[] = [];
  for (const [name, addresses] of Object.entries(networkInterfaces())) {
    for (const info of addresses ?? []) {
      if (info.internal || (info.family === 'IPv6' && info.address.toLowerCase().startsWith('fe80'))) continue;
      const global = addressScope(info.address) === 'internet';
      const description = global ? `${name} · ${vscode.l10n.t('reachable from the internet unless a firewall stops it')}` : name;
      (global ? internet : network).push({ label: inertText(info.address), description: inertText(description), address: info.address });
    }
  }
  const ipv4First = (a: Choice, b: Choice): number => Number(a.address.includes(':')) - Number(b.address.includes(':'));
  const choices: Choice[] = [];
  if (network.length > 0) {
    choices.push(
      { label: vscode.l10n.t('On this network'), kind: vscode.QuickPickItemKind.Separator, address: '' },
      ...network.sort(ipv4First),
    );
  }
  // A global address is listed apart, with its warning: a phone on the same network does not need it.
  if (internet.length > 0) {
    choices.push(
      { label: vscode.l10n.t('Public addresses'), kind: vscode.QuickPickItemKind.Separator, address: '' },
      ...internet.sort(ipv4First),
    );
  }
  // A browser window or a remote one: VS Code's forwarding reaches the person's devices, behind its own sign-in.
  const remote = vscode.env.uiKind === vscode.UIKind.Web || vscode.env.remoteName !== undefined;
  choices.push(
    { label: vscode.l10n.t('Elsewhere'), kind: vscode.QuickPickItemKind.Separator, address: '' },
    { label: '127.0.0.1', description: vscode.l10n.t('This computer only'), address: '127.0.0.1' },
  );
  if (remote) {
    choices.push({
      label: vscode.l10n.t('Through VS Code’s port forwarding'),
      description: vscode.l10n.t('Behind its sign-in'),
      address: 'forwarded',
    });
  }
  const picked = await vscode.window.showQuickPick(choices, {
    title: vscode.l10n.t('Answer on Another Device'),
    placeHolder: vscode.l10n.t('Where should your phone reach this computer? (Pick the network your phone is on.)'),
    ...KEPT_OPEN,
  });
  return picked?.address || undefined;
}
