/**
 * The Get Started walkthrough takes a new user from install to a first
 * answered question. Its steps must point at things that exist: commands
 * Elicit contributes, views it has, media that ships in the VSIX.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { readManifest, repoRoot } from '../support/manifest';

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
