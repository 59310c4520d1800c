/**
 * A 2025-11-25 Streamable HTTP server that asks on its own (the soak's asker, test/soak/soak-server.mjs
 * --http, official v2 server package), reached through the soak's proxy (test/soak/dropProxy.ts),
 * while the network fails the ways the soak found (issue #37): the network down for a few seconds,
 * an answer's POST cut before it arrives, the server restarted. McpConnection with the real broker
 * and the crash recovery the extension uses; every question the server asked must reach its fate
 * (as the server logs it) with the answer given for it.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import type { Question } from '../../src/core/broker/broker';
import type { ElicitResult } from '../../src/core/request';
import type { McpConnection } from '../../src/mcp/connection';
import { CrashRecovery } from '../../src/mcp/crashRecovery';
import { HttpAsker } from '../soak/httpAsker';
import { readSoakLog } from '../soak/soakLog';
import { connectScripted, httpServer, repoRoot, waitFor } from '../support/mcpServers';

const script = path.join(repoRoot, 'test', 'soak', 'soak-server.mjs');

interface Logged {
  event: string;
  at: number;
  question?: string;
  fate?: string;
  content?: Record<string, unknown>;
  asker: string;
}

describe('a 2025 Streamable HTTP session through a failing network', { timeout: 240_000 }, () => {
  let dir: string;
  let asker: HttpAsker;
  let connection: McpConnection;
  let recovery: CrashRecovery;
  let logs: string[];
  /** Called as each question is answered, before the answer is sent. */
  let beforeAnswer: () => void = () => undefined;

  const opened: McpConnection[] = [];

  const logged = (): Logged[] => readSoakLog<Logged>(path.join(dir, 'log.jsonl'));
  const answeredCount = (): number => logged().filter((e) => e.event === 'fate' && e.fate === 'answered').length;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-http-session-'));
    asker = await HttpAsker.start('h1', script, {
      SOAK_LOG: path.join(dir, 'log.jsonl'),
      SOAK_STOP: path.join(dir, 'stop'),
      SOAK_MEAN_MS: '150',
      SOAK_OPEN: '1',
      SOAK_WITHDRAW: '0',
    });
    beforeAnswer = () => undefined;
    const answer = (q: Question): ElicitResult => {
      const token = /soak token (\S+)/.exec(q.request.mode === 'form' ? q.request.message : '')?.[1];
      beforeAnswer();
      return { action: 'accept', content: { token: token ?? '', pick: 'b', n: 4 } };
    };
    const connected = connectScripted(httpServer('h1', asker.url), answer, opened);
    connection = connected.connection;
    logs = connected.logs;
    recovery = new CrashRecovery(connection, { maxRestarts: 5, baseDelayMs: 100, maxDelayMs: 1_000, stableMs: 60_000 });
    await connection.connect();
  });

  afterEach(async () => {
    recovery.dispose();
    await connection.stop();
    await asker.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  after(async () => {
    await Promise.all(opened.map((c) => c.stop()));
  });

  /**
   * Stops the server asking, waits for every question to end, and checks each fate: answered with
   * its own token, or (`ended`) reported to the server as an error because Elicit ended its session.
   */
  async function everyQuestionAnswered(ended: (question: string) => boolean = () => false): Promise<void> {
    fs.writeFileSync(path.join(dir, 'stop'), '');
    const open = (): string[] => {
      const ended = new Set(logged().flatMap((e) => (e.event === 'fate' ? [e.question] : [])));
      return logged().flatMap((e) => (e.event === 'asked' && !ended.has(e.question) ? [e.question!] : []));
    };
    await waitFor(() => open().length === 0, `the open questions (${open().join(', ')}) to end`, 15_000);
    const fates = logged().filter((e) => e.event === 'fate');
    assert.ok(fates.length > 0);
    for (const fate of fates) {
      if (fate.fate === 'error' && ended(fate.question!)) continue;
      assert.equal(fate.fate, 'answered', JSON.stringify(fate));
      assert.deepEqual(fate.content, { token: fate.question, pick: 'b', n: 4 });
    }
  }

  it('opens a new session when the stream of questions could not be opened in the first place', async () => {
    // The SDK opens the GET stream once, after `initialized`, and never again if that request fails.
    await connection.stop();
    // For 3 s: a single cut GET on a kept-alive socket is tried again by fetch itself.
    asker.proxy.cutGets(3_000);
    await connection.connect();
    await waitFor(() => logs.some((l) => l.includes('could not be opened again')), 'the streamless session to be ended', 70_000);
    // From here on (with the reconnection's second or so to spare), every question reaches Elicit.
    const lostAt = Date.now() + 2_000;
    await waitFor(
      () => logged().some((e) => e.event === 'fate' && e.fate === 'answered' && e.at > lostAt),
      'a question of the new session answered',
      20_000,
    );
    const askedAt = new Map(logged().flatMap((e) => (e.event === 'asked' ? [[e.question, e.at] as const] : [])));
    // Stopping the server ended its session (DELETE), and so did the session left without its stream:
    // what they had asked may end with an error. What the new session asks is answered.
    await everyQuestionAnswered((question) => (askedAt.get(question) ?? Infinity) < lostAt);
  });

  it('resumes the stream of questions after the network was down for 4 s, on the same session', async () => {
    await waitFor(() => answeredCount() >= 3, 'three questions answered');
    asker.proxy.down(4_000);
    const before = answeredCount();
    await waitFor(() => answeredCount() >= before + 5, 'five more answered after the network came back', 30_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${logs.join('\n')}\n${JSON.stringify(logged().slice(-6))}`);
    });
    assert.equal(connection.status, 'running');
    assert.ok(!logs.some((l) => l.includes('starting a new session')), logs.join('\n'));
    await everyQuestionAnswered();
  });

  it('sends an answer again when its POST was cut before it reached the server', async () => {
    await waitFor(() => answeredCount() >= 2, 'two questions answered');
    let cuts = 0;
    beforeAnswer = () => {
      if (cuts++ < 3) asker.proxy.cutNextRequest(false);
    };
    await waitFor(() => cuts > 3 && answeredCount() >= 8, 'answers through three cut POSTs', 30_000);
    await everyQuestionAnswered();
  });

  it('delivers answers given while the network is down, once it is back (the soak: two answers never arrived)', async () => {
    await waitFor(() => answeredCount() >= 2, 'two questions answered');
    let downs = 0;
    beforeAnswer = () => {
      // The person answers just as the network goes: the answer waits for it to come back.
      if (downs++ === 0) asker.proxy.down(5_000);
    };
    const before = answeredCount();
    await waitFor(() => downs > 0 && answeredCount() >= before + 5, 'five more answered after the network came back', 40_000).catch(
      (error: Error) => {
        throw new Error(`${error.message}\n${logs.join('\n')}\n${JSON.stringify(logged().slice(-8))}`);
      },
    );
    // The server's log says the answer was sent again, and that the session went on.
    assert.ok(
      logs.some((l) => l.includes('h1: a message got no reply from the server; sending it again')),
      logs.join('\n'),
    );
    assert.ok(!logs.some((l) => l.includes('starting a new session')), logs.join('\n'));
    await everyQuestionAnswered();
  });

  it('ends a session given up while the network is down once it is back: the answer given there reaches its server', async () => {
    await waitFor(() => answeredCount() >= 2, 'two questions answered');
    let answered: string | undefined;
    beforeAnswer = () => {
      if (answered !== undefined) return;
      // Longer than an answer is sent again (about 28 s) and the stream of questions resumed (about 33 s).
      asker.proxy.down(36_000);
      answered = logged()
        .filter((e) => e.event === 'asked')
        .at(-1)?.question;
    };
    await waitFor(() => logs.some((l) => l.includes('starting a new session')), 'the session to be given up', 60_000);
    // The server still waits for that answer: it arrives once the network is back, before the old session's DELETE.
    await waitFor(() => logged().some((e) => e.event === 'fate' && e.question === answered), `the fate of ${answered}`, 30_000).catch(
      (error: Error) => {
        throw new Error(`${error.message}\n${logs.join('\n')}\n${JSON.stringify(logged().slice(-6))}`);
      },
    );
    await everyQuestionAnswered();
  });

  it('opens a new session when the server restarted and lost the old one (404), and answers what it asks then', async () => {
    await waitFor(() => answeredCount() >= 2, 'two questions answered');
    await asker.restart();
    const pid = asker.pid!;
    await waitFor(
      () => logged().some((e) => e.event === 'fate' && e.fate === 'answered' && e.question?.startsWith(`h1-${pid}-`)),
      'a question of the restarted server answered',
      30_000,
    );
    assert.ok(
      logs.some((l) => l.includes('no longer knows this session') || l.includes('could not be resumed')),
      logs.join('\n'),
    );
    // What the killed process asked went with it; the restarted one's questions are all answered.
    fs.writeFileSync(path.join(dir, 'stop'), '');
    const ended = (): Set<string | undefined> => new Set(logged().flatMap((e) => (e.event === 'fate' ? [e.question] : [])));
    await waitFor(
      () => logged().every((e) => e.event !== 'asked' || !e.question!.startsWith(`h1-${pid}-`) || ended().has(e.question)),
      "the restarted server's questions to end",
      15_000,
    );
    for (const fate of logged().filter((e) => e.event === 'fate')) assert.equal(fate.fate, 'answered', JSON.stringify(fate));
  });
});
