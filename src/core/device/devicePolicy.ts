/**
 * What may be answered on a paired phone. A phone is easier to lose, to watch
 * over a shoulder, and to be tricked on than the editor, so the rule is a list
 * of what may go, and everything else is "answer this in the editor":
 *
 * - form questions and agent questions (MCP and ACP elicitations, `ask_user`,
 *   rounds and grouped bursts) may go, unless a field is secret;
 * - a URL question may go, but the phone only says what it is and where it
 *   leads: answering it opens the link on the computer, after the editor's own
 *   consent, never on the phone;
 * - never secret fields, key or configuration inputs, sign-ins, Elicit's own
 *   questions asked for the person at the desk (a tool's arguments), nor any of
 *   the editor's own prompts that are not questions: secret grants, clipboard
 *   approvals, agent keys, agent and terminal sign-in;
 * - an agent's permission request may go with "allow once" and "reject once"
 *   only: anything that lasts beyond this one call is chosen in the editor;
 * - a location question goes to the phone, the one device that can read a
 *   position (the editor offers to deny it or to type a place).
 *
 * Pure: over the broker's Question, so every asker is covered the same way.
 */
import type { Broker, Question } from '../broker/broker';
import type { ElicitResult } from '../request';
import { hasFileField, hasSecret } from '../form/fields';

import type { EditorOnlyReason } from '../protocols/phoneProtocol';

export type { EditorOnlyReason } from '../protocols/phoneProtocol';

export type DeviceVerdict = { allowed: true; opensOnComputer: boolean } | { allowed: false; reason: EditorOnlyReason };

export function deviceVerdict(question: Question): DeviceVerdict {
  const { request } = question;
  if (request.editorOnly) return { allowed: false, reason: request.editorOnly };
  if (request.mode === 'form' && request.onBehalf) return { allowed: false, reason: 'elicitOwn' };
  if (request.noMemory) return { allowed: false, reason: 'elicitOwn' };
  if (request.mode === 'url') return question.url ? { allowed: true, opensOnComputer: true } : { allowed: false, reason: 'prompt' };
  // A form the broker could not read is not sent anywhere; one with a secret stays in the editor.
  if (!question.form) return { allowed: false, reason: 'prompt' };
  if (hasSecret(question.form)) return { allowed: false, reason: 'secret' };
  // A file is picked from the computer's own disk.
  if (hasFileField(question.form)) return { allowed: false, reason: 'file' };
  return { allowed: true, opensOnComputer: false };
}

/** The editor's prompts that are not broker questions (they run in its native queue). */
export type EditorPromptKind = 'permission' | 'location' | 'agentKey' | 'agentSignIn' | 'terminalSignIn' | 'secretGrant' | 'clipboard';

export function promptGoesToDevice(kind: EditorPromptKind): boolean {
  return kind === 'permission' || kind === 'location';
}

/** An ACP permission option (the agent's own words and kind). */
export interface PermissionOptionLike {
  optionId: string;
  name: string;
  kind: string;
}

/** The only permission answers a phone may give: this one call, allowed or rejected. */
export const DEVICE_PERMISSION_KINDS: ReadonlySet<string> = new Set(['allow_once', 'reject_once']);

/** The options a phone shows: allow once and reject once, in the agent's order; the rest only in the editor. */
export function devicePermissionOptions<T extends PermissionOptionLike>(options: readonly T[]): T[] {
  return options.filter((option) => DEVICE_PERMISSION_KINDS.has(option.kind));
}

/** Whether a phone's permission answer names one of the options it may give. */
export function acceptsDevicePermission(options: readonly PermissionOptionLike[], optionId: unknown): boolean {
  return devicePermissionOptions(options).some((option) => option.optionId === optionId);
}

/**
 * Another window's answer to one of this window's questions, given on the paired device `device` when it
 * names one: the device rule is this window's own, checked again here, whatever the other window showed.
 */
export function answerFromOtherWindow(broker: Broker, id: number, answer: ElicitResult, device?: string): string | undefined {
  if (device !== undefined) {
    const question = broker.pending().find((q) => q.id === id);
    if (question && !deviceVerdict(question).allowed) return 'This question cannot be answered on a device: answer it in the editor.';
  }
  return broker.answerFromElsewhere(id, answer, device);
}
