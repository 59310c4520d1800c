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
import { asResult, phoneQuestion, readPhoneAnswer, type PhoneQuestion, type ReadAnswer } from '../device/phoneQuestions';

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
   * read before, the others are read in turns of their own and listed then (issue #33).
   */
  lane?: TurnLane,
): DeviceQuestions {
  const ids = new Map<string, number>();
  // From a random place, as the broker's own ids: not the same numbers after a reload.
  let nextId = OTHER_WINDOW_IDS_FROM + firstQuestionId();
  /** Put off on a device: kept here, since "Later" is the device's own list order, not an answer. */
  const later = new Set<number>();
  /** Fires when a device puts one off (its window is not told), or a question waiting to be read was read. */
  const putOff = new Emitter<void>();

  /** The other windows' questions with the device's id of each; ids of questions gone are forgotten. */
  function listed(): { id: number; remote: RemoteQuestion }[] {
    const entries = others.remote().map((remote) => {
      const key = `${remote.window.id}:${remote.question.id}`;
      let id = ids.get(key);
      if (id === undefined) ids.set(key, (id = nextId++));
      return { id, remote, key };
    });
    const live = new Set(entries.map((entry) => entry.key));
    for (const [key, id] of ids) {
      if (live.has(key)) continue;
      ids.delete(key);
      later.delete(id);
    }
    return entries;
  }

  /** Questions waiting for a turn to be read, by key. */
  const reading = new Set<string>();

  /**
   * Whether this question may be drawn in this list: read before, or the list's one read
   * of this turn. Otherwise it is read in a turn of its own, and the list changes then.
   */
  function readNowOrLater(key: string, remote: RemoteQuestion): boolean {
    const form = remote.question.answerable;
    if (!lane || !form || remote.question.editorOnly) return true;
    if (form.mode === 'form' ? wasRead(form.requestedSchema) : wasComposed(form.sections)) return true;
    if (reading.has(key)) return false;
    const turn = lane.take();
    if (!turn) return true;
    reading.add(key);
    void turn.then(() => {
      try {
        if (form.mode === 'form') normalize(form.requestedSchema);
        else composeGroup(form.sections);
      } catch {
        // Refused: drawable() says so when it is listed.
      }
      reading.delete(key);
      putOff.fire();
    });
    return false;
  }

  /** The question as this window would draw it, when the device may answer it. */
  function drawable(id: number, remote: RemoteQuestion): Question | undefined {
    const { question } = remote;
    if (!question.answerable || question.editorOnly) return undefined;
    try {
      const drawn = remoteQuestion(remote, id, presentation(), NEVER);
      // remoteQuestion marks it as not remembered here; that is not the device rule, which its window gave.
      const { noMemory: _, ...request } = drawn.request;
      return { ...drawn, request, state: later.has(id) || question.state === 'later' ? 'later' : 'waiting' };
    } catch {
      return undefined;
    }
  }

  function view(id: number, remote: RemoteQuestion, now: number): PhoneQuestion {
    const { window, question } = remote;
    const where = oneLine(window.folder, 80);
    const drawn = drawable(id, remote);
    if (drawn) return { ...phoneQuestion(drawn, now), window: where };
    const base = {
      id,
      asker: oneLine(question.asker.name, 80),
      receivedAt: question.receivedAt,
      later: later.has(id) || question.state === 'later',
      window: where,
      ...(question.asker.detail ? { detail: oneLine(question.asker.detail, 80) } : {}),
    };
    return { ...base, kind: 'editorOnly', reason: question.editorOnly ?? 'window' };
  }

  async function answerRemote(id: number, body: unknown, device: PairedDevice): Promise<ReadAnswer | 'gone'> {
    const entry = listed().find((e) => e.id === id);
    if (!entry) return 'gone';
    const question = drawable(id, entry.remote);
    if (!question) return { ok: false, errors: { '': 'This answer cannot be given from this device' } };
    const read = readPhoneAnswer(question, body);
    if (!read.ok) return read;
    const { answer } = read;
    if (answer.action === 'later') {
      later.add(id);
      putOff.fire();
      return read;
    }
    if (answer.action !== 'accept' && answer.action !== 'decline')
      return { ok: false, errors: { '': 'This answer cannot be given from this device' } };
    const result = asResult(answer);
    try {
      await others.answerFromDevice(
        entry.remote,
        result.action === 'accept' ? { action: 'accept', content: result.content ?? {} } : { action: 'decline' },
        device.name,
      );
      return read;
    } catch (error) {
      if (!listed().some((e) => e.id === id)) return 'gone';
      return { ok: false, errors: { '': oneLine(error instanceof Error ? error.message : String(error), 300) } };
    }
  }

  return {
    list(now = Date.now()) {
      const others = listed().filter(({ remote }) => readNowOrLater(`${remote.window.id}:${remote.question.id}`, remote));
      const views = [...local.list(now), ...others.map(({ id, remote }) => view(id, remote, now))];
      return views.sort((a, b) => a.receivedAt - b.receivedAt || a.id - b.id);
    },
    onDidChange(listener) {
      const subscriptions = [local.onDidChange(listener), others.onDidChange(listener), putOff.event(() => listener())];
      return { dispose: () => subscriptions.forEach((s) => s.dispose()) };
    },
    answer: (id, body, device) => (id >= OTHER_WINDOW_IDS_FROM ? answerRemote(id, body, device) : local.answer(id, body, device)),
  };
}
