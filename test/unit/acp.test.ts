/** The pure parts of the ACP client: the transcript, the panel protocol guard, the agents setting, file rules. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseAgents } from '../../src/acp/config';
import { confinePath, sliceLines } from '../../src/acp/files';
import { answerEntries, lineDiff, Transcript } from '../../src/acp/transcript';
import { questionSummary } from '../../src/core/form/questionSummary';
import { alwaysCovers, commandOf } from '../../src/acp/permissionDetails';
import { inElicitTerms } from '../../src/acp/agentConventions';
import { claudeAskParams, CODEX_ASYNC_NOTICE, codexAsyncParams } from '../fixtures/agent-questions.mjs';
import { isAgentPanelToHost, savedSession } from '../../src/core/protocols/agentPanelProtocol';

const fixtureDir = join(__dirname, '..', 'fixtures', 'agent-questions');

const vars = { workspaceFolder: '/ws', userHome: '/home/me', env: { TOKEN: 't0k' } };

describe('Transcript', () => {
  it('merges streamed chunks into one message until something else comes between', () => {
    const t = new Transcript('/ws');
    const chunk = (text: string, sessionUpdate: 'agent_message_chunk' | 'agent_thought_chunk' = 'agent_message_chunk') =>
      t.apply({ kind: 'update', sessionId: 's', update: { sessionUpdate, content: { type: 'text', text } } });
    t.user('hi');
    chunk('Hel');
    chunk('lo');
    chunk('hmm', 'agent_thought_chunk');
    chunk('again');
    assert.deepEqual(
      t.all().map((i) => [i.kind, 'text' in i ? i.text : '']),
      [
        ['user', 'hi'],
        ['agent', 'Hello'],
        ['thought', 'hmm'],
        ['agent', 'again'],
      ],
    );
  });

  it('reports only changed items, and updates tool calls and the plan in place', () => {
    const t = new Transcript('/ws');
    t.apply({
      kind: 'update',
      sessionId: 's',
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: 'c1',
        title: 'Edit a.ts',
        status: 'pending',
        locations: [{ path: '/ws/src/a.ts', line: 3 }],
      },
    });
    t.apply({
      kind: 'update',
      sessionId: 's',
      update: { sessionUpdate: 'plan', entries: [{ content: 'one', priority: 'high', status: 'pending' }] },
    });
    assert.equal(t.takeChanges().length, 2);
    t.apply({
      kind: 'update',
      sessionId: 's',
      update: {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c1',
        status: 'completed',
        content: [{ type: 'content', content: { type: 'text', text: 'ok' } }],
      },
    });
    t.apply({
      kind: 'update',
      sessionId: 's',
      update: { sessionUpdate: 'plan', entries: [{ content: 'one', priority: 'high', status: 'completed' }] },
    });
    const changed = t.takeChanges();
    assert.deepEqual(
      changed.map((i) => i.kind),
      ['tool', 'plan'],
    );
    const tool = changed[0]!;
    assert.ok(tool.kind === 'tool');
    assert.equal(tool.status, 'completed');
    assert.deepEqual(tool.locations, ['src/a.ts:3']);
    assert.deepEqual(tool.content, [{ kind: 'text', text: 'ok' }]);
    assert.deepEqual(t.takeChanges(), []);
  });

  it('never puts a secret answer into an item, only its label', () => {
    const schema = {
      type: 'object',
      properties: {
        user: { type: 'string', title: 'User' },
        pass: { type: 'string', title: 'Password', format: 'password' },
        token: { type: 'string', writeOnly: true },
        tier: { type: 'string', oneOf: [{ const: 'p', title: 'Pro' }] },
      },
    };
    const entries = answerEntries(schema, { user: 'ada', pass: 'hunter2', token: 'sk-1', tier: 'p' });
    assert.deepEqual(entries, [
      { label: 'User', secret: false, value: 'ada' },
      { label: 'Password', secret: true },
      { label: 'token', secret: true },
      { label: 'tier', secret: false, value: 'Pro' },
    ]);
    assert.deepEqual(answerEntries({ type: 'object', properties: { a: { $ref: '#/x' } } }, { a: 'x' }), []);
  });

  it("a question's card carries the question itself, not only the agent's note; a non-blocking one is marked when its turn ends", () => {
    const t = new Transcript('/ws');
    const info = {
      method: 'elicitation/create',
      mode: 'form',
      message: CODEX_ASYNC_NOTICE,
      nonBlocking: true,
      requestedSchema: inElicitTerms(codexAsyncParams('s').requestedSchema),
    };
    t.apply({ kind: 'question', id: 1, sessionId: 's', info });
    const [card] = t.takeChanges();
    assert.ok(card?.kind === 'question');
    assert.equal(card.question, 'Which database should the service use? (+1 more question)');
    assert.equal(card.message, CODEX_ASYNC_NOTICE);
    assert.equal(card.nonBlocking, true);
    assert.equal(card.turnEnded, undefined);
    assert.equal(card.autoResolvesAt, undefined, 'no timer: no countdown');
    t.apply({ kind: 'questionTurnEnded', id: 1, sessionId: 's' });
    const [ended] = t.takeChanges();
    assert.ok(ended?.kind === 'question' && ended.turnEnded === true && ended.outcome === undefined);
    t.apply({ kind: 'question', id: 1, sessionId: 's', info, result: { action: 'cancel' } });
    assert.deepEqual(
      t.all().map((i) => i.kind === 'question' && [i.turnEnded, i.outcome]),
      [[true, 'cancel']],
    );
  });

  it("a question's card carries the agent's own timer while it waits, for the panel to count down", () => {
    const t = new Transcript('/ws');
    const info = { method: 'elicitation/create', mode: 'form', message: 'Pick one', autoResolvesAt: 1_700_000_045_000 };
    t.apply({ kind: 'question', id: 1, sessionId: 's', info });
    const [card] = t.takeChanges();
    assert.ok(card?.kind === 'question');
    assert.equal(card.autoResolvesAt, 1_700_000_045_000);
  });

  it("summarises a form as its first question (header and question for claude's AskUserQuestion), with a count of the rest", () => {
    // The schemas as the ACP side passes them on.
    const summary = (schema: Record<string, unknown>): string => questionSummary(inElicitTerms(schema));
    assert.equal(summary(codexAsyncParams('s').requestedSchema), 'Which database should the service use? (+1 more question)');
    assert.equal(summary(claudeAskParams('s').requestedSchema), 'Tooling: Which package manager should I use? (+1 more question)');
    const one = claudeAskParams('s').requestedSchema as { properties: Record<string, unknown> };
    delete one.properties.question_1;
    delete one.properties.question_1_custom;
    assert.equal(summary(one), 'Tooling: Which package manager should I use?');
    assert.equal(questionSummary({ type: 'object', properties: { a: { $ref: '#/x' } } }), '');
    assert.equal(questionSummary({ type: 'object', properties: {} }), '');
  });

  it('a permission card carries the agent, its command and what "allow always" covers in its own words', () => {
    const t = new Transcript('/ws');
    const prompt = {
      agent: 'codex',
      sessionId: 's',
      toolCallId: 'c1',
      toolTitle: 'Run a command',
      command: 'touch once.txt',
      options: [
        { optionId: 'allow_once', name: 'Yes, proceed', kind: 'allow_once' },
        {
          optionId: 'accept_execpolicy_amendment',
          name: "Yes, and don't ask again for commands that start with `touch once.txt`",
          kind: 'allow_always',
        },
        { optionId: 'cancel', name: 'No, and tell Codex what to do differently', kind: 'reject_once' },
      ],
    };
    t.apply({ kind: 'permission', id: 1, sessionId: 's', prompt });
    const [card] = t.takeChanges();
    assert.ok(card?.kind === 'permission');
    assert.equal(card.agent, 'codex');
    assert.equal(card.command, 'touch once.txt');
    assert.deepEqual(card.always, ["Yes, and don't ask again for commands that start with `touch once.txt`"]);
  });

  it("reads the command from the tool call's rawInput (codex and claude: a string; an argv array joined), else nothing", () => {
    const codex = JSON.parse(readFileSync(join(fixtureDir, 'codex-permission.json'), 'utf8')) as { toolCall: { rawInput: unknown } };
    const claude = JSON.parse(readFileSync(join(fixtureDir, 'claude-permission.json'), 'utf8')) as {
      toolCall: { rawInput: unknown };
      options: Array<{ name: string; kind: string }>;
    };
    assert.equal(commandOf(codex.toolCall.rawInput), 'touch once.txt');
    assert.equal(commandOf(claude.toolCall.rawInput), 'echo hello-claude > claude.txt');
    assert.deepEqual(alwaysCovers(claude.options), ['Yes, and allow access to workspace/ and echo hello-claude * commands']);
    assert.equal(commandOf({ command: ['git', 'status'] }), 'git status');
    for (const raw of [undefined, 'ls', { command: '  ' }, { command: [1, 2] }, { command: [] }, { cmd: 'ls' }]) {
      assert.equal(commandOf(raw), undefined, JSON.stringify(raw));
    }
    assert.equal(commandOf({ command: 'x'.repeat(5000) })!.length, 2000);
  });

  it('diffs the changed middle with a little context', () => {
    assert.deepEqual(lineDiff('a\nb\nc\nd\ne', 'a\nb\nX\nd\ne').lines, [
      { op: ' ', text: 'a' },
      { op: ' ', text: 'b' },
      { op: '-', text: 'c' },
      { op: '+', text: 'X' },
      { op: ' ', text: 'd' },
      { op: ' ', text: 'e' },
    ]);
    const big = lineDiff('', Array.from({ length: 250 }, (_, i) => `l${i}`).join('\n'));
    assert.equal(big.lines.length, 200);
    assert.equal(big.omitted, 50);
  });
});

describe('agent panel protocol', () => {
  it('accepts only well-formed messages from the webview', () => {
    assert.ok(isAgentPanelToHost({ type: 'ready' }));
    assert.ok(isAgentPanelToHost({ type: 'prompt', text: 'go' }));
    assert.ok(isAgentPanelToHost({ type: 'stop' }));
    assert.ok(!isAgentPanelToHost({ type: 'prompt', text: '   ' }));
    assert.ok(!isAgentPanelToHost({ type: 'prompt', text: 42 }));
    assert.ok(!isAgentPanelToHost({ type: 'prompt', text: 'x'.repeat(100_001) }));
    assert.ok(!isAgentPanelToHost({ type: 'eval' }));
    assert.ok(!isAgentPanelToHost(null));
    assert.ok(!isAgentPanelToHost(['ready']));
  });

  it('reads the session a restored panel saved, and nothing from malformed state', () => {
    assert.deepEqual(savedSession({ draft: 'hi', agent: 'claude', cwd: '/w', sessionId: 's-1' }), {
      agent: 'claude',
      cwd: '/w',
      sessionId: 's-1',
    });
    assert.deepEqual(
      savedSession({ agent: 'claude', cwd: '/w', sessionId: 7 }),
      { agent: 'claude', cwd: '/w' },
      'a bad id starts a new session',
    );
    assert.equal(savedSession({ draft: 'only a draft' }), undefined);
    assert.equal(savedSession({ agent: '', cwd: '/w' }), undefined);
    assert.equal(savedSession({ agent: 'a', cwd: ['/w'] }), undefined);
    assert.equal(savedSession(undefined), undefined);
    assert.equal(savedSession('claude'), undefined);
  });
});

describe('the elicit.agents setting', () => {
  it('reads agents with substitution and reports bad entries by name', () => {
    const { agents, problems } = parseAgents(
      {
        claude: { command: 'npx', args: ['claude-code-acp', '${workspaceFolder}'], env: { KEY: '${env:TOKEN}' }, cwd: '${userHome}/x' },
        broken: { args: [] },
        remote: { url: 'https://example.com' },
      },
      vars,
    );
    assert.deepEqual(agents, [
      { name: 'claude', command: 'npx', args: ['claude-code-acp', '/ws'], env: { KEY: 't0k' }, cwd: '/home/me/x' },
    ]);
    assert.deepEqual(
      problems.map((p) => p.message),
      [
        'the elicit.agents setting: agent "remote": agents run as local processes; give a "command", not a "url"',
        'the elicit.agents setting: agent "broken": "command" is missing',
      ],
    );
    assert.deepEqual(parseAgents(undefined, vars), { agents: [], problems: [] });
    assert.equal(parseAgents([], vars).problems.length, 1);
  });
});

describe('agent file access rules', () => {
  it('keeps paths inside the workspace folders', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'elicit-acp-unit-')));
    assert.equal(await confinePath(join(root, 'a', '..', 'b.txt'), [root]), join(root, 'b.txt'));
    assert.equal(await confinePath(join(root, 'new', 'deep', 'c.txt'), [root]), join(root, 'new', 'deep', 'c.txt'));
    await assert.rejects(confinePath(join(root, '..', 'x'), [root]), /outside the workspace folders/);
    await assert.rejects(confinePath(`${root}-sibling/x`, [root]), /outside the workspace folders/);
    await assert.rejects(confinePath('relative.txt', [root]), /not an absolute path/);
    await assert.rejects(confinePath(join(root, 'x'), []), /outside the workspace folders/);
    await assert.rejects(confinePath(42, [root]), /a file path is needed/);
  });

  it('follows a link that points nowhere yet, so a write cannot create a file outside', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'elicit-acp-unit-')));
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'elicit-acp-outside-')));
    symlinkSync(join(outside, 'planted.txt'), join(root, 'dangling.txt'));
    symlinkSync(join(outside, 'no-such-dir'), join(root, 'dangling-dir'));
    symlinkSync(join(root, 'dangling.txt'), join(root, 'chain.txt'));
    symlinkSync('later.txt', join(root, 'inside-link.txt'));
    symlinkSync(join(root, 'loop-b'), join(root, 'loop-a'));
    symlinkSync(join(root, 'loop-a'), join(root, 'loop-b'));
    await assert.rejects(confinePath(join(root, 'dangling.txt'), [root]), /outside the workspace folders/);
    await assert.rejects(confinePath(join(root, 'dangling-dir', 'x.txt'), [root]), /outside the workspace folders/);
    await assert.rejects(confinePath(join(root, 'chain.txt'), [root]), /outside the workspace folders/);
    await assert.rejects(confinePath(join(root, 'loop-a'), [root]), /outside the workspace folders/);
    assert.equal(await confinePath(join(root, 'inside-link.txt'), [root]), join(root, 'inside-link.txt'));
  });

  it('applies line and limit (1-based, endings kept)', () => {
    const text = 'a\nb\r\nc\nd';
    assert.equal(sliceLines(text), text);
    assert.equal(sliceLines(text, 2, 2), 'b\r\nc\n');
    assert.equal(sliceLines(text, 4, 10), 'd');
    assert.equal(sliceLines(text, null, 1), 'a\n');
    assert.equal(sliceLines(text, 9), '');
  });
});
