/** Rules per asker (issue #22): always decline a question kind, never open links; by origin, never rate-limited (issue #33). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AnswerMemory, type RememberSetting } from '../../src/core/memory/answerMemory';
import { ruleFor } from '../../src/core/memory/askerRules';
import type { Asker, FormRequest, GroupRequest, UrlRequest } from '../../src/core/request';

const weather: Asker = { kind: 'mcp', name: 'weather', origin: 'origin-a' };
const impostor: Asker = { kind: 'mcp', name: 'weather', origin: 'origin-b' };
const schema = { type: 'object', properties: { region: { type: 'string', enum: ['eu-west', 'us-east'] } }, required: ['region'] };

const form = (asker: Asker, message = 'Which region?', s: unknown = schema): FormRequest => ({
  mode: 'form',
  asker,
  message,
  requestedSchema: s,
});
const link = (asker: Asker): UrlRequest => ({ mode: 'url', asker, message: 'Sign in', url: 'https://example.com/a', elicitationId: 'e1' });

function store(setting: RememberSetting = 'always', now: () => number = Date.now) {
  let text: string | undefined;
  const vault = { read: async () => text, write: async (t: string | undefined) => void (text = t), text: () => text };
  return { memory: new AnswerMemory({ read: async () => undefined, write: async () => undefined }, () => setting, now, vault), vault };
}

describe('asker rules', () => {
  it('declines the same question kind of the same asker, and only that', async () => {
    const { memory } = store();
    assert.equal(memory.declineRule(form(weather)), undefined, 'no rule yet');
    const rule = await memory.rules.add(form(weather));
    assert.equal(rule?.kind, 'decline');
    assert.equal(memory.declineRule(form(weather))?.id, rule.id);
    assert.equal(memory.declineRule(form(weather, 'Which city?')), undefined, 'another question kind is asked');
    const changed = { ...schema, properties: { region: { type: 'string', enum: ['eu-west', 'delete-all'] } } };
    assert.equal(memory.declineRule(form(weather, 'Which region?', changed)), undefined, 'a changed option is another kind');
    assert.equal(memory.declineRule(form(impostor)), undefined, 'an impostor with the same name is another asker');
    assert.equal(memory.declineRule(link(weather)), undefined, 'a decline rule does not stop links');
  });

  // Issue #33, finding 8: rules shared the automatic-answer limit, so past 10 a minute the consent dialogs came back.
  it('declines by a rule are never rate-limited: the 50th link in a minute is declined like the first, the counts written once', async () => {
    let writes = 0;
    const vault = { read: async () => undefined, write: async () => void writes++ };
    const memory = new AnswerMemory(
      { read: async () => undefined, write: async () => undefined },
      () => 'always',
      () => 1_000,
      vault,
    );
    await memory.rules.add(link(weather));
    await memory.rules.add(form(weather));
    const before = writes;
    for (let i = 0; i < 50; i++) {
      assert.equal(memory.declineRule(link(weather))?.kind, 'noLinks', `link ${i + 1}`);
      assert.equal(memory.declineRule(form(weather))?.kind, 'decline', `question ${i + 1}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    assert.equal(writes - before, 1, 'a flood of declines is one write of the counts');
    assert.equal(memory.rules.list().find((r) => r.kind === 'noLinks')?.count, 50);
  });

  it('never opens links of an asker that has the rule: its URL questions are declined, its forms asked', async () => {
    const { memory } = store();
    assert.equal(ruleFor(link(weather)), 'noLinks');
    await memory.rules.add(link(weather));
    assert.equal(memory.declineRule(link(weather))?.kind, 'noLinks');
    assert.equal(memory.declineRule(link(impostor)), undefined);
    assert.equal(memory.declineRule(form(weather)), undefined);
  });

  it('is offered on a link question only while memory is on, and only for a known asker', () => {
    assert.equal(store('always').memory.ruleOffer(link(weather)), 'noLinks');
    assert.equal(store('session').memory.ruleOffer(link(weather)), 'noLinks');
    assert.equal(store('always').memory.ruleOffer(form(weather)), 'decline');
    assert.equal(store('off').memory.ruleOffer(link(weather)), undefined, 'memory turned off: no rule is offered');
    assert.equal(store('always').memory.ruleOffer(link({ kind: 'mcp', name: 'weather' })), undefined, 'an asker without origin');
  });

  it('is never set for an asker without identity (gateway client, public API, no origin)', async () => {
    const { memory } = store();
    for (const asker of [
      { kind: 'gateway', name: 'weather' },
      { kind: 'extension', name: 'x' },
      { kind: 'mcp', name: 'weather' },
    ] as Asker[]) {
      assert.equal(ruleFor(form(asker)), undefined);
      assert.equal(await memory.rules.add(form(asker)), undefined);
      assert.equal(memory.declineRule(form(asker)), undefined);
    }
  });

  it('declines a round only as the same round', async () => {
    const { memory } = store();
    const round = (second: string): GroupRequest => ({
      mode: 'group',
      asker: weather,
      message: 'Setup',
      sections: [
        { key: 'a', message: 'Which region?', requestedSchema: schema },
        { key: 'b', message: second, requestedSchema: schema },
      ],
    });
    await memory.rules.add(round('Which zone?'));
    assert.ok(memory.declineRule(round('Which zone?')));
    assert.equal(memory.declineRule(round('Which rack?')), undefined);
  });

  it('does nothing when answer memory is turned off', async () => {
    const { memory } = store('off');
    await memory.rules.add(form(weather));
    assert.equal(memory.declineRule(form(weather)), undefined);
  });

  it('is kept in its vault without any value, read back, and forgotten one, per asker or all', async () => {
    const { memory, vault } = store();
    const one = await memory.rules.add(form(weather));
    await memory.rules.add(link(weather));
    await memory.rules.add(form(impostor));
    const text = vault.text()!;
    assert.ok(!text.includes('eu-west'), 'no option or value in the store');
    const again = new AnswerMemory({ read: async () => undefined, write: async () => undefined }, () => 'always', Date.now, {
      read: async () => text,
      write: async () => undefined,
    });
    await again.rules.load();
    assert.equal(again.rules.list().length, 3);
    await memory.rules.forget(one!.id);
    assert.equal(memory.declineRule(form(weather)), undefined);
    assert.equal(memory.rules.list().length, 2);
    await memory.rules.forgetAsker('mcp:origin-a');
    assert.deepEqual(
      memory.rules.list().map((r) => r.asker.key),
      ['mcp:origin-b'],
    );
    await memory.rules.forgetAll();
    assert.equal(vault.text(), undefined);
  });

  it('goes with its asker\'s answers on "forget all of an asker" and "forget everything"', async () => {
    const { memory } = store();
    await memory.rules.add(form(weather));
    await memory.rules.add(form(impostor));
    await memory.forgetAsker('mcp:origin-a');
    assert.deepEqual(
      memory.rules.list().map((r) => r.asker.key),
      ['mcp:origin-b'],
    );
    await memory.forgetAll();
    assert.equal(memory.rules.list().length, 0);
  });

  it('drops a damaged or forged store', async () => {
    const memory = new AnswerMemory({ read: async () => undefined, write: async () => undefined }, () => 'always', Date.now, {
      read: async () => JSON.stringify([{ id: 'x', kind: 'accept', asker: { key: 'k', name: 'n' }, created: 1, count: 0 }, 'junk']),
      write: async () => undefined,
    });
    await memory.rules.load();
    assert.equal(memory.rules.list().length, 0);
  });
});
