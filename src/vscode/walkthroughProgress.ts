/**
 * The Get Started walkthrough checks its steps off by what the person did, not
 * only by the buttons in it: a server connected (step 1), a question answered
 * (step 3), one put off with Later (step 4), a secret kept (step 5). Each sets a
 * context key once, read by the steps' `onContext` completion events
 * (package.json); VS Code remembers a step once it is checked off.
 */
import * as vscode from 'vscode';
import { asksOnBehalf } from '../core/broker/request';
import type { Services } from './services';

export const WALKTHROUGH_CONTEXT = {
  serverConnected: 'elicit.walkthrough.serverConnected',
  answered: 'elicit.walkthrough.answered',
  putOff: 'elicit.walkthrough.putOff',
  secretKept: 'elicit.walkthrough.secretKept',
} as const;

export function trackWalkthrough(services: Pick<Services, 'broker' | 'vault' | 'registry'>): vscode.Disposable {
  const set = new Set<string>();
  const mark = (key: string): void => {
    if (set.has(key)) return;
    set.add(key);
    void vscode.commands.executeCommand('setContext', key, true);
  };
  const { broker, vault, registry } = services;
  const secrets = (): void => {
    if (vault.list().length > 0) mark(WALKTHROUGH_CONTEXT.secretKept);
  };
  secrets();
  const listeners = [
    broker.onDidAnswer(({ question, result, reason }) => {
      // The person answered (not a timeout, not the asker giving up), and not Elicit's own question for a tool's arguments.
      if (reason !== undefined || asksOnBehalf(question.request)) return;
      if (result.action === 'accept' || result.action === 'decline') mark(WALKTHROUGH_CONTEXT.answered);
    }),
    broker.onDidChange(() => {
      if (broker.pending().some((q) => q.state === 'later')) mark(WALKTHROUGH_CONTEXT.putOff);
    }),
    vault.onDidChange(secrets),
    registry.onDidChange(() => {
      void registry.servers().then((servers) => {
        if (servers.some((s) => s.status === 'running')) mark(WALKTHROUGH_CONTEXT.serverConnected);
      });
    }),
  ];
  return { dispose: () => listeners.forEach((l) => l.dispose()) };
}
