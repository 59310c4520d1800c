/** formatToolResult: a tool result as Markdown for a read-only editor. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { formatToolResult } from '../../src/mcp/resultText';

function format(result: CallToolResult): string {
  return formatToolResult('weather', 'get_forecast', result).markdown;
}

describe('formatToolResult', () => {
  it('a heading naming server and tool, then text items as written', () => {
    const markdown = format({
      content: [
        { type: 'text', text: 'Sunny, **22°C**' },
        { type: 'text', text: 'Wind: 3 m/s' },
      ],
    });
    assert.equal(markdown, '# weather › get_forecast\n\nSunny, **22°C**\n\nWind: 3 m/s\n');
  });

  it('flags an error result before its content', () => {
    const markdown = format({ isError: true, content: [{ type: 'text', text: 'City not found' }] });
    const lines = markdown.split('\n');
    assert.equal(lines[2], '> **The tool reported an error.**');
    assert.ok(markdown.indexOf('reported an error') < markdown.indexOf('City not found'));
    assert.ok(!format({ isError: false, content: [{ type: 'text', text: 'x' }] }).includes('reported an error'));
  });

  it('describes images and audio instead of inlining them', () => {
    const markdown = format({
      content: [
        { type: 'image', mimeType: 'image/png', data: 'A'.repeat(400) },
        { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
      ],
    });
    assert.ok(markdown.includes('_[image: image/png, 300 bytes]_'), markdown);
    assert.ok(markdown.includes('_[audio: audio/wav, 3 bytes]_'), markdown);
    assert.ok(!markdown.includes('AAAA'));
  });

  it('links resource links, with their description', () => {
    const markdown = format({
      content: [
        { type: 'resource_link', uri: 'file:///tmp/report.csv', name: 'report.csv', description: 'The full report' },
        { type: 'resource_link', uri: 'https://example.com/x', name: 'x' },
      ],
    });
    assert.ok(markdown.includes('[report.csv](file:///tmp/report.csv) — The full report'), markdown);
    assert.ok(markdown.includes('[x](https://example.com/x)\n'), markdown);
  });

  it('embedded resources: the uri and mime type, and their text fenced', () => {
    const markdown = format({
      content: [
        { type: 'resource', resource: { uri: 'file:///notes.md', mimeType: 'text/markdown', text: '# not a heading here' } },
        { type: 'resource', resource: { uri: 'file:///blob.bin', blob: 'AAAA' } },
      ],
    });
    assert.ok(markdown.includes('Resource file:///notes.md (text/markdown)\n\n```\n# not a heading here\n```'), markdown);
    assert.ok(markdown.includes('Resource file:///blob.bin\n'), markdown);
    assert.ok(!markdown.includes('AAAA'));
  });

  it('a fence is always longer than any backtick run in the fenced text', () => {
    const text = 'before\n```js\nconsole.log(1)\n```\nafter ````` five';
    const markdown = format({ content: [{ type: 'resource', resource: { uri: 'file:///x', text } }] });
    assert.ok(markdown.includes(`\`\`\`\`\`\`\n${text}\n\`\`\`\`\`\``), markdown);
    const plain = format({ content: [{ type: 'resource', resource: { uri: 'file:///y', text: 'one ` tick' } }] });
    assert.ok(plain.includes('```\none ` tick\n```'), plain);
  });

  it('text items containing ``` fences are kept as written (they are Markdown)', () => {
    const text = 'Run:\n```sh\nnpm test\n```';
    const markdown = format({ content: [{ type: 'text', text }] });
    assert.ok(markdown.includes(`\n${text}\n`));
  });

  it('structured content as a JSON block in a part of its own, shown folded away, fenced safely', () => {
    const result = { content: [{ type: 'text' as const, text: 'ok' }], structuredContent: { temperature: 22, note: 'has ``` inside' } };
    const json = JSON.stringify({ temperature: 22, note: 'has ``` inside' }, null, 2);
    const document = formatToolResult('weather', 'get_forecast', result);
    assert.equal(document.folded?.summary, 'Structured content (JSON)');
    assert.equal(document.folded?.markdown, `\`\`\`\`json\n${json}\n\`\`\`\``);
    assert.ok(!document.markdown.includes('temperature'), 'not in the part shown open');
    assert.ok(!document.markdown.includes('no content'));
  });

  it('structured content alone is not "no content"', () => {
    const document = formatToolResult('weather', 'get_forecast', { content: [], structuredContent: { a: 1 } });
    assert.equal(document.folded?.markdown, '```json\n{\n  "a": 1\n}\n```');
    assert.ok(!document.markdown.includes('_The tool returned no content._'));
  });

  it('an empty result says so', () => {
    assert.equal(format({ content: [] }), '# weather › get_forecast\n\n_The tool returned no content._');
    assert.ok(format({} as CallToolResult).endsWith('_The tool returned no content._'));
    assert.ok(format({ isError: true, content: [] }).includes('> **The tool reported an error.**\n\n_The tool returned no content._'));
  });

  it('unknown content types are shown as JSON', () => {
    const markdown = format({ content: [{ type: 'hologram', frames: 3 } as unknown as CallToolResult['content'][number]] });
    assert.ok(markdown.includes('```json\n{\n  "type": "hologram",\n  "frames": 3\n}\n```'), markdown);
  });
});
