/**
 * The editor's own prompts that a paired device may answer too: an agent's
 * permission request, and a location question (which only a phone can answer
 * with a position). The prompt still runs in the broker's
 * native queue; while it is open it is listed here, under an id from the same
 * counter as the questions (one id space for the device page), and whichever
 * answers first, the editor or a device, ends it.
 */
import { Emitter } from '../events';
import type { LocationAccuracy, LocationOutcome } from '../protocols/phoneProtocol';
import type { Asker, ElicitAction } from '../request';

export interface PermissionPromptView {
  kind: 'permission';
  /** The agent, one line. */
  asker: string;
  /** What it wants to do: the tool call's title. */
  title: string;
  /** The command it wants to run, when it says. */
  command?: string;
  options: readonly { optionId: string; name: string; kind: string }[];
}

export interface LocationPromptView {
  kind: 'location';
  asker: Asker;
  /** Why the asker wants it, its own words. */
  reason: string;
  accuracy: LocationAccuracy;
}

export type PromptView = PermissionPromptView | LocationPromptView;

/** What a device may answer, per kind of prompt. */
export interface PromptReplies {
  permission: { optionId: string };
  location: { location: LocationOutcome };
}

export type PromptReply = PromptReplies[keyof PromptReplies];

export interface OpenPrompt {
  id: number;
  view: PromptView;
  receivedAt: number;
}

/** How a prompt ended, for the history: a summary that holds nothing the person would not want kept. */
export interface PromptEnding {
  action: ElicitAction;
  summary: string;
  /** The paired device that answered it. */
  device?: string;
}

export interface EndedPrompt {
  view: PromptView;
  receivedAt: number;
  endedAt: number;
  ending: PromptEnding;
}

export interface PromptHandle<R = PromptReply> {
  id: number;
  /** Settles with what a device answered; never settles if the editor answers first. */
  readonly answered: Promise<R & { device: string }>;
  /** The prompt ended (answered, cancelled): devices no longer see it. With an ending, it goes to the history. */
  close(ending?: PromptEnding): void;
}

interface Entry extends OpenPrompt {
  answer(reply: PromptReply & { device: string }): void;
}

export class OpenPrompts {
  private readonly entries = new Map<number, Entry>();
  private readonly changes = new Emitter<void>();
  private readonly endings = new Emitter<EndedPrompt>();
  readonly onDidChange = this.changes.event;
  /** A prompt closed with an ending (for the history). */
  readonly onDidEnd = this.endings.event;

  constructor(
    private readonly nextId: () => number,
    private readonly now: () => number = Date.now,
  ) {}

  open(view: PermissionPromptView): PromptHandle<PromptReplies['permission']>;
  open(view: LocationPromptView): PromptHandle<PromptReplies['location']>;
  open(view: PromptView): PromptHandle {
    const id = this.nextId();
    const receivedAt = this.now();
    let answer!: Entry['answer'];
    // The caller checks that a reply fits its prompt's kind (phoneQuestions.ts) before it is given.
    const answered = new Promise<PromptReply & { device: string }>((resolve) => (answer = resolve));
    this.entries.set(id, { id, view, receivedAt, answer });
    this.changes.fire();
    let ended = false;
    return {
      id,
      answered,
      close: (ending) => {
        if (this.entries.delete(id)) this.changes.fire();
        if (ending && !ended) this.endings.fire({ view, receivedAt, endedAt: this.now(), ending });
        ended = true;
      },
    };
  }

  list(): OpenPrompt[] {
    return [...this.entries.values()].map(({ id, view, receivedAt }) => ({ id, view, receivedAt }));
  }

  /** A device's answer; false when the prompt has ended. The caller checks what a device may answer. */
  answer(id: number, reply: PromptReply, device: string): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.entries.delete(id);
    entry.answer({ ...reply, device });
    this.changes.fire();
    return true;
  }
}
