/**
 * A location question (core/askUser/locationQuestions.ts) in the editor: it is
 * open to the paired phone, which alone can read a position, and meanwhile a
 * quick pick says so, offers to pair a phone, and lets the person deny it or
 * type a place instead. Whichever answers first ends it. It runs in the
 * broker's one-at-a-time native queue, as the other prompts do; the history
 * gets only the core's summary (never the position, never a typed place).
 */
import * as vscode from 'vscode';
import type { Broker } from '../core/broker/broker';
import { inertText, oneLine } from '../core/display';
import {
  LOW_ACCURACY_STEP_DEGREES,
  MAX_PLACE_CHARS,
  locationHistory,
  placeProblem,
  type LocationAccess,
  type LocationReply,
  type LocationRequest,
} from '../core/askUser/locationQuestions';
import { pickOnce } from './pickOnce';

type Choice = 'pair' | 'place' | 'deny';

interface ChoiceItem extends vscode.QuickPickItem {
  choice: Choice;
}

const CLOSED: LocationReply = { outcome: 'closed' };

export function locationAccess(broker: Broker): LocationAccess {
  return { ask: (request, signal) => askLocation(broker, request, signal ?? new AbortController().signal) };
}

async function askLocation(broker: Broker, request: LocationRequest, signal: AbortSignal): Promise<LocationReply> {
  const open = broker.prompts.open({ kind: 'location', asker: request.asker, reason: request.reason, accuracy: request.accuracy });
  const ended = new AbortController();
  const endWithAsker = (): void => ended.abort();
  signal.addEventListener('abort', endWithAsker, { once: true });
  if (signal.aborted) ended.abort();
  let fromPhone: (LocationReply & { device: string }) | undefined;
  void open.answered.then(({ location, device }) => {
    fromPhone = { ...location, device };
    ended.abort();
  });
  let reply: LocationReply = CLOSED;
  try {
    const inEditor = await broker.exclusive((turn) => answerInEditor(request, turn), ended.signal, CLOSED);
    reply = fromPhone ?? (signal.aborted ? CLOSED : inEditor);
    if (fromPhone) {
      void vscode.window.setStatusBarMessage(
        inertText(vscode.l10n.t('{0}: location question answered on {1}', oneLine(request.asker.name, 80), fromPhone.device)),
        10_000,
      );
    }
    return reply;
  } finally {
    signal.removeEventListener('abort', endWithAsker);
    const { action, summary } = locationHistory(reply, request.accuracy);
    open.close({ action, summary, ...(fromPhone ? { device: fromPhone.device } : {}) });
  }
}

/**
 * The pick until the person denies, types a place, or closes it. Pair a Phone opens the Pair a Device tab
 * and waits under a notification, which covers neither the tab nor its code; its Cancel shows the pick again.
 */
async function answerInEditor(request: LocationRequest, signal: AbortSignal): Promise<LocationReply> {
  for (;;) {
    const choice = await pickOnce<ChoiceItem, Choice | undefined>(locationPick(request), signal, (item) => item.choice, undefined);
    if (signal.aborted || choice === undefined) return CLOSED;
    if (choice === 'deny') return { outcome: 'denied', by: 'person' };
    if (choice === 'pair') {
      await vscode.commands.executeCommand('elicit.answerOnDevice');
      await waitForPhone(request, signal);
      continue;
    }
    const place = await typePlace(request, signal);
    if (place !== undefined) return { outcome: 'place', place };
  }
}

function locationPick(request: LocationRequest): vscode.QuickPick<ChoiceItem> {
  const pick = vscode.window.createQuickPick<ChoiceItem>();
  const who = oneLine(request.asker.name, 80);
  pick.title = inertText(vscode.l10n.t('{0} asks for your location · {1}', who, oneLine(request.reason, 200)));
  // The placeholders are Elicit's own numbers; inertText all the same, as for every surface with one.
  pick.placeholder = inertText(
    request.accuracy === 'low'
      ? vscode.l10n.t(
          'Share it from your paired phone (Elicit’s page there; rounded to {0}°, about 1 km), or choose here. Escape cancels.',
          LOW_ACCURACY_STEP_DEGREES,
        )
      : vscode.l10n.t('Share it from your paired phone (Elicit’s page there, as precise as it can tell), or choose here. Escape cancels.'),
  );
  pick.items = [
    {
      label: `$(device-mobile) ${vscode.l10n.t('Pair a Phone…')}`,
      description: vscode.l10n.t('only a paired phone can share a position'),
      choice: 'pair',
    },
    {
      label: `$(edit) ${vscode.l10n.t('Type a Place Instead…')}`,
      description: vscode.l10n.t('sent as text, not a position'),
      choice: 'place',
    },
    { label: `$(circle-slash) ${vscode.l10n.t('Deny')}`, description: vscode.l10n.t('the asker is told you denied it'), choice: 'deny' },
  ];
  pick.ignoreFocusOut = true;
  return pick;
}

/** Until the phone answers (the turn ends) or the person cancels the notification. */
async function waitForPhone(request: LocationRequest, signal: AbortSignal): Promise<void> {
  const title = inertText(
    vscode.l10n.t(
      '{0} asks for your location: share it on your phone once it is paired (Cancel goes back to the question).',
      oneLine(request.asker.name, 80),
    ),
  );
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    (_progress, token) =>
      new Promise<void>((resolve) => {
        const done = (): void => {
          cancelled.dispose();
          signal.removeEventListener('abort', done);
          resolve();
        };
        const cancelled = token.onCancellationRequested(done);
        signal.addEventListener('abort', done, { once: true });
        if (signal.aborted) done();
      }),
  );
}

/** A place typed instead; undefined when the person goes back (Escape). */
async function typePlace(request: LocationRequest, signal: AbortSignal): Promise<string | undefined> {
  const cancel = new vscode.CancellationTokenSource();
  const onAbort = (): void => cancel.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const place = await vscode.window.showInputBox(
      {
        title: inertText(vscode.l10n.t('{0} asks for your location', oneLine(request.asker.name, 80))),
        prompt: inertText(
          vscode.l10n.t('A place to send instead of your position: a city, an address (at most {0} characters).', MAX_PLACE_CHARS),
        ),
        ignoreFocusOut: true,
        validateInput: (text) =>
          placeProblem(text) === undefined ? undefined : vscode.l10n.t('Type a place, at most {0} characters.', MAX_PLACE_CHARS),
      },
      cancel.token,
    );
    return signal.aborted || place === undefined ? undefined : place;
  } finally {
    signal.removeEventListener('abort', onAbort);
    cancel.dispose();
  }
}
