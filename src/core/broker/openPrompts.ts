/**
 * The editor's own prompts that a paired device may answer too (issue #23):
 * today an agent's permission request. The prompt still runs in the broker's
 * native queue; while it is open it is listed here, under an id from the same
 * counter as the questions (one id space for the device page), and whichever
 * answers first, the editor or a device, ends it.
 */
import { Emitter } from '../events';

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

export interface OpenPrompt {
  id: number;
  view: PermissionPromptView;
  receivedAt: number;
}

export interface PromptHandle {
  id: number;
  /** Settles with the option a device chose; never settles if the editor answers first. */
  readonly answered: Promise<{ optionId: string; device: string }>;
  /** The prompt ended (answered, cancelled): devices no longer see it. */
  close(): void;
}

interface Entry extends OpenPrompt {
  answer(choice: { optionId: string; device: string }): void;
}

export class OpenPrompts {
  private readonly entries = new Map<number, Entry>();
  private readonly changes = new Emitter<void>();
  readonly onDidChange = this.changes.event;

  constructor(
    private readonly nextId: () => number,
    private readonly now: () => number = Date.now,
  ) {}

  open(view: PermissionPromptView): PromptHandle {
    const id = this.nextId();
    let answer!: Entry['answer'];
    const answered = new Promise<{ optionId: string; device: string }>((resolve) => (answer = resolve));
    this.entries.set(id, { id, view, receivedAt: this.now(), answer });
    this.changes.fire();
    return {
      id,
      answered,
      close: () => {
        if (this.entries.delete(id)) this.changes.fire();
      },
    };
  }

  list(): OpenPrompt[] {
    return [...this.entries.values()].map(({ id, view, receivedAt }) => ({ id, view, receivedAt }));
  }

  /** A device's choice; false when the prompt has ended. The caller checks which options a device may choose. */
  answer(id: number, optionId: string, device: string): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.entries.delete(id);
    entry.answer({ optionId, device });
    this.changes.fire();
    return true;
  }
}
