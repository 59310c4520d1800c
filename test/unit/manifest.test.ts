/**
 * What a newcomer meets first in package.json's contributions: the order of
 * "Elicit:" commands in the Command Palette, setting values that explain
 * themselves, and an activity-bar icon that works in every theme.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { readManifest, repoRoot as root } from '../support/manifest';

const manifest = readManifest<{
  contributes: {
    commands: Array<{ command: string; title: string; category?: string }>;
    menus: { commandPalette: Array<{ command: string; when: string }> };
    configuration: {
      properties: Record<string, { enum?: string[]; enumDescriptions?: string[]; enumItemLabels?: string[]; markdownDescription?: string }>;
    };
    viewsContainers: { activitybar: Array<{ id: string; icon: string }> };
  };
}>();

/** Commands that change or forget something: never the one Enter runs after typing "Elicit:". */
const CHANGES_THINGS = new Set([
  'elicit.clearHistory',
  'elicit.rotateGatewayToken',
  'elicit.stopGateway',
  'elicit.stopServer',
  'elicit.restartServer',
  'elicit.signOut',
  'elicit.manageSecrets',
]);

describe('the Command Palette after typing "Elicit:"', () => {
  // VS Code lists commands never run before by label (localeCompare), and pre-selects the first.
  // Hidden always ('false'), or listed only in a state of its own (Answer in Elicit's Form, while an app shows).
  const hidden = new Set(manifest.contributes.menus.commandPalette.filter((m) => m.when !== undefined).map((m) => m.command));
  const listed = manifest.contributes.commands
    .filter((c) => !hidden.has(c.command) && c.category === 'Elicit')
    .map((c) => ({ command: c.command, label: `${c.category}: ${c.title}` }))
    .sort((a, b) => a.label.localeCompare(b.label));

  it('pre-selects a command that changes nothing, and lists forgetting the history well down', () => {
    assert.ok(!CHANGES_THINGS.has(listed[0]!.command), `first: ${listed[0]!.label}`);
    // Until an address is chosen (elicit.devices.address), it asks where to listen before it changes anything.
    assert.equal(listed[0]!.label, 'Elicit: Answer on Another Device…');
    assert.equal(listed[1]!.label, 'Elicit: Configure MCP Servers (.vscode/mcp.json)');
    const forget = listed.findIndex((c) => c.command === 'elicit.clearHistory');
    assert.ok(forget >= 2, `Forget Question History is at ${forget}`);
  });
});

describe('settings', () => {
  it('every choice setting describes each of its values, where the Settings editor shows them', () => {
    for (const [name, setting] of Object.entries(manifest.contributes.configuration.properties)) {
      if (!setting.enum) continue;
      assert.equal(setting.enumDescriptions?.length, setting.enum.length, `${name}: enumDescriptions`);
      assert.equal(setting.enumItemLabels?.length, setting.enum.length, `${name}: enumItemLabels`);
      // The list under the title is visible without opening the dropdown.
      for (const label of setting.enumItemLabels!)
        assert.match(setting.markdownDescription ?? '', new RegExp(`\\*\\*${label}\\*\\*`), `${name}: ${label}`);
    }
  });
});

describe('the activity-bar icon', () => {
  const icon = fs.readFileSync(path.join(root, manifest.contributes.viewsContainers.activitybar[0]!.icon), 'utf8');

  it('is a 24×24 SVG drawn in one colour (VS Code masks it with the theme colour)', () => {
    assert.match(icon, /viewBox="0 0 24 24"/);
    const colours = [...icon.matchAll(/(?:fill|stroke|color|stop-color)="([^"]+)"/g)].map((m) => m[1]);
    assert.ok(colours.length > 0);
    assert.deepEqual(
      [...new Set(colours)].filter((c) => c !== 'currentColor' && c !== 'none'),
      [],
    );
    assert.doesNotMatch(icon, /<(image|style|linearGradient|radialGradient|text)\b|opacity=/);
  });
});
