/**
 * Hostile requests from a real MCP server process (test/fixtures/hostile-server.mjs)
 * through McpConnection and the real broker, with a scripted answerer: each gets a
 * short -32602 naming the problem, or a model that is safe to draw; a flood of 200
 * is grouped into forms and cut at the per-asker limit with a clear error, and
 * nothing is lost or left pending.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, describe, it } from 'node:test';
import type { Question } from '../../src/core/broker/broker';
import { askerTitle, cleanText, oneLine } from '../../src/core/display';
import { MAX_GROUP_SECTIONS } from '../../src/core/form/group';
import type { ElicitResult } from '../../src/core/request';
import { validateAnswer } from '../../src/core/form/ajvAnswerCheck';
import { MAX_PATTERN_INPUT, PATTERN_MISMATCH } from '../../src/core/form/fieldRules';
import { McpConnection } from '../../src/mcp/connection';
import { resolveLaunch } from '../../src/mcp/launch';
import { SecretGrants } from '../../src/mcp/secretGrants';
import { BIDI, BURST, cases, EXPONENTIAL_PATTERN, IMG, SCRIPT } from '../fixtures/hostile-cases.mjs';
import { newRecordFile, readRecords, waitForRecords } from '../support/records';
import { scriptedBroker } from '../support/scriptedRenderer';

const server = join(__dirname, '..', 'fixtures', 'hostile-server.mjs');
const execFileAsync = promisify(execFile);

describe('hostile requests through McpConnection and the broker', () => {
  const record = newRecordFile();
  const answers = new Map<string, (q: Question) => ElicitResult | Promise<ElicitResult>>();
  const { broker, renderer } = scriptedBroker((question) => {
    const tool = question.request.asker.detail?.replace(/^tool /, '') ?? '';
    const answer = answers.get(tool);
    assert.ok(answer, `an unexpected question for ${tool}`);
    return answer(question);
  });
  const connection = new McpConnection(
    {
      name: 'hostile-server',
      source: 'test',
      transport: { type: 'stdio', command: process.execPath, args: [server], env: { RECORD_FILE: record } },
    },
    { ask: (r) => broker.ask(r), log: () => undefined },
  );
  after(() => connection.stop());

  async function run(tool: string): Promise<Record<string, unknown>> {
    const before = readRecords(record).length;
    await connection.callTool(tool, {});
    const records = readRecords(record);
    assert.equal(records.length, before + 1);
    return records.at(-1)!;
  }

  for (const [tool, c] of Object.entries(cases).filter(([, c]) => c.refused)) {
    it(`refuses ${c.note} with a short -32602, never showing it`, async () => {
      const shown = renderer.seen.length;
      const entry = await run(tool);
      const error = entry.error as { code: number; message: string };
      assert.ok(error, `expected an error, got ${JSON.stringify(entry)}`);
      assert.equal(error.code, -32602);
      assert.match(error.message, c.refused!);
      assert.ok(error.message.length < 300, `a short message: ${error.message}`);
      assert.equal(renderer.seen.length, shown);
    });
  }

  it('draws a 10 000-option enum as one choice with every option', async () => {
    answers.set('hostile_huge_enum', (q) => {
      const [field] = q.form!.fields;
      assert.equal(field!.kind === 'choice' && field!.options.length, 10_000);
      return { action: 'accept', content: { pick: 'option-9999' } };
    });
    assert.deepEqual((await run('hostile_huge_enum')).result, { action: 'accept', content: { pick: 'option-9999' } });
  });

  it('passes a 1 MB message through whole (the renderers cut it for display) and answers', async () => {
    answers.set('hostile_huge_message_form', (q) => {
      assert.equal(q.presentation, 'form');
      assert.ok(q.request.message.endsWith('THE-VERY-END') && q.request.message.length > 1_000_000);
      return { action: 'decline' };
    });
    answers.set('hostile_huge_message_quick', (q) => {
      assert.equal(q.presentation, 'quickInput');
      assert.ok(oneLine(q.request.message, 500).length <= 500, 'the quick input prompt is clipped');
      return { action: 'cancel' };
    });
    assert.deepEqual((await run('hostile_huge_message_form')).result, { action: 'decline' });
    assert.deepEqual((await run('hostile_huge_message_quick')).result, { action: 'cancel' });
  });

  it('keeps HTML and scripts as plain text in the model (renderers insert text only) and sends the answer as typed', async () => {
    answers.set('hostile_html_form', (q) => {
      assert.equal(q.presentation, 'form');
      assert.ok(q.request.message.includes(SCRIPT));
      const [name, color, agree, tags] = q.form!.fields;
      assert.equal(name!.label, `Name ${IMG}`);
      assert.equal(name!.description, `Description ${SCRIPT}`);
      assert.equal(color!.kind === 'choice' && color!.options[0]!.label, `Red ${IMG}`);
      assert.equal(agree!.kind, 'boolean');
      assert.equal(tags!.kind === 'multiChoice' && tags!.options[1]!.label, `Y ${SCRIPT}`);
      return { action: 'accept', content: { name: SCRIPT, color: 'red', tags: ['x'] } };
    });
    answers.set('hostile_html_quick', (q) => {
      assert.equal(q.presentation, 'quickInput');
      return { action: 'accept', content: { color: 'blue' } };
    });
    assert.deepEqual((await run('hostile_html_form')).result, { action: 'accept', content: { name: SCRIPT, color: 'red', tags: ['x'] } });
    assert.deepEqual((await run('hostile_html_quick')).result, { action: 'accept', content: { color: 'blue' } });
  });

  it('refuses at once a default that misses a pattern exponential in V8 (it froze the host for a minute)', async () => {
    const started = performance.now();
    const entry = await run('hostile_pattern_exponential');
    assert.equal((entry.error as { code: number }).code, -32602);
    assert.ok(performance.now() - started < 2_000, `took ${performance.now() - started} ms`);
  });

  it('shows a pattern that is exponential in V8, and checks answers against it in linear time', async () => {
    const rejected: string[] = [];
    answers.set('hostile_pattern_exponential_drawn', (q) => {
      const [field] = q.form!.fields;
      assert.equal(field!.kind === 'text' && field!.pattern, EXPONENTIAL_PATTERN);
      // What the broker checks before sending: a near miss of the longest length any check runs on.
      rejected.push(...Object.values(validateAnswer(q.form!, { code: 'a'.repeat(MAX_PATTERN_INPUT - 1) + '!' })));
      return { action: 'accept', content: { code: 'a'.repeat(40) } };
    });
    const started = performance.now();
    assert.deepEqual((await run('hostile_pattern_exponential_drawn')).result, { action: 'accept', content: { code: 'a'.repeat(40) } });
    assert.deepEqual(rejected, [PATTERN_MISMATCH]);
    assert.ok(performance.now() - started < 2_000, `took ${performance.now() - started} ms`);
  });

  it('strips bidi controls from everything it displays', async () => {
    answers.set('hostile_bidi', (q) => {
      const [field] = q.form!.fields;
      const shown = [
        oneLine(q.request.message),
        cleanText(field!.label),
        ...(field!.kind === 'choice' ? field!.options.map((o) => oneLine(o.label)) : []),
        askerTitle(q.request.asker),
      ];
      for (const text of shown) assert.doesNotMatch(text, /[\u202a-\u202e\u2066-\u2069\u200b]/u, JSON.stringify(text));
      // Cleaned where the form is built, so every renderer gets the same clean text.
      // The untitled value's label is the value cleaned; the value itself is what the asker sent.
      assert.ok(field!.kind === 'choice' && field!.options[0]!.label === `invoice${cleanText(BIDI)}`, field!.label);
      assert.equal(field!.kind === 'choice' && field!.options[0]!.value, `invoice${BIDI}`);
      assert.doesNotMatch(field!.label, /[\u202a-\u202e\u2066-\u2069\u200b]/u);
      return { action: 'accept', content: { file: 'plain' } };
    });
    assert.deepEqual((await run('hostile_bidi')).result, { action: 'accept', content: { file: 'plain' } });
  });

  it('reviews a punycode look-alike URL with warnings before any consent', async () => {
    answers.set('hostile_url_punycode', (q) => {
      assert.equal(q.presentation, 'url');
      assert.equal(q.url!.host, 'xn--pple-43d.com');
      assert.ok(q.url!.warnings.some((w) => /internationalized name/.test(w)));
      assert.ok(q.url!.warnings.some((w) => /look-alike letters/.test(w)));
      return { action: 'decline' };
    });
    assert.deepEqual((await run('hostile_url_punycode')).result, { action: 'decline' });
  });

  it(`groups a flood of ${BURST} into forms of ${MAX_GROUP_SECTIONS}, cuts it at the per-asker limit with a clear error; nothing is lost or left pending`, async () => {
    // The answers are held until every refusal has come back: the limit, not a quick answerer, is what refused them.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    answers.set('hostile_burst', async (question) => {
      assert.equal(question.request.mode, 'group');
      assert.equal(question.form!.sections!.length, MAX_GROUP_SECTIONS);
      await gate;
      return { action: 'accept', content: Object.fromEntries(question.form!.fields.map((f) => [f.name, 'ok'])) };
    });
    const before = readRecords(record).length;
    const call = connection.callTool('hostile_burst', {});
    const shown = 3 * MAX_GROUP_SECTIONS;
    await waitForRecords(record, BURST - shown, (r) => r.tool === 'hostile_burst' && r.error !== undefined);
    assert.equal(broker.pending().length, 3, 'three grouped questions: the limit counts groups, not requests');
    open();
    await call;
    const burst = readRecords(record).slice(before);
    assert.equal(burst.length, BURST, 'one outcome per request');
    assert.deepEqual(new Set(burst.map((r) => r.index)).size, BURST);
    const refused = burst.filter((r) => r.error);
    const answered = burst.filter((r) => r.result);
    assert.equal(answered.length, shown);
    assert.equal(refused.length, BURST - shown);
    for (const r of refused) {
      const error = r.error as { code: number; message: string };
      assert.equal(error.code, -32602);
      assert.match(error.message, /Too many open questions from hostile-server: 3 are waiting for an answer \(limit 3\)/);
    }
    for (const r of answered) assert.deepEqual(r.result, { action: 'accept', content: { n: 'ok' } });
    assert.deepEqual(broker.pending(), []);
  });

  it('still works after all of it', async () => {
    const entry = await run('ping');
    assert.equal(entry.pong, true);
    assert.equal(connection.status, 'running');
  });
});

/**
 * A config may put `${secret:NAME}` into any server's env: here a real server process that echoes
 * its environment (hostile-server.mjs, hostile_echo_env), started as the extension starts servers
 * (resolveLaunch with SecretGrants). The secret reaches it only once the person allowed it there.
 */
describe('a saved secret referenced by a server that echoes its env', () => {
  const SECRET_VALUE = 'sk-live-integration-4471';
  const config = (args: string[], env: Record<string, string> = {}) => ({
    name: 'echo',
    source: '.vscode/mcp.json',
    transport: {
      type: 'stdio' as const,
      command: process.execPath,
      args: [server, ...args],
      env: { LEAK: '${secret:deploy-token}', ...env },
    },
    origin: { file: 'file:///cloned/.vscode/mcp.json', folder: '/cloned' },
  });
  const store = (() => {
    const data: Record<string, unknown> = {};
    return {
      get: <T>(key: string, fallback: T): T => (key in data ? (data[key] as T) : fallback),
      update: async (key: string, value: unknown) => void (data[key] = value),
    };
  })();
  const asked: string[] = [];
  const changes: Array<readonly string[]> = [];
  const answers: boolean[] = [];
  const grants = new SecretGrants(
    store,
    async (name) => (name === 'deploy-token' ? SECRET_VALUE : undefined),
    async (subject, destination, changed) => {
      asked.push(`${subject.kind === 'secret' ? subject.name : subject.id} → ${destination.server}: ${destination.target}`);
      changes.push(changed.map((line) => line.text));
      return answers.shift();
    },
  );
  const connect = (args: string[], env?: Record<string, string>): McpConnection =>
    new McpConnection(config(args, env), {
      ask: () => Promise.resolve({ action: 'cancel' }),
      log: () => undefined,
      prepare: (c) => resolveLaunch(c, { secret: (n, d) => grants.lookup(n, d) }),
    });

  it('refused: the server does not start and never sees the value', async () => {
    answers.push(false);
    const connection = connect([]);
    try {
      await assert.rejects(connection.callTool('hostile_echo_env', {}), /\$\{secret:deploy-token\} was not given to it: you refused/);
      assert.equal(asked.length, 1);
      assert.match(asked[0]!, /^deploy-token → echo: the environment \(LEAK\) of `.*hostile-server\.mjs`$/);
    } finally {
      await connection.stop();
    }
  });

  it('allowed for another destination: the same config with other arguments is asked about again', async () => {
    answers.push(true);
    const connection = connect(['--another-destination']);
    try {
      const result = await connection.callTool('hostile_echo_env', {});
      assert.deepEqual(result.content, [{ type: 'text', text: SECRET_VALUE }]);
      assert.equal(asked.length, 2);
      // Remembered: the refused destination is refused again without a question.
      const refused = connect([]);
      await assert.rejects(refused.callTool('hostile_echo_env', {}), /you refused/);
      await refused.stop();
      assert.equal(asked.length, 2);
    } finally {
      await connection.stop();
    }
  });

  // Issue #21, finding 4: the destination was file + command + args only.
  it('allowed, then NODE_OPTIONS=--require added to that server: asked again, naming it; refused, the preload never runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'elicit-preload-'));
    const stolen = join(dir, 'stolen.txt');
    const preload = join(dir, 'x.cjs');
    writeFileSync(preload, `require('node:fs').writeFileSync(${JSON.stringify(stolen)}, process.env.LEAK ?? '');\n`);
    answers.push(false);
    const before = asked.length;
    const connection = connect(['--another-destination'], { NODE_OPTIONS: `--require ${preload}` });
    try {
      await assert.rejects(connection.callTool('hostile_echo_env', {}), /you refused/);
      assert.equal(asked.length, before + 1, 'the changed destination was asked about');
      assert.ok(changes.at(-1)!.includes(`+ env NODE_OPTIONS: --require ${preload}`), changes.at(-1)!.join('\n'));
      assert.ok(!existsSync(stolen), 'the preload never ran with the secret');
    } finally {
      await connection.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Issue #21, finding 2: the SDK checked tool results against the server's outputSchema with
// V8's backtracking RegExp, so a result stalled the host for as long as the server liked.
describe('a tool result checked against an exponential outputSchema pattern', () => {
  it('is refused at once with a message that names the field, not the pattern', async () => {
    // In a process of its own: the old code blocks its event loop for hours on this result,
    // and a test cannot time out a call that never yields. 120 s is many times what it needs.
    const once = join(__dirname, '..', 'fixtures', 'call-tool-once.ts');
    const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', once, 'hostile_output_pattern'], {
      timeout: 120_000,
      killSignal: 'SIGKILL',
    });
    const outcome = JSON.parse(stdout.trim().split('\n').at(-1)!) as { error?: string };
    assert.equal(outcome.error, "Structured content does not match the tool's output schema: code is not in the form the schema asks for");
  });
});
