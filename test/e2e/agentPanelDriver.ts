/**
 * Driving an agent panel in code-server, shared by the ACP end-to-end files:
 * start a session from the palette, find a panel by its tab title, wait for its
 * status, send a prompt.
 */
import type { FrameLocator, Page } from 'playwright-core';
import { pickQuickPickItem, runCommand, waitForQuickInput, webviewFrame } from './harness/workbench';

/** Elicit: New Agent Session, then the agent picked (or started at once when it is the only one). */
export async function newAgentSession(page: Page, agent: string, pick = true): Promise<void> {
  await runCommand(page, 'Elicit: New Agent Session');
  if (!pick) return;
  await waitForQuickInput(page, (q) => q.items.some((i) => i.label === agent));
  await pickQuickPickItem(page, agent);
}

/** The panel whose tab has this title, once its prompt box is drawn. */
export async function agentPanel(page: Page, title: string, timeout = 30_000): Promise<FrameLocator> {
  const panel = await webviewFrame(page, title);
  await panel.locator('textarea.prompt').waitFor({ timeout });
  return panel;
}

export async function waitForStatus(panel: FrameLocator, status: string, timeout = 30_000): Promise<void> {
  await panel.locator('.status', { hasText: status }).waitFor({ timeout });
}

/** Types a prompt once the agent is ready and sends it with Enter. */
export async function send(panel: FrameLocator, text: string): Promise<void> {
  await waitForStatus(panel, 'Ready');
  await panel.locator('textarea.prompt').fill(text);
  await panel.locator('textarea.prompt').press('Enter');
}
