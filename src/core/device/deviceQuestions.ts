/**
 * The broker as a paired device sees it: the waiting questions (as
 * phoneQuestions.ts shows them) and the device's answers handed back. Submit
 * and Decline answer through the broker's answerFromElsewhere (checked again
 * there, as another window's answer is; history naming the device), Later puts the question off, Dismiss closes one whose turn has
 * ended, a permission option (allow once, reject once) or a location question's outcome ends the editor's prompt, and Open hands a URL question to the editor, which opens the link on
 * the computer after its own consent; never on the phone.
 */
import type { Broker, Question } from '../broker/broker';
import type { OpenPrompt } from '../broker/openPrompts';
import type { Disposable } from '../events';
import type { PairedDevice } from './devices';
import { asResult, phoneQuestions, readPhoneAnswer, readPromptAnswer, type PhoneQuestion, type ReadAnswer } from './phoneQuestions';

export interface DeviceQuestions {
  /** What a device is shown: every waiting question and open prompt, oldest first (phoneQuestions.ts). */
  list(now?: number): PhoneQuestion[];
  onDidChange(listener: () => void): Disposable;
  /** `gone` when the question is no longer waiting. */
  answer(id: number, body: unknown, device: PairedDevice): Promise<ReadAnswer | 'gone'>;
}

export interface BrokerDeviceOptions {
  /** A URL question the person chose to open from the device: the editor's consent, then the link on the computer. */
  openOnComputer(question: Question, device: PairedDevice): void;
}

export function brokerDeviceQuestions(broker: Broker, options: BrokerDeviceOptions): DeviceQuestions {
  return {
    list: (now) => phoneQuestions(broker.pending(), broker.prompts.list(), now),
    onDidChange: (listener) => broker.onDidChange(listener),
    async answer(id, body, device) {
      const prompt = broker.prompts.list().find((p) => p.id === id);
      if (prompt) return answerPrompt(broker, prompt, body, device);
      const question = broker.pending().find((q) => q.id === id);
      if (!question) return 'gone';
      const read = readPhoneAnswer(question, body);
      if (!read.ok) return read;
      const { answer } = read;
      if (answer.action === 'later') broker.later(id);
      else if (answer.action === 'dismiss') broker.dismiss(id);
      else if (answer.action === 'open') options.openOnComputer(question, device);
      else if (answer.action === 'select' || answer.action === 'location') return { ok: false, errors: { '': 'This is not a prompt.' } };
      else {
        const refused = broker.answerFromElsewhere(id, asResult(answer), device.name);
        if (refused !== undefined) return broker.pending().some((q) => q.id === id) ? { ok: false, errors: { '': refused } } : 'gone';
      }
      return read;
    },
  };
}

function answerPrompt(broker: Broker, prompt: OpenPrompt, body: unknown, device: PairedDevice): ReadAnswer | 'gone' {
  const read = readPromptAnswer(prompt, body);
  if (!read.ok) return read;
  const { answer } = read;
  if (answer.action === 'select' && !broker.prompts.answer(prompt.id, { optionId: answer.optionId }, device.name)) return 'gone';
  if (answer.action === 'location' && !broker.prompts.answer(prompt.id, { location: answer.location }, device.name)) return 'gone';
  return read;
}
