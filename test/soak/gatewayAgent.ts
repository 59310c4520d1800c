/**
 * The soak's CLI agent (soak-agent.mjs) and how it gets in: the gateway's client configuration is
 * copied with Elicit's own command and read from the clipboard, as a person pastes it into an
 * agent's config; then the agent calls the 2026-07-28 askers' tools through the gateway (`tools`:
 * the names the gateway gives them, "<server>__<tool>").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { pickQuickPickItem, runCommand, waitForQuickInput } from '../e2e/harness/workbench';

/** The gateway's URL and token, from "Elicit: Copy Gateway Config" (Claude Code's line). */
export async function copyGatewayConfig(page: Page, workbenchUrl: string): Promise<{ url: string; token: string }> {
  await page.locator('.statusbar-item', { hasText: 'Elicit gateway' }).first().waitFor({ timeout: 60_000 });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(workbenchUrl).origin });
  await runCommand(page, 'Elicit: Copy Gateway Config');
  await waitForQuickInput(page, (q) => q.items.some((i) => i.label === 'Claude Code'));
  await pickQuickPickItem(page, 'Claude Code');
  const deadline = Date.now() + 20_000;
  for (;;) {
    const copied = await page.evaluate(() => navigator.clipboard.readText()).catch(() => '');
    const match = /--transport http elicit (\S+) --header "Authorization: Bearer ([\w-]+)"/.exec(copied);
    if (match) return { url: match[1]!, token: match[2]! };
    if (Date.now() > deadline) throw new Error(`no gateway config on the clipboard: ${copied.slice(0, 200)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface SoakAgent {
  process: ChildProcess;
  /** Resolves when the agent has ended every call and exited. */
  exited: Promise<void>;
}

export function startAgent(gateway: { url: string; token: string }, tools: string[], env: Record<string, string>, dir: string): SoakAgent {
  const stderr = fs.openSync(path.join(dir, 'agent.log'), 'a');
  const child = spawn(process.execPath, [path.join(__dirname, 'soak-agent.mjs')], {
    env: { ...process.env, ...env, GATEWAY_URL: gateway.url, GATEWAY_TOKEN: gateway.token, SOAK_TOOLS: tools.join(',') },
    stdio: ['ignore', 'ignore', stderr],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { process: child, exited };
}
