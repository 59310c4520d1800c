/**
 * The page a paired phone shows: pairing first (the code from the
 * QR code's fragment or typed, the phone's name, then its own code to confirm
 * in the editor), then the waiting questions with who asks and how long ago,
 * each drawn with the editor's field rules (formState.ts), with Submit,
 * Decline and Later, live through server-sent events, and an in-page alert
 * when a new question arrives. A location question is answered with this
 * browser's own geolocation, once the person taps Share (the browser asks its
 * own permission then); at low accuracy the position is rounded here, before
 * it leaves the phone. Every string from the server is inserted as
 * text, never as HTML (el() sets textContent only).
 */
import { collectAnswer, initialValues, startingValues, type RawValue, type RawValues } from '../../src/core/form/formState';
import type { ChoiceOption, Field, FormModel, NumberField } from '../../src/core/form/fields';
import { numberScale } from '../../src/core/form/numberScale';
import { listedOptions, otherTextField, OTHER_CHOICE, questionFields } from '../../src/core/form/otherAnswer';
import type {
  EditorOnlyReason,
  LocationOutcome,
  PhoneForm,
  PhoneLocation,
  PhonePermission,
  PhoneQuestion,
  PhoneUrl,
} from '../../src/core/protocols/phoneProtocol';
import { LOW_ACCURACY_ROUNDING_TEXT, positionToSend } from '../../src/core/askUser/locationQuestions';
import { adoptStyles, el } from '../shared/dom';
import { linkedSlider } from '../shared/slider';
import { claimPairing, pairingStatus, sendAnswer, waitingQuestions, watchQuestions } from './api';
import { ageText } from './age';
import { CountdownLine } from '../shared/countdown';
import visuallyHidden from '../shared/visuallyHidden.css';
import styles from './styles.css';

const root = document.getElementById('app')!;
adoptStyles(visuallyHidden);
adoptStyles(styles);

/** What the person typed per question, kept while the list redraws. */
const drafts = new Map<number, RawValues>();
let known = new Set<number>();
/** The drawn card of each question, kept while it is unchanged so typing and focus survive an update. */
const cards = new Map<number, { key: string; node: HTMLElement }>();

function show(...children: Node[]): void {
  root.replaceChildren(...children);
}

// ---- pairing ---------------------------------------------------------------------------

/** The code from the QR code travels in the fragment (never sent to a server); it is taken out of the address at once. */
function codeFromFragment(): string {
  const match = /(?:^#|&)code=([A-Za-z0-9-]{1,16})(?:&|$)/.exec(location.hash);
  if (location.hash) history.replaceState(null, '', location.pathname);
  return match?.[1] ?? '';
}

function showPairing(code: string, problem?: string): void {
  const codeInput = el('input', {
    attrs: { inputmode: 'text', autocomplete: 'off', autocapitalize: 'characters', 'aria-label': 'Pairing code' },
  });
  codeInput.value = code;
  const nameInput = el('input', { attrs: { autocomplete: 'off', maxlength: '40', 'aria-label': 'Name of this phone' } });
  nameInput.value = 'My phone';
  const pairButton = el('button', { className: 'primary', text: 'Pair' });
  const form = el(
    'form',
    { className: 'card' },
    el('h1', { text: 'Pair with Elicit' }),
    el('p', { text: 'Enter the code the editor shows, and a name for this phone.' }),
    el('label', { text: 'Code' }, codeInput),
    el('label', { text: 'Name' }, nameInput),
    ...(problem ? [el('p', { className: 'error', text: problem })] : []),
    pairButton,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    pairButton.disabled = true;
    void pair(codeInput.value, nameInput.value);
  });
  show(form);
}

async function pair(code: string, name: string): Promise<void> {
  const claimed = await claimPairing(code, name);
  if (!claimed) return showPairing('', 'That code did not work. Start pairing again in the editor for a new code.');
  show(
    el(
      'section',
      { className: 'card' },
      el('h1', { text: 'Confirm in the editor' }),
      el('p', { text: 'The editor asks whether this phone is the one pairing. Confirm there only if it shows:' }),
      el('p', { className: 'big', text: claimed.confirmCode }),
      el('p', { className: 'name', text: claimed.name }),
    ),
  );
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const status = await pairingStatus();
    if (status.status === 'paired') return void start();
    if (status.status === 'refused') return showPairing('', 'Pairing was not confirmed in the editor, or it took too long.');
  }
}

// ---- questions -------------------------------------------------------------------------

let stopWatching: (() => void) | undefined;

async function start(): Promise<void> {
  const questions = await waitingQuestions();
  if (!questions) return showPairing(codeFromFragment());
  codeFromFragment();
  known = new Set(questions.map((q) => q.id));
  cards.clear();
  root.replaceChildren();
  drawList(questions);
  stopWatching?.();
  stopWatching = watchQuestions(
    (next) => {
      const arrived = next.filter((q) => !known.has(q.id));
      known = new Set(next.map((q) => q.id));
      drawList(next);
      if (arrived.length > 0) alertNew(arrived[0]!);
    },
    () => showPairing('', 'This phone is no longer paired.'),
  );
}

/**
 * An in-page alert the moment a new question arrives (and a short buzz where the phone allows it).
 * It floats at the bottom, over the space the page keeps free there, so it never covers the list's
 * first card nor moves what is under a finger; a tap shows the new card and dismisses it.
 */
let banner: { node: HTMLElement; timer: ReturnType<typeof setTimeout> } | undefined;

function alertNew(question: PhoneQuestion): void {
  dismissAlert();
  const node = el('div', { className: 'alert', text: `New question from ${question.asker}`, attrs: { role: 'alert' } });
  node.addEventListener('click', () => {
    cards.get(question.id)?.node.scrollIntoView({ block: 'start', behavior: 'smooth' });
    dismissAlert();
  });
  document.body.append(node);
  banner = { node, timer: setTimeout(dismissAlert, 4000) };
  navigator.vibrate?.(200);
}

function dismissAlert(): void {
  if (!banner) return;
  clearTimeout(banner.timer);
  banner.node.remove();
  banner = undefined;
}

function drawList(questions: PhoneQuestion[]): void {
  const ids = new Set(questions.map((q) => q.id));
  for (const id of [...drafts.keys()]) if (!ids.has(id)) drafts.delete(id);
  for (const [id, drawn] of cards) {
    if (!ids.has(id)) {
      drawn.node.remove();
      cards.delete(id);
    }
  }
  const heading = el('h1', { text: questions.length === 0 ? 'No questions waiting' : `${questions.length} waiting` });
  const list = root.querySelector('.list') ?? el('div', { className: 'list' });
  let previous: Element | null = null;
  for (const question of questions) {
    // Redrawn only when what it shows changed (put off, its turn ended); otherwise left as it is.
    const key = JSON.stringify([question.kind, question.later, question.kind === 'form' && question.turnEnded]);
    let drawn = cards.get(question.id);
    if (drawn?.key !== key) {
      const node = card(question);
      if (drawn) drawn.node.replaceWith(node);
      drawn = { key, node };
      cards.set(question.id, drawn);
    }
    const wanted: Element | null = previous ? previous.nextElementSibling : list.firstElementChild;
    if (wanted !== drawn.node) {
      if (previous) previous.after(drawn.node);
      else list.prepend(drawn.node);
    }
    previous = drawn.node;
  }
  const empty = questions.length === 0 ? [el('p', { className: 'muted', text: 'New questions appear here as they come.' })] : [];
  if (root.firstElementChild?.tagName === 'H1' && root.contains(list)) {
    root.firstElementChild.replaceWith(heading);
    for (const node of root.querySelectorAll(':scope > p')) node.remove();
    list.before(...empty);
  } else show(heading, ...empty, list);
}

setInterval(() => {
  for (const node of document.querySelectorAll<HTMLElement>('[data-received]'))
    node.textContent = ageText(Number(node.dataset.received), Date.now());
}, 15_000);

function header(question: PhoneQuestion): HTMLElement {
  const age = el('span', { className: 'age', text: ageText(question.receivedAt, Date.now()) });
  age.dataset.received = String(question.receivedAt);
  const who = [question.asker, question.detail, question.window && `in ${question.window}`].filter(Boolean).join(' · ');
  const top = el('header', {}, el('span', { className: 'asker', text: who }), age);
  if (question.autoResolvesInMs === undefined) return top;
  // The asker's own timer, counted from when this list arrived (the phone's clock may be off).
  const countdown = new CountdownLine(question.asker, question.autoResolvesInMs);
  return el('div', { className: 'top' }, top, ...countdown.nodes);
}

const EDITOR_ONLY: Record<EditorOnlyReason, string> = {
  secret: 'It asks for a secret: answer this in the editor.',
  file: 'It asks for a file from your computer: answer this in the editor.',
  key: 'It asks for a key or setting: answer this in the editor.',
  signIn: 'It is a sign-in: answer this in the editor.',
  elicitOwn: 'Answer this in the editor.',
  prompt: 'Answer this in the editor.',
  window: 'Answer this in its VS Code window.',
};

function card(question: PhoneQuestion): HTMLElement {
  if (question.kind === 'editorOnly') {
    return el('article', { className: 'card editor-only' }, header(question), el('p', { text: EDITOR_ONLY[question.reason] }));
  }
  if (question.kind === 'permission') return permissionCard(question);
  if (question.kind === 'location') return locationCard(question);
  return question.kind === 'url' ? urlCard(question) : formCard(question);
}

/** An agent's permission request: its own option names, allow once and reject once only. */
function permissionCard(question: PhonePermission): HTMLElement {
  const status = el('p', { className: 'error' });
  const buttons = question.options.map((option) =>
    button(option.name, option.kind === 'allow_once' ? 'primary' : '', () =>
      answer(question.id, { action: 'select', optionId: option.optionId }, status),
    ),
  );
  return el(
    'article',
    { className: 'card permission' },
    header(question),
    el('p', { className: 'message', text: `Wants permission: ${question.title}` }),
    ...(question.command !== undefined ? [el('pre', { className: 'command', text: question.command })] : []),
    el('p', { className: 'muted', text: 'Anything that lasts beyond this one call is chosen in the editor.' }),
    status,
    el('div', { className: 'buttons' }, ...buttons),
  );
}

/** How long the browser may look for a position before the question ends as `cancel` (a timeout). */
const POSITION_TIMEOUT_MS = 30_000;

/** Who asks for the position and why, how precisely, with Share and Deny; the browser's permission prompt follows Share. */
function locationCard(question: PhoneLocation): HTMLElement {
  const status = el('p', { className: 'error', attrs: { 'aria-live': 'polite' } });
  const send = (location: LocationOutcome): Promise<void> => answer(question.id, { action: 'location', location }, status);
  const share = button('Share', 'primary', () => {
    share.disabled = true;
    deny.disabled = true;
    status.textContent = 'Finding your position…';
    void readPosition(question.accuracy).then(async (location) => {
      await send(location);
      share.disabled = false;
      deny.disabled = false;
    });
  });
  const deny = button('Deny', '', () => send({ outcome: 'denied', by: 'person' }));
  const precision =
    question.accuracy === 'low'
      ? `Approximate: rounded on this phone to ${LOW_ACCURACY_ROUNDING_TEXT} before it is sent.`
      : 'Precise: as exact as this phone can tell.';
  return el(
    'article',
    { className: 'card location' },
    header(question),
    el('p', { className: 'message', text: question.reason }),
    el('p', { text: `Asks for your location. ${precision}` }),
    el('p', { className: 'muted', text: 'Share lets this browser read your position (it may ask you first); it goes to this asker only.' }),
    status,
    el('div', { className: 'buttons' }, share, deny),
  );
}

/** This browser's position, rounded for low accuracy; a refusal, a timeout or no position at all as such. */
function readPosition(accuracy: PhoneLocation['accuracy']): Promise<LocationOutcome> {
  const geolocation = navigator.geolocation as Geolocation | undefined;
  if (!geolocation) return Promise.resolve({ outcome: 'failed', why: 'unavailable' });
  return new Promise((resolve) => {
    geolocation.getCurrentPosition(
      ({ coords }) =>
        resolve({
          outcome: 'shared',
          ...positionToSend({ lat: coords.latitude, lng: coords.longitude, accuracy: coords.accuracy }, accuracy),
        }),
      (error) => {
        if (error.code === error.PERMISSION_DENIED) resolve({ outcome: 'denied', by: 'browser' });
        else resolve({ outcome: 'failed', why: error.code === error.TIMEOUT ? 'timeout' : 'unavailable' });
      },
      { enableHighAccuracy: accuracy === 'high', timeout: POSITION_TIMEOUT_MS, maximumAge: accuracy === 'low' ? 60_000 : 0 },
    );
  });
}

function urlCard(question: PhoneUrl): HTMLElement {
  const status = el('p', { className: 'error' });
  const buttons = el(
    'div',
    { className: 'buttons' },
    button('Open on the computer', 'primary', () => answer(question.id, { action: 'open' }, status)),
    button('Decline', '', () => answer(question.id, { action: 'decline' }, status)),
  );
  return el(
    'article',
    { className: 'card' },
    header(question),
    el('p', { className: 'message', text: question.message }),
    el('p', { text: `Opens ${question.host} in the computer’s browser, after you agree there.` }),
    ...question.warnings.map((w) => el('p', { className: 'warning', text: w })),
    status,
    buttons,
  );
}

function formCard(question: PhoneForm): HTMLElement {
  const form: FormModel = question.form;
  const raws = drafts.get(question.id) ?? startingValues(form, { ...initialValues(form), ...(question.prefill ?? {}) }, undefined);
  drafts.set(question.id, raws);
  const errors = new Map<string, HTMLElement>();
  const blocks = questionFields(form).map((field) => ({ field, node: fieldBlock(form, field, raws, errors) }));
  // Several questions answered together (a round, a burst): each under its own message, as in the editor's form.
  const sections = form.sections && form.sections.length > 1 ? form.sections : undefined;
  const fields = sections
    ? sections.flatMap((section, index) => [
        el('h2', { className: 'section-message', text: section.message }),
        ...blocks.filter((b) => b.field.section === index).map((b) => b.node),
      ])
    : blocks.map((b) => b.node);
  const status = el('p', { className: 'error' });
  const submit = (): void => {
    const { content, errors: problems } = collectAnswer(form, raws);
    for (const [name, node] of errors) node.textContent = problems[name] ?? '';
    if (Object.keys(problems).length > 0) return void (status.textContent = 'Some answers need another look.');
    void answer(question.id, { action: 'accept', content }, status);
  };
  const buttons = question.turnEnded
    ? [button('Dismiss', 'primary', () => answer(question.id, { action: 'dismiss' }, status))]
    : [
        button('Submit', 'primary', submit),
        button('Decline', '', () => answer(question.id, { action: 'decline' }, status)),
        button('Later', '', () => answer(question.id, { action: 'later' }, status)),
      ];
  return el(
    'article',
    { className: question.later ? 'card later' : 'card' },
    header(question),
    el('p', { className: 'message', text: question.message }),
    ...(question.turnEnded ? [el('p', { className: 'muted', text: 'The agent went on without this answer.' })] : fields),
    status,
    el('div', { className: 'buttons' }, ...buttons),
  );
}

function button(label: string, className: string, onClick: () => unknown): HTMLButtonElement {
  const node = el('button', { className, text: label, attrs: { type: 'button' } });
  node.addEventListener('click', () => void onClick());
  return node;
}

async function answer(id: number, body: unknown, status: HTMLElement): Promise<void> {
  const outcome = await sendAnswer(id, body);
  if (outcome.ok) {
    drafts.delete(id);
    return;
  }
  if ('unpaired' in outcome) return showPairing('', 'This phone is no longer paired.');
  if ('gone' in outcome) return void (status.textContent = 'This question is no longer waiting.');
  status.textContent = Object.values(outcome.errors)[0] ?? 'The answer was not taken.';
}

function fieldBlock(form: FormModel, field: Field, raws: RawValues, errors: Map<string, HTMLElement>): HTMLElement {
  const set = (value: RawValue): void => {
    raws[field.name] = value;
  };
  const error = el('span', { className: 'field-error', attrs: { 'aria-live': 'polite' } });
  errors.set(field.name, error);
  const block = el('fieldset', {}, el('legend', { text: field.required ? `${field.label} *` : field.label }));
  if (field.description) block.append(el('p', { className: 'muted', text: field.description }));
  const raw = raws[field.name];
  switch (field.kind) {
    case 'text':
    case 'number': {
      // A small whole-number range is a row of choices; any other number a box, with a slider where both bounds are known.
      if (field.kind === 'number' && numberScale(field)) {
        block.append(scaleRow(field, raw, set));
        break;
      }
      const input = el('input', { attrs: { 'aria-label': field.label } });
      if (field.kind === 'number') input.inputMode = field.integer ? 'numeric' : 'decimal';
      else if (field.format === 'email') input.type = 'email';
      else if (field.format === 'uri') input.type = 'url';
      input.value = typeof raw === 'string' ? raw : '';
      input.addEventListener('input', () => set(input.value));
      block.append(input);
      const slider = field.kind === 'number' ? linkedSlider(field, input, 'slider', () => set(input.value)) : undefined;
      if (slider) block.append(slider);
      break;
    }
    case 'boolean': {
      const box = el('input', { attrs: { type: 'checkbox' } });
      box.checked = raw === true;
      box.addEventListener('change', () => set(box.checked));
      block.append(el('label', { className: 'choice' }, box, document.createTextNode(field.label)));
      break;
    }
    case 'choice':
    case 'multiChoice': {
      const multi = field.kind === 'multiChoice';
      const chosen = (): string[] => (Array.isArray(raws[field.name]) ? [...(raws[field.name] as string[])] : []);
      const options = [...listedOptions(field)];
      const other = otherTextField(form, field);
      if (other) options.push({ value: OTHER_CHOICE, label: 'Other…' });
      for (const option of options) {
        const input = el('input', { attrs: { type: multi ? 'checkbox' : 'radio', name: `q-${field.name}` } });
        input.checked = multi ? chosen().includes(option.value) : raw === option.value;
        input.addEventListener('change', () => {
          if (!multi) return set(option.value);
          const next = chosen().filter((v) => v !== option.value);
          set(input.checked ? [...next, option.value] : next);
        });
        block.append(el('label', { className: 'choice' }, input, document.createTextNode(option.label)));
        const detail = optionDetail(option);
        if (detail) block.append(detail);
      }
      if (other) {
        const text = el('input', { attrs: { 'aria-label': other.label, placeholder: other.label } });
        const otherRaw = raws[other.name];
        text.value = typeof otherRaw === 'string' ? otherRaw : '';
        text.addEventListener('input', () => (raws[other.name] = text.value));
        block.append(text);
        const otherError = el('span', { className: 'field-error' });
        errors.set(other.name, otherError);
        block.append(otherError);
      }
      break;
    }
  }
  block.append(error);
  return block;
}

/** A small whole-number range: a row of radio buttons, stars for a rating. */
function scaleRow(field: NumberField, raw: RawValue | undefined, set: (value: RawValue) => void): HTMLElement {
  const scale = numberScale(field)!;
  const row = el('div', { className: scale.stars ? 'scale stars' : 'scale', attrs: { role: 'radiogroup', 'aria-label': field.label } });
  let value = typeof raw === 'string' ? raw : '';
  const radios: HTMLInputElement[] = [];
  const paint = (): void => {
    for (const radio of radios) {
      radio.checked = radio.value === value;
      const filled = value !== '' && Number(radio.value) <= Number(value);
      if (scale.stars && radio.value !== '0') radio.nextElementSibling!.textContent = filled ? '★' : '☆';
    }
  };
  for (const n of scale.values) {
    const radio = el('input', { className: 'visually-hidden', attrs: { type: 'radio', name: `q-${field.name}`, value: String(n) } });
    radio.setAttribute('aria-label', scale.stars ? (n === 1 ? '1 star' : `${n} stars`) : String(n));
    radio.addEventListener('change', () => {
      value = radio.value;
      set(value);
      paint();
    });
    radios.push(radio);
    row.append(
      el(
        'label',
        { className: 'scale-option' },
        radio,
        el('span', { className: 'scale-mark', text: String(n), attrs: { 'aria-hidden': 'true' } }),
      ),
    );
  }
  paint();
  return row;
}

/** An option's description and preview, under it. */
function optionDetail(option: ChoiceOption): HTMLElement | undefined {
  if (!option.description && !option.preview) return undefined;
  const detail = el('div', { className: 'option-detail' });
  if (option.description) detail.append(el('p', { className: 'muted', text: option.description }));
  if (option.preview) detail.append(el('pre', { className: 'option-preview', text: option.preview }));
  return detail;
}

// Redraws keep what was typed (drafts); a failed load shows pairing.
void start().catch(() => showPairing(codeFromFragment()));
