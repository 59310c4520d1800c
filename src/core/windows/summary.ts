/**
 * A question as other windows see it, and back: this window's pending questions
 * summarized for the mesh (the asker's form as it sent it, never an answer,
 * draft or prefill), and another window's summary turned into a question this
 * window's renderers draw, as if it had been asked here.
 */
import type { Question } from '../broker/broker';
import { asksOnBehalf, turnHasEnded, type ElicitRequest } from '../request';
import { deviceVerdict } from '../device/devicePolicy';
import { clip } from '../display';
import { answeredOnlyHere, type FormModel } from '../form/fields';
import { composeGroup } from '../form/group';
import { normalize } from '../form/normalize';
import { choosePresentation, type PresentationSetting } from '../form/presentation';
import { MAX_LISTED, MAX_MESSAGE_BYTES, type QuestionSummary, type RemoteForm, type RemoteQuestion } from './protocol';

/** Room left in a list message for everything but the forms. */
const FORM_BUDGET = MAX_MESSAGE_BYTES - 200 * 1024;

/**
 * The first MAX_LISTED questions. A form that would not fit in one message is
 * listed without it, as answered only in its own window.
 */
export function summarize(questions: readonly Question[]): QuestionSummary[] {
  let budget = FORM_BUDGET;
  return questions.slice(0, MAX_LISTED).map((question) => {
    const { request } = question;
    const summary: QuestionSummary = {
      id: question.id,
      asker: { kind: request.asker.kind, name: clip(request.asker.name, 1000) },
      message: clip(request.message, 60_000),
      receivedAt: question.receivedAt,
      state: question.state,
    };
    if (request.asker.detail !== undefined) summary.asker.detail = clip(request.asker.detail, 1000);
    const verdict = deviceVerdict(question);
    if (!verdict.allowed) summary.editorOnly = verdict.reason;
    const form = answerableForm(question);
    const size = form ? Buffer.byteLength(JSON.stringify(form)) : 0;
    if (form && size <= budget) {
      summary.answerable = form;
      budget -= size;
    }
    return summary;
  });
}

/** What another window needs to draw it, when it may answer it at all (the broker decides the same). */
function answerableForm(question: Question): RemoteForm | undefined {
  const { request, form } = question;
  if (!form || answeredOnlyHere(form) || asksOnBehalf(request) || turnHasEnded(request)) return undefined;
  if (request.mode === 'form') {
    const remote: RemoteForm = { mode: 'form', requestedSchema: request.requestedSchema };
    if (request.submitLabel !== undefined) remote.submitLabel = request.submitLabel;
    return remote;
  }
  if (request.mode === 'group') {
    const sections = request.sections.map(({ key, message, requestedSchema }) => ({ key, message, requestedSchema }));
    return request.earlier ? { mode: 'group', sections, earlier: request.earlier } : { mode: 'group', sections };
  }
  return undefined;
}

/**
 * Another window's question as one this window draws. Throws (as normalize
 * does for any asker) when its form cannot be drawn, or has a secret field:
 * those are answered only where they were asked.
 */
export function remoteQuestion(remote: RemoteQuestion, localId: number, presentation: PresentationSetting, signal: AbortSignal): Question {
  const { question } = remote;
  const form = question.answerable;
  if (!form) throw new Error('This question can only be answered in the window that asked it.');
  const asker = { ...question.asker };
  const base = { asker, message: question.message, signal, noMemory: true as const };
  let request: ElicitRequest;
  let model: FormModel;
  if (form.mode === 'form') {
    request = {
      ...base,
      mode: 'form',
      requestedSchema: form.requestedSchema,
      ...(form.submitLabel ? { submitLabel: form.submitLabel } : {}),
    };
    model = normalize(form.requestedSchema);
  } else {
    request = { ...base, mode: 'group', sections: form.sections, ...(form.earlier ? { earlier: form.earlier } : {}) };
    model = composeGroup(form.sections);
  }
  if (answeredOnlyHere(model)) throw new Error('This question can only be answered in the window that asked it.');
  const followUp = form.mode === 'group' && (form.earlier?.length ?? 0) > 0;
  return {
    id: localId,
    request,
    form: model,
    presentation: choosePresentation(model, presentation, { followUp }),
    receivedAt: question.receivedAt,
    state: 'waiting',
  };
}
