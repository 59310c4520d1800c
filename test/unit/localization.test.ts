/**
 * package.json's text comes from package.nls.json (VS Code's localization of
 * contributions): every placeholder has its English text, every English text
 * is used, and what a person reads is never a bare placeholder.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { placeholderKeys, readManifest, readNls, readRawManifest } from '../support/manifest';

describe('package.nls.json', () => {
  const raw = readRawManifest() as {
    contributes: { commands: Array<{ title: string }>; configuration: { properties: Record<string, Record<string, unknown>> } };
  };
  const nls = readNls();
  const used = placeholderKeys(raw);

  it('has the English text of every placeholder in package.json, and nothing else', () => {
    assert.ok(used.length > 50, `${used.length} placeholders`);
    assert.deepEqual(
      used.filter((key) => !(key in nls)),
      [],
      'placeholders without text',
    );
    assert.deepEqual(
      Object.keys(nls).filter((key) => !used.includes(key)),
      [],
      'texts no placeholder uses',
    );
    assert.equal(new Set(used).size, used.length, 'each text is used once');
  });

  it('holds every command title and setting description people read', () => {
    for (const command of raw.contributes.commands) assert.match(command.title, /^%.+%$/);
    for (const [name, setting] of Object.entries(raw.contributes.configuration.properties)) {
      const text = setting.markdownDescription ?? setting.description;
      assert.match(String(text), /^%.+%$/, name);
    }
  });

  it('leaves no placeholder unresolved once localized', () => {
    const localized = JSON.stringify(readManifest());
    assert.doesNotMatch(localized, /"%[\w.]+%"/);
    assert.match(localized, /"Run MCP Tool"/);
  });
});
