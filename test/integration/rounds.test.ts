/**
 * MCP 2026-07-28 multi round-trip requests against a fixture written with the
 * official v2 server package (test/fixtures/mrtr-server.mjs), through
 * McpConnection and the real broker with a scripted answerer, over stdio and
 * Streamable HTTP: a four-question round shown as one question, a two-round
 * chain with requestState echoed byte for byte, a link in a round, roots
 * answered without asking, sampling refused with a sentence, the round cap,
 * prompts and resources with rounds, a modern-only server, and a round kept
 * across a reload answered only on the server that asked it (never on another
 * server that now has its name). The assertions are on what the server recorded.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { Question } from '../../src/core/broker/broker';
import type { ElicitResult } from '../../src/core/request';
import type { ServerConfig } from '../../src/core/mcpConfig/serverConfig';
import { McpConnection } from '../../src/mcp/connection';
import { MAX_ROUNDS } from '../../src/mcp/rounds';
import { KeptAcrossReload } from '../support/keptAcrossReload';
import { fixture, httpServer, startHttpFixture, stdioServer, textOf } from '../support/mcpServers';
import { newRecordFile, readRecords } from '../support/records';
import { answerFields, scriptedBroker, type Script } from '../support/scriptedRenderer';

const serverFile = fixture('mrtr-server.mjs');
const opened: McpConnection[] = [];
const children: ChildProcess[] = [];
after(async () => {
  await Promise.all(opened.map((c) => c.stop()));
  for (const child of children) child.kill();
});

function connect(config: ServerConfig, script: Script): { connection: McpConnection; seen: Question[]; logs: string[] } {
  const { broker, renderer } = scriptedBroker(script);
  const logs: string[] = [];
  const connection = new McpConnection(config, {
    ask: (r) => broker.ask(r),
    log: (l) => logs.push(l),
    roots: () => [{ uri: 'file:///work/song-project', name: 'song-project' }],
  });
  opened.push(connection);
  return { connection, seen: renderer.seen, logs };
}

const answerGroup = answerFields;

async function startHttp(record: string, extraEnv: Record<string, string> = {}): Promise<string> {
  const server = await startHttpFixture('mrtr-server.mjs', { RECORD_FILE: record, ...extraEnv });
  children.push(server.process);
  return server.url;
}

for (const transport of ['stdio', 'Streamable HTTP'] as const) {
  describe(`MCP 2026-07-28 rounds over ${transport}`, () => {
    const record = newRecordFile();
    let config: ServerConfig;
    before(async () => {
      config =
        transport === 'stdio' ? stdioServer('songs', serverFile, { RECORD_FILE: record }) : httpServer('songs', await startHttp(record));
    });
    const legs = (tool: string): Array<Record<string, unknown>> => readRecords(record).filter((r) => r.tool === tool);

    it('speaks 2026-07-28 with the server', async () => {
      const { connection, logs } = connect(config, () => assert.fail('nothing is asked'));
      await connection.listTools();
      assert.equal(connection.protocolVersion, '2026-07-28');
      assert.ok(logs.includes('[elicit] songs: connected, MCP 2026-07-28'), JSON.stringify(logs));
    });

    it('shows a four-question round as ONE question and sends the four answers in one retry', async () => {
      const { connection, seen } = connect(config, (q) => answerGroup(q, { name: 'Amber', key: 'Am', bpm: 96, loop: true }));
      const result = await connection.callTool('song_sketch', {});
      assert.equal(textOf(result), 'Sketched "Amber" in Am at 96 BPM, looped');
      assert.equal(seen.length, 1, 'one question for the whole round');
      const question = seen[0]!;
      assert.equal(question.request.mode, 'group');
      assert.equal(question.presentation, 'form', 'four fields are a form');
      assert.deepEqual(
        question.form!.sections!.map((s) => [s.key, s.message]),
        [
          ['name', 'What is the song called?'],
          ['key', 'Which key?'],
          ['bpm', 'How fast?'],
          ['loop', 'Loop the sketch?'],
        ],
      );
      const nameField = question.form!.fields.find((f) => f.property === 'name');
      assert.equal(nameField?.kind === 'text' && nameField.pattern, '^[A-Z]', 'pattern reaches Elicit unstripped');
      assert.deepEqual(question.request.asker, { kind: 'mcp', name: 'songs', detail: 'tool song_sketch' });
      const [first, retry] = legs('song_sketch').slice(-2);
      assert.equal(first!.inputResponses, undefined);
      assert.deepEqual(retry!.inputResponses, {
        name: { action: 'accept', content: { name: 'Amber' } },
        key: { action: 'accept', content: { key: 'Am' } },
        bpm: { action: 'accept', content: { bpm: 96 } },
        loop: { action: 'accept', content: { loop: true } },
      });
    });

    it('declines every question of a round with one Decline', async () => {
      const { connection } = connect(config, () => ({ action: 'decline' }));
      const result = await connection.callTool('song_sketch', {});
      assert.equal(textOf(result), 'Not sketched: decline, decline, decline, decline');
      const retry = legs('song_sketch').at(-1)!;
      assert.deepEqual(Object.values(retry.inputResponses as object), Array(4).fill({ action: 'decline' }));
    });

    it('runs a two-round chain: the state comes back byte for byte, and round 2 shows what round 1 answered', async () => {
      const { connection, seen } = connect(config, (q) => {
        const property = q.form!.fields[0]!.property;
        return answerGroup(q, property === 'title' ? { title: 'Nocturne ünïcödé' } : { tempo: 72 });
      });
      // Round 1 asks about the piece, round 2 about its tempo; fields left alone send their defaults.
      const result = await connection.callTool('two_rounds', {});
      assert.equal(textOf(result), '"Nocturne ünïcödé" at 72');
      assert.equal(seen.length, 2);
      const second = seen[1]!.request;
      assert.ok(second.mode === 'group');
      assert.deepEqual(second.earlier, [
        { message: 'About the piece', lines: ['Title: Nocturne ünïcödé', 'Mood: calm', 'Bars: 16', 'Swing: No'] },
      ]);
      const [, , third] = legs('two_rounds').slice(-3);
      const expectedState = `round-2:${Buffer.from(JSON.stringify({ title: 'Nocturne ünïcödé' })).toString('base64')}`;
      assert.equal(third!.requestState, expectedState);
      assert.deepEqual(third!.inputResponses, {
        tempo: { action: 'accept', content: { tempo: 72, feel: 'straight', countIn: true, note: 'none' } },
      });
    });

    it('takes a link in a round through consent and a Done step, then retries with the state', async () => {
      const asked: string[] = [];
      const { connection } = connect(config, (q) => {
        asked.push(q.presentation === 'url' ? `url ${q.url!.host}` : `form ${q.request.message}`);
        return q.presentation === 'url' ? { action: 'accept' } : { action: 'accept', content: {} };
      });
      const result = await connection.callTool('sign_in', {});
      assert.equal(textOf(result), 'library: accept (state waiting-for-library)');
      assert.deepEqual(asked, [
        'url library.example.com',
        'form Finish in your browser (library.example.com), then choose Done: Elicit asks songs again.',
      ]);
    });

    it('ends the flow when the person cancels the Done step: nothing is retried', async () => {
      const before = legs('sign_in').length;
      const { connection } = connect(config, (q) => (q.presentation === 'url' ? { action: 'accept' } : { action: 'cancel' }));
      await assert.rejects(connection.callTool('sign_in', {}), /you cancelled while library\.example\.com was open in your browser/);
      assert.equal(legs('sign_in').length, before + 1, 'only the first leg reached the server');
    });

    it('answers roots/list in a round from the workspace folders without asking', async () => {
      const { connection, seen } = connect(config, () => assert.fail('roots are not asked'));
      const result = await connection.callTool('roots_round', {});
      assert.equal(textOf(result), 'roots: file:///work/song-project');
      assert.equal(seen.length, 0);
    });

    it('ends a call that needs sampling with a sentence, not a hang (Elicit does not declare sampling)', async () => {
      const { connection } = connect(config, () => assert.fail('nothing is asked'));
      // The server's SDK sees the undeclared capability and refuses; a server that sends it anyway
      // is refused by Elicit itself (test/unit/rounds.test.ts).
      // -32021 named as a sentence, then the server's own words.
      await assert.rejects(
        connection.callTool('sampling_round', {}),
        /^Error: songs needs a client capability that Elicit does not offer \(sampling\): Cannot request input 'reply' \(sampling\/createMessage\)/,
      );
    });

    it(`stops after ${MAX_ROUNDS} rounds with a message naming the server`, async () => {
      const { connection, seen } = connect(config, (q) => answerGroup(q, { ok: true }));
      await assert.rejects(connection.callTool('forever', {}), new RegExp(`songs still asked for more input after ${MAX_ROUNDS} rounds`));
      assert.equal(seen.length, MAX_ROUNDS);
      assert.equal(legs('forever').length, MAX_ROUNDS + 1);
    });

    it('ends a round cleanly when the connection stops while the person is answering it', async () => {
      let closed: AbortSignal | undefined;
      let shown!: () => void;
      const isShown = new Promise<void>((resolve) => (shown = resolve));
      const { connection } = connect(config, (_q, signal) => {
        closed = signal;
        shown();
        return new Promise<ElicitResult>((done) => signal.addEventListener('abort', () => done({ action: 'cancel' })));
      });
      const before = legs('song_sketch').length;
      const ended = assert.rejects(connection.callTool('song_sketch', {}), /songs was stopped/);
      await isShown;
      await connection.stop();
      await ended;
      assert.equal(closed?.aborted, true, 'the question closed');
      assert.equal(legs('song_sketch').length, before + 1, 'nothing was retried');
    });

    it('asks the rounds of prompts/get and resources/read too', async () => {
      const { connection } = connect(config, (q) =>
        answerGroup(q, q.form!.fields[0]!.property === 'who' ? { who: 'Clara' } : { sure: true }),
      );
      const prompt = await connection.getPrompt('greeting', {});
      assert.deepEqual(
        prompt.messages.map((m) => (m.content as { text: string }).text),
        ['Write a greeting for Clara.'],
      );
      const resource = await connection.readResource('notes://private');
      assert.equal((resource.contents[0] as { text: string }).text, 'The bridge goes up a fourth.');
    });
  });
}

describe('a 2026-07-28 server and a 2025-era conversation', () => {
  it('starts and uses a modern-only server (legacy: reject)', async () => {
    const record = newRecordFile();
    const { connection } = connect(stdioServer('modern-only', serverFile, { RECORD_FILE: record, MRTR_LEGACY: 'reject' }), (q) =>
      answerGroup(q, { name: 'Cello', key: 'C', bpm: 60, loop: false }),
    );
    const result = await connection.callTool('song_sketch', {});
    assert.equal(textOf(result), 'Sketched "Cello" in C at 60 BPM');
    assert.equal(connection.protocolVersion, '2026-07-28');
  });

  it('groups the four requests the SDK shim sends a 2025-era client into one question', async () => {
    // The same server, spoken to in 2025-11-25: its shim sends the round as four elicitation/create requests at once.
    const record = newRecordFile();
    const { broker, renderer } = scriptedBroker((q) => answerGroup(q, { name: 'Dawn', key: 'F', bpm: 120, loop: true }));
    const connection = new McpConnection(stdioServer('shimmed', serverFile, { RECORD_FILE: record, MRTR_LEGACY: 'only' }), {
      ask: (r) => broker.ask(r),
      log: () => undefined,
    });
    opened.push(connection);
    const result = await connection.callTool('song_sketch', {});
    assert.equal(textOf(result), 'Sketched "Dawn" in F at 120 BPM, looped');
    assert.equal(connection.protocolVersion, '2025-11-25');
    assert.equal(renderer.seen.length, 1, 'one question for the four requests');
    assert.equal(renderer.seen[0]!.request.mode, 'group');
    assert.equal(renderer.seen[0]!.form!.sections!.length, 4);
  });
});

describe('a round kept across a reload (finding 5 of issue #21)', () => {
  it('is answered only on the server that asked it: a namesake with another command gets nothing', async () => {
    const realRecord = newRecordFile();
    const impostorRecord = newRecordFile();
    const keeper = new KeptAcrossReload();
    const real = stdioServer('songs', serverFile, { RECORD_FILE: realRecord });
    // Before the reload: round 1 answered, round 2 (with its state) open when the window goes.
    const { broker, renderer: beforeRenderer } = scriptedBroker((q) =>
      q.form!.fields[0]!.property === 'title' ? answerGroup(q, { title: 'Nocturne' }) : { action: 'cancel' },
    );
    const before = new McpConnection(real, { ask: (r) => broker.ask(r), log: () => undefined, rounds: keeper });
    opened.push(before);
    await before.callTool('two_rounds', {});
    assert.deepEqual(
      beforeRenderer.seen.map((q) => q.request.nextInLine),
      [undefined, undefined],
      'a call waits its turn',
    );
    const kept = keeper.rounds.at(-1)!;
    assert.equal(kept.round, 2);
    assert.match(kept.requestState ?? '', /^round-2:/);

    // After the reload another server is called "songs": same name, another command line.
    const impostor = connect(stdioServer('songs', serverFile, { RECORD_FILE: impostorRecord, FIXTURE_NAME: 'impostor' }, ['--other']), () =>
      assert.fail('the impostor must not ask the kept question'),
    );
    await assert.rejects(impostor.connection.resumeRound(kept), /not the server that asked it/);
    assert.deepEqual(readRecords(impostorRecord), [], 'the impostor received no leg: no arguments, no state, no answers');
    assert.equal(impostor.connection.status, 'stopped', 'the impostor was not even started');
    assert.equal(impostor.seen.length, 0);

    // The server that asked it, configured as before, gets it with its state byte for byte.
    const after = connect(real, (q) => answerGroup(q, { tempo: 72 }));
    const result = await after.connection.resumeRound(kept);
    assert.equal(textOf(result), '"Nocturne" at 72');
    // The person opened it: it goes next in line, not behind every question asked meanwhile (issue #37).
    assert.equal(after.seen[0]!.request.nextInLine, true);
    assert.equal(readRecords(realRecord).at(-1)!.requestState, kept.requestState);
  });
});

// Issue #37 (the soak): an agent's call through the gateway ends with the window (the agent gets an error
// and calls again), so a round kept for it would, answered after the reload, run the tool a second time.
describe("a call whose caller ends with the window (the gateway's)", () => {
  it('keeps none of its rounds; a call the person made keeps them', async () => {
    const keeper = new KeptAcrossReload();
    const { broker } = scriptedBroker((q) =>
      q.form!.fields[0]!.property === 'title' ? answerGroup(q, { title: 'Nocturne' }) : answerGroup(q, { tempo: 72 }),
    );
    const connection = new McpConnection(stdioServer('songs', serverFile, { RECORD_FILE: newRecordFile() }), {
      ask: (r) => broker.ask(r),
      log: () => undefined,
      rounds: keeper,
    });
    opened.push(connection);
    const agents = await connection.callTool('two_rounds', {}, undefined, undefined, { keepRoundsAcrossReload: false });
    assert.equal(textOf(agents), '"Nocturne" at 72');
    assert.equal(keeper.rounds.length, 0, 'no round of the gateway call was kept');
    const persons = await connection.callTool('two_rounds', {});
    assert.equal(textOf(persons), '"Nocturne" at 72');
    assert.deepEqual(
      keeper.rounds.map((r) => r.round),
      [1, 2],
    );
  });
});
