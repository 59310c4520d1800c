/** Answer memory (issue #22): the question fingerprint, the asker identity, the store, the limit and re-validation. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { normalize } from '../../src/core/form/normalize';
import { questionFingerprint, canonicalJson } from '../../src/core/memory/fingerprint';
import { memoryAsker } from '../../src/core/memory/askerIdentity';
import { AutomaticAnswerLimit } from '../../src/core/memory/rateLimit';
import { AnswerMemory, type MemoryVault, type RememberSetting } from '../../src/core/memory/answerMemory';
import type { Asker, ElicitRequest, FormRequest, GroupRequest } from '../../src/core/request';

const weather: Asker = { kind: 'mcp', name: 'weather', origin: 'origin-a' };
const impostor: Asker = { kind: 'mcp', name: 'weather', origin: 'origin-b' };

const regionSchema = {
  type: 'object',
  properties: {
    region: {
      type: 'string',
      title: 'Region',
      description: 'Where to forecast',
      oneOf: [
        { const: 'eu-west', title: 'Europe (West)' },
        { const: 'us-east', title: 'US (East)' },
      ],
      default: 'eu-west',
    },
    days: { type: 'integer', title: 'Days', minimum: 1, maximum: 7 },
  },
  required: ['region'],
};

function fingerprintOf(message: string, schema: unknown): string {
  return questionFingerprint(message, normalize(schema).fields);
}

function form(asker: Asker, schema: unknown = regionSchema, message = 'Which region?'): FormRequest {
  return { mode: 'form', asker, message, requestedSchema: schema };
}

class MemoryVaultStandIn implements MemoryVault {
  text: string | undefined;
  async read(): Promise<string | undefined> {
    return this.text;
  }
  async write(text: string | undefined): Promise<void> {
    this.text = text;
  }
}

function memory(setting: RememberSetting = 'always', now: () => number = Date.now): { memory: AnswerMemory; vault: MemoryVaultStandIn } {
  const vault = new MemoryVaultStandIn();
  return { memory: new AnswerMemory(vault, () => setting, now), vault };
}

/** Reorders an object's keys, deeply: the same schema written in another order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reversedKeys(v)]),
    );
  }
  return value;
}

describe('question fingerprint', () => {
  it('is stable under key order and whitespace in the schema', () => {
    const reordered = reversedKeys(regionSchema);
    const respaced: unknown = JSON.parse(JSON.stringify(regionSchema, null, 7));
    assert.equal(fingerprintOf('Which region?', reordered), fingerprintOf('Which region?', regionSchema));
    assert.equal(fingerprintOf('Which region?', respaced), fingerprintOf('Which region?', regionSchema));
  });

  it('is changed by the message, any title, description, option, default, range, requirement, type or format', () => {
    const base = fingerprintOf('Which region?', regionSchema);
    const variants: Array<[string, (s: typeof regionSchema & Record<string, unknown>) => void]> = [
      ['option title "Keep" → "Delete all"', (s) => (s.properties.region.oneOf[0]!.title = 'Delete all')],
      ['option value', (s) => (s.properties.region.oneOf[1]!.const = 'us-west')],
      ['an option added', (s) => s.properties.region.oneOf.push({ const: 'ap', title: 'Asia' })],
      ['field title', (s) => (s.properties.region.title = 'Zone')],
      ['description', (s) => (s.properties.region.description = 'Where to deploy')],
      ['default', (s) => (s.properties.region.default = 'us-east')],
      ['minimum', (s) => (s.properties.days.minimum = 0)],
      ['maximum', (s) => (s.properties.days.maximum = 30)],
      ['required', (s) => (s.required = ['region', 'days'])],
      ['type integer → number', (s) => ((s.properties.days as { type: string }).type = 'number')],
      ['a format', (s) => Object.assign(s.properties, { mail: { type: 'string', format: 'email' } })],
      ['a field added', (s) => Object.assign(s.properties, { note: { type: 'string' } })],
    ];
    for (const [what, change] of variants) {
      const schema = structuredClone(regionSchema) as typeof regionSchema & Record<string, unknown>;
      change(schema);
      assert.notEqual(fingerprintOf('Which region?', schema), base, what);
    }
    assert.notEqual(fingerprintOf('Which region? ', regionSchema), base, 'message');
  });

  it('canonical JSON: any object gives the same text whatever its key order (property)', () => {
    fc.assert(
      fc.property(fc.object(), (value) => {
        assert.equal(canonicalJson(reversedKeys(value)), canonicalJson(value));
      }),
    );
  });

  it('a changed string or bound of any field gives another fingerprint (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.integer({ min: 1, max: 100 }),
        (a, b, max) => {
          fc.pre(a !== b);
          const schema = (title: string, maxLength: number): unknown => ({
            type: 'object',
            properties: { name: { type: 'string', title, maxLength } },
          });
          assert.notEqual(fingerprintOf('q', schema(a, max)), fingerprintOf('q', schema(b, max)));
          assert.notEqual(fingerprintOf('q', schema(a, max)), fingerprintOf('q', schema(a, max + 1)));
        },
      ),
    );
  });
});

describe('asker identity for answer memory', () => {
  it('is the origin: a server or agent without one, a gateway client and another extension have none', () => {
    assert.deepEqual(memoryAsker(weather), { key: 'mcp:origin-a', maxScope: 'always' });
    assert.notEqual(memoryAsker(impostor)?.key, memoryAsker(weather)?.key);
    assert.equal(memoryAsker({ kind: 'mcp', name: 'weather' }), undefined);
    assert.equal(memoryAsker({ kind: 'gateway', name: 'gateway · claude', limitGroup: 'gateway' }), undefined);
    assert.equal(memoryAsker({ kind: 'extension', name: 'some.extension' }), undefined);
    assert.equal(memoryAsker({ kind: 'acp', name: 'codex' }), undefined);
  });

  it('an agent and the language-model tool are remembered for this session only', () => {
    assert.equal(memoryAsker({ kind: 'acp', name: 'codex', origin: 'o' })?.maxScope, 'session');
    assert.equal(memoryAsker({ kind: 'tool', name: 'AI agent' })?.maxScope, 'session');
  });
});

describe('automatic answer limit', () => {
  it('allows 10 automatic answers per asker per minute, then again once the minute has passed', () => {
    let now = 0;
    const limit = new AutomaticAnswerLimit(() => now);
    for (let i = 0; i < 10; i++) assert.equal(limit.take('a'), true);
    assert.equal(limit.take('a'), false);
    assert.equal(limit.take('b'), true, 'another asker has its own');
    now = 60_001;
    assert.equal(limit.take('a'), true);
  });
});

describe('answer memory', () => {
  it('answers a remembered question of the same asker, never of an impostor with its name', async () => {
    const { memory: m } = memory();
    assert.equal(m.recall(form(weather)), undefined);
    await m.remember(form(weather), { region: 'us-east', days: 3 }, 'always');
    const recalled = m.recall(form(weather));
    assert.equal(recalled?.kind, 'answer');
    assert.deepEqual(recalled.content, { region: 'us-east', days: 3 });
    assert.equal(m.recall(form(impostor)), undefined);
    assert.equal(m.recall(form(weather, { ...regionSchema, required: ['region', 'days'] })), undefined, 'a changed question');
  });

  // Issue #33, finding 5: the title's "tool get_forecast" is part of the question.
  it("a yes remembered for one tool never answers another tool's question of the same words", async () => {
    const { memory: m } = memory();
    const proceed = { type: 'object', properties: { ok: { type: 'boolean', title: 'Proceed?' } }, required: ['ok'] };
    const forTool = (detail: string): FormRequest => form({ ...weather, detail }, proceed, 'Proceed?');
    await m.remember(forTool('tool get_forecast'), { ok: true }, 'always');
    assert.equal(m.recall(forTool('tool get_forecast'))?.kind, 'answer');
    assert.equal(m.recall(forTool('tool delete_all_forecasts')), undefined, 'another tool: asked');
    assert.equal(m.recall(form(weather, proceed, 'Proceed?')), undefined, 'no tool named: asked');
    assert.equal(m.list()[0]!.detail, 'tool get_forecast', 'the list and the notice name the tool');
  });

  it('keeps "always" answers in the vault and reads them back; "session" ones never reach it', async () => {
    const { memory: m, vault } = memory();
    await m.remember(form(weather), { region: 'us-east' }, 'session');
    assert.equal(vault.text, undefined);
    await m.remember(form(weather, regionSchema, 'Another?'), { region: 'eu-west' }, 'always');
    const again = new AnswerMemory(vault, () => 'always');
    await again.load();
    assert.equal(again.list().length, 1);
    assert.equal(again.recall(form(weather, regionSchema, 'Another?'))?.kind, 'answer');
    assert.equal(again.recall(form(weather)), undefined, 'the session answer ended with the session');
  });

  it('records created, last used and how often', async () => {
    let now = 1000;
    const { memory: m } = memory('always', () => now);
    await m.remember(form(weather), { region: 'us-east' }, 'always');
    now = 2000;
    m.recall(form(weather));
    m.recall(form(weather));
    const [entry] = m.list();
    assert.deepEqual([entry?.created, entry?.lastUsed, entry?.count, entry?.scope], [1000, 2000, 2, 'always']);
    assert.deepEqual(entry?.shown, [{ label: 'Region', value: 'us-east' }]);
  });

  it('keeps an agent\'s and the LM tool\'s answers for this session, however "always" was asked for', async () => {
    const { memory: m, vault } = memory();
    const agent: Asker = { kind: 'acp', name: 'codex', origin: 'agent-origin' };
    assert.equal(m.offer(form(agent)), 'session');
    await m.remember(form(agent), { region: 'us-east' }, 'always');
    await m.remember(form({ kind: 'tool', name: 'AI agent' }), { region: 'us-east' }, 'always');
    assert.equal(vault.text, undefined);
    assert.deepEqual(
      m.list().map((e) => e.scope),
      ['session', 'session'],
    );
  });

  it('offers and remembers nothing for a secret field, a URL question, an on-behalf question, a question with nothing to ask, or a gateway client', async () => {
    const { memory: m } = memory();
    const secret = { type: 'object', properties: { token: { type: 'string', format: 'password' }, region: { type: 'string' } } };
    const writeOnly = { type: 'object', properties: { key: { type: 'string', writeOnly: true } } };
    const requests: ElicitRequest[] = [
      form(weather, secret),
      form(weather, writeOnly),
      { mode: 'url', asker: weather, message: 'Open', url: 'https://example.com' },
      { ...form(weather), onBehalf: { title: 'Run tool' } },
      { ...form(weather), noMemory: true },
      form(weather, { type: 'object', properties: {} }),
      form({ kind: 'gateway', name: 'gateway · x', limitGroup: 'gateway' }),
      form({ kind: 'extension', name: 'x.y' }),
    ];
    for (const request of requests) {
      assert.equal(m.offer(request), undefined, JSON.stringify(request.message));
      assert.deepEqual(await m.remember(request, { token: 'hunter2', key: 'k', region: 'r' }, 'always'), []);
    }
    assert.equal(m.list().length, 0);
  });

  it('offers nothing when elicit.rememberAnswers is off, and only the session when it is "session"', async () => {
    assert.equal(memory('off').memory.offer(form(weather)), undefined);
    assert.equal(memory('session').memory.offer(form(weather)), 'session');
    let setting: RememberSetting = 'always';
    const m = new AnswerMemory(new MemoryVaultStandIn(), () => setting);
    await m.remember(form(weather), { region: 'us-east' }, 'always');
    setting = 'off';
    assert.equal(m.recall(form(weather)), undefined);
    setting = 'session';
    assert.equal(m.recall(form(weather)), undefined, 'an "always" answer is not used while the setting says session');
  });

  it('sends no remembered answer that no longer validates: the question is asked with it filled in', async () => {
    const { memory: m, vault } = memory();
    await m.remember(form(weather), { region: 'us-east', days: 3 }, 'always');
    // A value kept by an older Elicit, or edited: out of the question's range now.
    vault.text = vault.text!.replace('"days":3', '"days":30');
    await m.load();
    const recalled = m.recall(form(weather));
    assert.deepEqual(recalled, { kind: 'prefill', content: { region: 'us-east', days: 30 } });
  });

  it('answers at most 10 times a minute per asker, then fills the answer in and asks', async () => {
    let now = 0;
    const { memory: m } = memory('always', () => now);
    await m.remember(form(weather), { region: 'us-east' }, 'session');
    for (let i = 0; i < 10; i++) assert.equal(m.recall(form(weather))?.kind, 'answer');
    assert.equal(m.recall(form(weather))?.kind, 'prefill');
    now = 61_000;
    assert.equal(m.recall(form(weather))?.kind, 'answer');
  });

  it('remembers each question of a round on its own; a round all remembered is answered whole', async () => {
    const { memory: m } = memory();
    const sections = [
      { key: 'a', message: 'Which region?', requestedSchema: regionSchema },
      { key: 'b', message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
    ];
    const round: GroupRequest = { mode: 'group', asker: weather, message: '2 questions', sections };
    await m.remember(round, { '0:region': 'us-east', '1:name': 'Ada' }, 'always');
    assert.equal(m.list().length, 2);
    const whole = m.recall(round);
    assert.equal(whole?.kind, 'answer');
    assert.deepEqual(whole.content, { '0:region': 'us-east', '1:name': 'Ada' });
    // The same first question alone, as a plain form: found on its own.
    assert.deepEqual(m.recall(form(weather))?.content, { region: 'us-east' });
    // A round with one question not remembered: asked, the remembered one filled in.
    const partly: GroupRequest = { ...round, sections: [sections[1]!, { key: 'c', message: 'New?', requestedSchema: regionSchema }] };
    assert.deepEqual(m.recall(partly), { kind: 'prefill', content: { '0:name': 'Ada' } });
  });

  it('ends "this session" when the asker stops or restarts: its session answers go, its "always" ones and other askers\' stay', async () => {
    const { memory: m } = memory();
    const agent: Asker = { kind: 'acp', name: 'codex', origin: 'agent-origin' };
    await m.remember(form(weather), { region: 'us-east' }, 'session');
    await m.remember(form(weather, regionSchema, 'Which region, always?'), { region: 'eu-west' }, 'always');
    await m.remember(form(agent), { region: 'us-east' }, 'session');
    m.endSession({ kind: 'mcp', name: 'weather', origin: 'origin-a' });
    assert.equal(m.recall(form(weather)), undefined, 'the session answer went with the process');
    assert.equal(m.recall(form(weather, regionSchema, 'Which region, always?'))?.kind, 'answer');
    assert.equal(m.recall(form(agent))?.kind, 'answer', 'another asker keeps its session');
    m.endSession(impostor);
    m.endSession({ kind: 'gateway', name: 'weather' });
    assert.equal(m.recall(form(agent))?.kind, 'answer');
    m.endSession(agent);
    assert.equal(m.recall(form(agent)), undefined);
  });

  it('forgets one answer, every answer of an asker, or everything, in the vault too', async () => {
    const { memory: m, vault } = memory();
    await m.remember(form(weather), { region: 'us-east' }, 'always');
    await m.remember(form(weather, regionSchema, 'Second?'), { region: 'eu-west' }, 'always');
    await m.remember(form(impostor), { region: 'eu-west' }, 'session');
    await m.forget(m.list().find((e) => e.message === 'Second?')!.id);
    assert.equal(m.list().length, 2);
    await m.forgetAsker('mcp:origin-a');
    assert.deepEqual(
      m.list().map((e) => e.asker.key),
      ['mcp:origin-b'],
    );
    assert.equal(vault.text, undefined);
    await m.forgetAll();
    assert.equal(m.list().length, 0);
    assert.equal(m.recall(form(impostor)), undefined);
  });

  it('trusts nothing unreadable from the vault', async () => {
    const vault = new MemoryVaultStandIn();
    vault.text = JSON.stringify([{ id: 'x', scope: 'always' }, 'junk']);
    const m = new AnswerMemory(vault, () => 'always');
    await m.load();
    assert.equal(m.list().length, 0);
    vault.text = '{not json';
    await m.load();
    assert.equal(m.list().length, 0);
  });
});
