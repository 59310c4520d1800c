/**
 * The Get Started walkthrough checks its steps off by what the person did, not
 * only by the buttons in it: a server connected (step 1), a question answered
 * (step 3), one put off with Later (step 4), a secret kept (step 5). Each sets a
 * context key once, read by the steps' `onContext` completion events
 * (package.json); VS Code remembers a step once it is checked off.
 *
 * VS Code creates its walkthrough service only when the Welcome page first
 * opens: a command run or a context key set before then is never heard, and a
 * context key already true when it starts does not check its step either. So
 * each step is also checked off directly (`welcome.markStepComplete`), which
 * creates the service if need be.
 */
import * as vscode from 'vscode';
import { asksOnBehalf } from '../core/request';
import type { Services } from './services';

export const WALKTHROUGH_CONTEXT = {
  serverConnected: 'elicit.walkthrough.serverConnected',
  answered: 'elicit.walkthrough.answered',
  putOff: 'elicit.walkthrough.putOff',
  secretKept: 'elicit.walkthrough.secretKept',
} as const;

/** The steps' ids in package.json's `gettingStarted` walkthrough. */
type WalkthroughStep = 'servers' | 'runTool' | 'answer' | 'pending' | 'secrets';
const STEP_OF: Record<string, WalkthroughStep> = {
  [WALKTHROUGH_CONTEXT.serverConnected]: 'servers',
  [WALKTHROUGH_CONTEXT.answered]: 'answer',
  [WALKTHROUGH_CONTEXT.putOff]: 'pending',
  [WALKTHROUGH_CONTEXT.secretKept]: 'secrets',
};
const EXTENSION_ID = 'elicit-dev.elicit';

/** Checks a walkthrough step off, whether or not VS Code's walkthrough service has started yet. */
export function checkOffStep(step: WalkthroughStep): void {
  void Promise.resolve(vscode.commands.executeCommand('welcome.markStepComplete', `${EXTENSION_ID}#gettingStarted#${step}`)).catch(
    () => undefined,
  );
}

export function trackWalkthrough(services: Pick<Services, 'broker' | 'vault' | 'registry'>): vscode.Disposable {
  const set = new Set<string>();
  const mark = (key: string): void => {
    if (set.has(key)) return;
    set.add(key);
    void vscode.commands.executeCommand('setContext', key, true);
    checkOffStep(STEP_OF[key]!);
  };
  const { broker, vault, registry } = services;
  const secrets = (): void => {
    if (!set.has(WALKTHROUGH_CONTEXT.secretKept) && vault.list().length > 0) mark(WALKTHROUGH_CONTEXT.secretKept);
  };
  secrets();
  const listeners = [
    broker.onDidAnswer(({ question, result, reason }) => {
      // The person answered (not a timeout, not the asker giving up), and not Elicit's own question for a tool's arguments.
      if (reason !== undefined || asksOnBehalf(question.request)) return;
      if (result.action === 'accept' || result.action === 'decline') mark(WALKTHROUGH_CONTEXT.answered);
    }),
    // Both fire on every question and server change: once their step is checked off they look no further
    // (listing every pending question on each change made long blocks under many servers).
    broker.onDidChange(() => {
      if (set.has(WALKTHROUGH_CONTEXT.putOff)) return;
      if (broker.pending().some((q) => q.state === 'later')) mark(WALKTHROUGH_CONTEXT.putOff);
    }),
    vault.onDidChange(secrets),
    registry.onDidChange(() => {
      if (set.has(WALKTHROUGH_CONTEXT.serverConnected)) return;
      void registry.servers().then((servers) => {
        if (servers.some((s) => s.status === 'running')) mark(WALKTHROUGH_CONTEXT.serverConnected);
      });
    }),
  ];
  return { dispose: () => listeners.forEach((l) => l.dispose()) };
}
