/**
 * An agent's terminal sign-in opens a terminal only after the person agreed to the command line
 * and variables shown (issue #21, finding 8), through the VS Code stand-in.
 */
import './vscodeStandIn/install';
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { standIn } from './vscodeStandIn/vscode';
import { runTerminalLogin } from '../../src/vscode/acp/terminalLogin';
import type { TerminalLogin } from '../../src/acp/signIn';

const login: TerminalLogin = {
  agent: 'claude [x](command:workbench.action.terminal.sendSequence)',
  method: 'Log in',
  command: '/usr/bin/claude',
  args: ['--login'],
  env: { FIXTURE_LOGIN: 'terminal', API_TOKEN: 'hunter2' },
  methodEnv: { FIXTURE_LOGIN: 'terminal', API_TOKEN: 'hunter2' },
};

describe('runTerminalLogin', () => {
  afterEach(() => standIn.reset());

  it('opens no terminal when the person does not agree', async () => {
    standIn.warningAnswer = undefined;
    assert.equal(await runTerminalLogin(login, '/work/app', new AbortController().signal), 'declined');
    assert.equal(standIn.terminals.length, 0);
    const [[message, detail]] = standIn.warnings as [[string, string | undefined]];
    assert.ok(!message.includes('](command:'), `inert: ${message}`);
    assert.match(detail ?? '', /Command: \/usr\/bin\/claude --login/);
    assert.match(detail ?? '', /In: \/work\/app/);
    assert.match(detail ?? '', /FIXTURE_LOGIN=terminal/);
    assert.ok(!(detail ?? '').includes('hunter2'), 'a secret-looking value is masked');
  });

  it('opens the terminal with the command and its environment once agreed, and resolves with its exit code', async () => {
    standIn.warningAnswer = 'Open Terminal';
    const finished = runTerminalLogin(login, '/work/app', new AbortController().signal);
    await new Promise((resolve) => setImmediate(resolve));
    const [terminal] = standIn.terminals;
    assert.ok(terminal, 'a terminal opened');
    assert.deepEqual(
      { shellPath: terminal.creationOptions.shellPath, shellArgs: terminal.creationOptions.shellArgs, env: terminal.creationOptions.env },
      { shellPath: '/usr/bin/claude', shellArgs: ['--login'], env: login.env },
    );
    terminal.close(0);
    assert.equal(await finished, 0);
  });
});
