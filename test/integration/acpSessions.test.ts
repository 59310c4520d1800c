/**
 * What a session offers beyond prompts, against the fixture agent as a real
 * process: its modes (session/set_mode, and the agent switching itself), its
 * slash commands, listing past sessions page by page, reopening one with
 * session/load or session/resume in a new process, session/close, and logout.
 * Assertions are on what the agent recorded.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { closeSession, listSessions, logout, offersOf, reopenSession } from '../../src/acp/agentSessions';
import { AuthRequiredError, type AcpConnection } from '../../src/acp/connection';
import { SessionControls } from '../../src/acp/sessionControls';
import { Transcript } from '../../src/acp/transcript';
import { fixtureAgent, fixtureConnection, tempDir } from '../support/acpFixture';
import { newRecordFile, readRecords, waitForRecords } from '../support/records';
import { waitUntil } from '../support/waitUntil';

const workspace = tempDir('elicit-acp-sessions-ws-');
const other = tempDir('elicit-acp-sessions-other-');

async function started(name: string, env: Record<string, string>): Promise<AcpConnection> {
  const connection = fixtureConnection(fixtureAgent(name, env), workspace);
  await connection.start();
  return connection;
}

describe('Session modes and commands', () => {
  it('shows the modes session/new returns, switches with session/set_mode, follows the agent, and keeps its commands', async () => {
    const record = newRecordFile();
    const connection = await started('moody', { RECORD_FILE: record, MODES: '1' });
    const controls = new SessionControls();
    connection.onEvent((e) => e.kind === 'update' && controls.apply(e.update));
    const opened = await connection.newSession(workspace);
    controls.opened(opened);
    assert.deepEqual(controls.modes, {
      current: 'ask',
      available: [
        { id: 'ask', name: 'Ask', description: 'Asks before every change' },
        { id: 'code', name: 'Code', description: 'Edits files without asking' },
        { id: 'architect', name: 'Architect', description: 'Plans only (this agent refuses to switch to it)' },
      ],
    });
    await waitUntil(() => controls.commands.length > 0, 'the agent to send its commands');
    assert.deepEqual(controls.commands, [
      { name: 'review', description: 'Review the current changes', hint: 'what to focus on' },
      { name: 'init', description: 'Create an AGENTS.md file' },
      { name: 'compact', description: 'Summarize the conversation' },
    ]);

    const { sessionId } = opened;
    await connection.request('session/set_mode', { sessionId, modeId: 'code' });
    await assert.rejects(
      connection.request('session/set_mode', { sessionId, modeId: 'architect' }),
      /Internal error: the Architect mode is not available in this workspace/,
    );
    assert.deepEqual(
      readRecords(record)
        .filter((r) => r.kind === 'set-mode')
        .map((r) => [r.sessionId, r.modeId]),
      [
        [sessionId, 'code'],
        [sessionId, 'architect'],
      ],
    );
    // The agent switching by itself reaches the controls before the turn ends.
    await connection.prompt(sessionId, 'mode architect');
    assert.equal(controls.modes?.current, 'architect');
    // A slash command is sent as the prompt text.
    await connection.prompt(sessionId, '/review the tests');
    assert.equal(
      readRecords(record)
        .filter((r) => r.kind === 'prompt')
        .at(-1)!.text,
      '/review the tests',
    );
  });

  it('an agent without modes or commands has none', async () => {
    const connection = await started('plain', { RECORD_FILE: newRecordFile() });
    const controls = new SessionControls();
    controls.opened(await connection.newSession(workspace));
    assert.equal(controls.modes, undefined);
    assert.deepEqual(controls.commands, []);
    assert.deepEqual(offersOf(connection.initializeResponse), { list: false, load: false, resume: false, close: false, logout: false });
  });
});

describe('Past sessions: list, resume, close', () => {
  it('lists sessions page by page with title, folder and date, newest first', async () => {
    const record = newRecordFile();
    const store = tempDir('elicit-acp-store-');
    const connection = await started('lister', { RECORD_FILE: record, SESSION_STORE: store });
    assert.deepEqual(offersOf(connection.initializeResponse), { list: true, load: true, resume: true, close: true, logout: false });
    const ids: string[] = [];
    for (const [cwd, text] of [
      [workspace, 'echo first'],
      [other, 'echo second'],
      [workspace, 'echo third'],
    ] as const) {
      const { sessionId } = await connection.newSession(cwd);
      await connection.prompt(sessionId, text);
      ids.push(sessionId);
      await new Promise((r) => setTimeout(r, 15)); // distinct updatedAt
    }
    const sessions = await listSessions(connection);
    assert.deepEqual(
      sessions.map((s) => [s.sessionId, s.cwd, s.title]),
      [
        [ids[2], workspace, 'echo third'],
        [ids[1], other, 'echo second'],
        [ids[0], workspace, 'echo first'],
      ],
    );
    assert.ok(sessions.every((s) => !Number.isNaN(Date.parse(s.updatedAt!))));
    assert.deepEqual(
      readRecords(record)
        .filter((r) => r.kind === 'list')
        .map((r) => r.cursor),
      [null, '2'],
      'two pages',
    );
    const here = await listSessions(connection, workspace);
    assert.deepEqual(
      here.map((s) => s.sessionId),
      [ids[2], ids[0]],
    );
  });

  it('reopens with session/load (replayed) or, without it, session/resume in a new process; closes on request', async () => {
    const record = newRecordFile();
    const store = tempDir('elicit-acp-store-');
    const first = await started('resumer', { RECORD_FILE: record, SESSION_STORE: store });
    const { sessionId } = await first.newSession(workspace);
    await first.prompt(sessionId, 'echo remember me');
    assert.equal(await closeSession(first, sessionId), true);
    await first.stop();
    assert.deepEqual(
      readRecords(record)
        .filter((r) => r.kind === 'close')
        .map((r) => r.sessionId),
      [sessionId],
    );

    const loader = await started('resumer', { RECORD_FILE: record, SESSION_STORE: store });
    const transcript = new Transcript(workspace);
    loader.onEvent((e) => transcript.apply(e));
    const loaded = await reopenSession(loader, sessionId, workspace);
    assert.equal(loaded.replayed, true);
    assert.ok(transcript.all().some((i) => i.kind === 'agent' && i.text === 'remember me'));
    await loader.stop();

    const resumer = await started('resumer', { RECORD_FILE: record, SESSION_STORE: store, NO_LOAD: '1' });
    const resumed = await reopenSession(resumer, sessionId, workspace);
    assert.equal(resumed.replayed, false);
    assert.equal(await resumer.prompt(sessionId, 'echo and on'), 'end_turn');
    const kinds = readRecords(record).filter((r) => ['load', 'resume', 'prompt'].includes(String(r.kind)));
    assert.deepEqual(
      kinds.map((r) => [r.kind, r.sessionId]),
      [
        ['prompt', sessionId],
        ['load', sessionId],
        ['resume', sessionId],
        ['prompt', sessionId],
      ],
    );
    await assert.rejects(reopenSession(resumer, 'session-unknown', workspace), /not found/i);
  });

  it('closing is skipped for an agent that does not offer it', async () => {
    const record = newRecordFile();
    const connection = await started('no-close', { RECORD_FILE: record });
    const { sessionId } = await connection.newSession(workspace);
    assert.equal(await closeSession(connection, sessionId), false);
    assert.ok(!readRecords(record).some((r) => r.kind === 'close'));
  });
});

describe('Signing out', () => {
  it('logout signs the agent out: the next session asks to sign in again', async () => {
    const record = newRecordFile();
    const connection = await started('leaving', { RECORD_FILE: record, REQUIRE_AUTH: '1' });
    assert.equal(offersOf(connection.initializeResponse).logout, true);
    await connection.authenticate('fixture-token');
    await connection.newSession(workspace);
    assert.equal(await logout(connection), true);
    await assert.rejects(connection.newSession(workspace), AuthRequiredError);
    await waitForRecords(record, 1, (r) => r.kind === 'logout');
    assert.deepEqual(
      readRecords(record).map((r) => r.kind),
      ['initialize', 'authenticate', 'session', 'logout', 'auth-required'],
    );
  });

  it('logout is not sent to an agent that does not offer it', async () => {
    const record = newRecordFile();
    const connection = await started('stays', { RECORD_FILE: record });
    assert.equal(await logout(connection), false);
    assert.ok(!readRecords(record).some((r) => r.kind === 'logout'));
  });
});
