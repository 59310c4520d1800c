/**
 * A paired device sees the questions of every VS Code window, not only those
 * of the window that serves it: the other windows' questions come through the
 * window mesh (core/windows), are shown with the same rules, and an answer
 * given on the device goes to the window that asked, naming the device. That
 * window checks it again as its own, device rule included (summary.ts lists
 * its verdict, deviceQuestions.ts's answerFromOtherWindow enforces it).
 */
import { firstQuestionId, type Question } from '../broker/broker';
import { Emitter, type Disposable } from '../events';
import type { PresentationSetting } from '../form/presentation';
import { oneLine } from '../display';
import type { RemoteAnswer, RemoteQuestion } from './protocol';
import { remoteQuestion } from './summary';
import { composeGroup, wasComposed } from '../form/group';
import { normalize, wasRead } from '../form/normalize';
import type { TurnLane } from '../time/turnLane';
import type { DeviceQuestions } from '../device/deviceQuestions';
import type { PairedDevice } from '../device/devices';
import { asResult, phoneQuestion, readPhoneAnswer, REFUSED, type PhoneQuestion, type ReadAnswer } from '../device/phoneQuestions';

/** What this window knows of the others (OtherWindows in the VS Code layer). */
export interface OtherWindowsForDevices {
  remote(): RemoteQuestion[];
  onDidChange(listener: () => void): Disposable;
  /** Sends the answer to the window that asked; rejects with its refusal, or when that window is gone. */
  answerFromDevice(remote: RemoteQuestion, answer: RemoteAnswer, device: string): Promise<void>;
}

/** A device's ids for other windows' questions: above this window's own, which start below 4e9 (firstQuestionId). */
export const OTHER_WINDOW_IDS_FROM = 5_000_000_000;

const NEVER = new AbortController().signal;

/** `local` (this window's questions as a device sees them) with every other window's added. */
export function withOtherWindows(
  local: DeviceQuestions,
  others: OtherWindowsForDevices,
  presentation: () => PresentationSetting,
  /**
   * The host's reading lane (core/turnLane.ts): a list reads at most one question it has not
   * read before, the others are read in turns of their own and listed then.
   */
  lane?: TurnLane,
): DeviceQuestions {
  return new OtherWindowQuestions(local, others, presentation, lane);
}

/** A listed question of another window, with the device's id for it and its key in the mesh. */
interface ListedRemote {
  id: number;
  remote: RemoteQuestion;
  key: string;
}

function meshKey(remote: RemoteQuestion): string {
  return `${remote.window.id}:${remote.question.id}`;
}

class OtherWindowQuestions implements DeviceQuestions {
  /** The device's id of each other window's question, by its mesh key. */
  private readonly ids = new Map<string, number>();
  // From a random place, as the broker's own ids: not the same numbers after a reload.
  private nextId = OTHER_WINDOW_IDS_FROM + firstQuestionId();
  /** Put off on a device: kept here, since "Later" is the device's own list order, not an answer. */
  private readonly later = new Set<number>();
  /** Fires when a device puts one off (its window is not told), or a question waiting to be read was read. */
  private readonly putOff = new Emitter<void>();
  /** Questions waiting for a turn to be read, by mesh key. */
  private readonly reading = new Set<string>();

  constructor(
    private readonly local: DeviceQuestions,
    private readonly others: OtherWindowsForDevices,
    private readonly presentation: () => PresentationSetting,
    private readonly lane: TurnLane | undefined,
  ) {}

  list(now = Date.now()): PhoneQuestion[] {
    const others = this.listed().filter(({ key, remote }) => this.readNowOrLater(key, remote));
    const views = [...this.local.list(now), ...others.map(({ id, remote }) => this.view(id, remote, now))];
    return views.sort((a, b) => a.receivedAt - b.receivedAt || a.id - b.id);
  }

  onDidChange(listener: () => void): Disposable {
    const subscriptions = [this.local.onDidChange(listener), this.others.onDidChange(listener), this.putOff.event(() => listener())];
    return { dispose: () => subscriptions.forEach((s) => s.dispose()) };
  }

  answer(id: number, body: unknown, device: PairedDevice): Promise<ReadAnswer | 'gone'> {
    return id >= OTHER_WINDOW_IDS_FROM ? this.answerRemote(id, body, device) : this.local.answer(id, body, device);
  }

  /** The other windows' questions with the device's id of each; ids of questions gone are forgotten. */
  private listed(): ListedRemote[] {
    const entries = this.others.remote().map((remote) => {
      const key = meshKey(remote);
      let id = this.ids.get(key);
      if (id === undefined) this.ids.set(key, (id = this.nextId++));
      return { id, remote, key };
    });
    const live = new Set(entries.map((entry) => entry.key));
    for (const [key, id] of this.ids) {
      if (live.has(key)) continue;
      this.ids.delete(key);
      this.later.delete(id);
    }
    return entries;
  }

  /**
   * Whether this question may be drawn in this list: read before, or the list's one read
   * of this turn. Otherwise it is read in a turn of its own, and the list changes then.
   */
  private readNowOrLater(key: string, remote: RemoteQuestion): boolean {
    const form = remote.question.answerable;
    if (!this.lane || !form || remote.question.editorOnly) return true;
    if (form.mode === 'form' ? wasRead(form.requestedSchema) : wasComposed(form.sections)) return true;
    if (this.reading.has(key)) return false;
    const turn = this.lane.take();
    if (!turn) return true;
    this.reading.add(key);
    void turn.then(() => {
      try {
        if (form.mode === 'form') normalize(form.requestedSchema);
        else composeGroup(form.sections);
      } catch {
        // Refused: drawable() says so when it is listed.
      }
      this.reading.delete(key);
      this.putOff.fire();
    });
    return false;
  }

  private isLater(id: number, remote: RemoteQuestion): boolean {
    return this.later.has(id) || remote.question.state === 'later';
  }

  /** The question as this window would draw it, when the device may answer it. */
  private drawable(id: number, remote: RemoteQuestion): Question | undefined {
    const { question } = remote;
    if (!question.answerable || question.editorOnly) return undefined;
    try {
      const drawn = remoteQuestion(remote, id, this.presentation(), NEVER);
      // remoteQuestion marks it as not remembered here; that is not the device rule, which its window gave.
      const { noMemory: _, ...request } = drawn.request;
      return { ...drawn, request, state: this.isLater(id, remote) ? 'later' : 'waiting' };
    } catch {
      return undefined;
    }
  }

  private view(id: number, remote: RemoteQuestion, now: number): PhoneQuestion {
    const { window, question } = remote;
    const where = oneLine(window.folder, 80);
    const drawn = this.drawable(id, remote);
    if (drawn) return { ...phoneQuestion(drawn, now), window: where };
    const base = {
      id,
      asker: oneLine(question.asker.name, 80),
      receivedAt: question.receivedAt,
      later: this.isLater(id, remote),
      window: where,
      ...(question.asker.detail ? { detail: oneLine(question.asker.detail, 80) } : {}),
    };
    return { ...base, kind: 'editorOnly', reason: question.editorOnly ?? 'window' };
  }

  private async answerRemote(id: number, body: unknown, device: PairedDevice): Promise<ReadAnswer | 'gone'> {
    const entry = this.listed().find((e) => e.id === id);
    if (!entry) return 'gone';
    const question = this.drawable(id, entry.remote);
    if (!question) return REFUSED;
    const read = readPhoneAnswer(question, body);
    if (!read.ok) return read;
    const { answer } = read;
    if (answer.action === 'later') {
      this.later.add(id);
      this.putOff.fire();
      return read;
    }
    if (answer.action !== 'accept' && answer.action !== 'decline') return REFUSED;
    const result = asResult(answer);
    try {
      await this.others.answerFromDevice(
        entry.remote,
        result.action === 'accept' ? { action: 'accept', content: result.content ?? {} } : { action: 'decline' },
        device.name,
      );
      return read;
    } catch (error) {
      if (!this.listed().some((e) => e.id === id)) return 'gone';
      return { ok: false, errors: { '': oneLine(error instanceof Error ? error.message : String(error), 300) } };
    }
  }
}
