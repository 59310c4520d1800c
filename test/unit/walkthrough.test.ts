/**
 * The Get Started walkthrough takes a new user from install to a first
 * answered question. Its steps must point at things that exist: commands
 * Elicit contributes, views it has, media that ships in the VSIX.
 */
import './vscodeStandIn/install';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import type { AnsweredQuestion } from '../../src/core/broker/broker';
import { Emitter } from '../../src/core/events';
import { readManifest, repoRoot } from '../support/manifest';
import { trackWalkthrough, WALKTHROUGH_CONTEXT } from '../../src/vscode/walkthroughProgress';
import { standIn } from './vscodeStandIn/vscode';

interface Step {
  id: string;
  title: string;
  description: string;
  media: { markdown?: string; image?: string; altText?: string };
  completionEvents?: string[];
}

const manifest = readManifest<{
  contributes: {
    commands: Array<{ command: string }>;
    views: Record<string, Array<{ id: string }>>;
    walkthroughs: Array<{ id: string; title: string; description: string; steps: Step[] }>;
  };
}>();
const commands = new Set(manifest.contributes.commands.map((c) => c.command));
const views = new Set(Object.values(manifest.contributes.views).flatMap((list) => list.map((v) => v.id)));
const [walkthrough] = manifest.contributes.walkthroughs;
const shipped = fs.readFileSync(path.join(repoRoot, '.vscodeignore'), 'utf8');

describe('the Get Started walkthrough', () => {
  it('goes from a server to a run tool, an answer, Pending Questions and saved secrets', () => {
    assert.ok(walkthrough);
    assert.deepEqual(
      walkthrough.steps.map((s) => s.id),
      ['servers', 'runTool', 'answer', 'pending', 'secrets'],
    );
  });

  for (const step of walkthrough?.steps ?? []) {
    describe(`step "${step.title}"`, () => {
      it('has a button that runs a command Elicit contributes', () => {
        const links = [...step.description.matchAll(/\]\(command:([\w.]+)\)/g)].map((m) => m[1]!);
        assert.ok(links.length > 0, 'a command link');
        for (const command of links) assert.ok(commands.has(command), command);
      });

      it('is checked off by a command or view that exists', () => {
        assert.ok(step.completionEvents && step.completionEvents.length > 0);
        for (const event of step.completionEvents) {
          const [kind, target] = event.split(':') as [string, string];
          if (kind === 'onCommand') assert.ok(commands.has(target), event);
          else if (kind === 'onView') assert.ok(views.has(target), event);
          // A context key Elicit sets when the person has done what the step is about (walkthroughProgress.ts).
          else if (kind === 'onContext') assert.ok(Object.values(WALKTHROUGH_CONTEXT).includes(target as never), event);
          else assert.fail(`unexpected completion event ${event}`);
        }
      });

      it('shows media that exists and ships in the VSIX', () => {
        const file = step.media.markdown ?? step.media.image;
        assert.ok(file, 'media');
        const text = fs.readFileSync(path.join(repoRoot, file), 'utf8');
        assert.match(file, /^media\//, 'media/ is in the VSIX');
        assert.match(shipped, /^!media\/\*\*$/m);
        if (step.media.markdown) assert.match(text, /^# /, 'a heading');
      });
    });
  }
});

// Issue #25 item 9: the walkthrough reflects what the person did, in the demo or anywhere.
describe('the walkthrough progress', () => {
  afterEach(() => standIn.reset());

  function fakes() {
    const broker = { answered: new Emitter<AnsweredQuestion>(), changed: new Emitter<void>(), pending: [] as Array<{ state: string }> };
    const vault = { changed: new Emitter<void>(), saved: 0 };
    const registry = { changed: new Emitter<void>(), statuses: [] as string[] };
    const services = {
      broker: {
        onDidAnswer: broker.answered.event,
        onDidChange: broker.changed.event,
        pending: () => (reads.pending++, broker.pending),
      },
      vault: { onDidChange: vault.changed.event, list: () => (reads.secrets++, Array.from({ length: vault.saved })) },
      registry: {
        onDidChange: registry.changed.event,
        servers: async () => (reads.servers++, registry.statuses.map((status) => ({ status }))),
      },
    } as unknown as Parameters<typeof trackWalkthrough>[0];
    const reads = { pending: 0, secrets: 0, servers: 0 };
    return { broker, vault, registry, services, reads };
  }

  const contextsSet = (): unknown[] => standIn.commands.filter((c) => c[0] === 'setContext' && c[2] === true).map((c) => c[1]);
  const stepsCheckedOff = (): unknown[] =>
    standIn.commands
      .filter((c) => c[0] === 'welcome.markStepComplete')
      .map((c) => String(c[1]).replace(/^elicit-dev\.elicit#gettingStarted#/, ''));
  const question = (request: Record<string, unknown>) =>
    ({ request: { mode: 'form', ...request } }) as unknown as AnsweredQuestion['question'];

  it('checks a step off when the person did what it is about, once', async () => {
    const { broker, vault, registry, services } = fakes();
    const tracking = trackWalkthrough(services);
    try {
      assert.deepEqual(contextsSet(), []);
      assert.deepEqual(stepsCheckedOff(), []);
      // Elicit asking for a tool's arguments, and a question that timed out, are not the person answering a server.
      broker.answered.fire({ question: question({ onBehalf: { title: 'x' } }), result: { action: 'accept' }, answeredAt: 0 });
      broker.answered.fire({ question: question({}), result: { action: 'cancel' }, answeredAt: 0, reason: 'timeout' });
      broker.answered.fire({ question: question({}), result: { action: 'cancel' }, answeredAt: 0 });
      assert.deepEqual(contextsSet(), []);
      broker.answered.fire({ question: question({}), result: { action: 'decline' }, answeredAt: 0 });
      broker.answered.fire({ question: question({}), result: { action: 'accept' }, answeredAt: 0 });
      broker.pending.push({ state: 'showing' });
      broker.changed.fire();
      broker.pending.push({ state: 'later' });
      broker.changed.fire();
      vault.saved = 1;
      vault.changed.fire();
      registry.statuses.push('error');
      registry.changed.fire();
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(contextsSet(), [WALKTHROUGH_CONTEXT.answered, WALKTHROUGH_CONTEXT.putOff, WALKTHROUGH_CONTEXT.secretKept]);
      registry.statuses.push('running');
      registry.changed.fire();
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(contextsSet().at(-1), WALKTHROUGH_CONTEXT.serverConnected);
      // VS Code's walkthrough service starts only with the Welcome page and misses what came before: each step is checked off directly too.
      assert.deepEqual(stepsCheckedOff(), ['answer', 'pending', 'secrets', 'servers']);
    } finally {
      tracking.dispose();
    }
  });

  it('once a step is checked off, looks no more at what every question and server change brings', async () => {
    const { broker, vault, registry, services, reads } = fakes();
    const tracking = trackWalkthrough(services);
    try {
      broker.pending.push({ state: 'later' });
      broker.changed.fire();
      vault.saved = 1;
      vault.changed.fire();
      registry.statuses.push('running');
      registry.changed.fire();
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(stepsCheckedOff(), ['pending', 'secrets', 'servers']);
      const before = { ...reads };
      // A burst of questions and server changes, as many servers asking make.
      for (let i = 0; i < 100; i++) {
        broker.changed.fire();
        vault.changed.fire();
        registry.changed.fire();
      }
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(reads, before);
    } finally {
      tracking.dispose();
    }
  });
});
