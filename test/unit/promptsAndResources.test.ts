/** Prompt arguments and template variables as forms, and prompt / resource results as Markdown. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { normalize } from '../../src/core/form/normalize';
import { argumentFormSchema, argumentValues, expandTemplate, promptArguments, templateArguments } from '../../src/mcp/argumentSchema';
import { fallbackReason, shouldFallBackToSse } from '../../src/mcp/httpFallback';
import { formatPromptResult } from '../../src/mcp/promptText';
import { formatResourceResult } from '../../src/mcp/resourceText';

describe('prompt arguments and template variables', () => {
  const prompt = {
    name: 'release_notes',
    arguments: [
      { name: 'version', description: 'The version', required: true },
      { name: 'audience', title: 'Audience' },
    ],
  };

  it('a prompt’s arguments become string fields, required as the server says (and never empty when required)', () => {
    const args = promptArguments(prompt);
    assert.deepEqual(args, [
      { name: 'version', description: 'The version', required: true },
      { name: 'audience', title: 'Audience', required: false },
    ]);
    const schema = argumentFormSchema(args);
    assert.deepEqual(schema, {
      type: 'object',
      properties: {
        version: { type: 'string', title: 'version', description: 'The version', minLength: 1 },
        audience: { type: 'string', title: 'Audience' },
      },
      required: ['version'],
    });
    const form = normalize(schema);
    assert.deepEqual(
      form.fields.map((f) => [f.name, f.kind, f.required]),
      [
        ['version', 'text', true],
        ['audience', 'text', false],
      ],
    );
  });

  it('no arguments: an empty form without "required"', () => {
    assert.deepEqual(argumentFormSchema(promptArguments({ name: 'x' })), { type: 'object', properties: {} });
  });

  it('answers become string arguments; empty optional ones are left out', () => {
    const args = promptArguments(prompt);
    assert.deepEqual(argumentValues(args, { version: '1.2.0', audience: '' }), { version: '1.2.0' });
    assert.deepEqual(argumentValues(args, { version: '1.2.0', audience: 'users', extra: 'x' }), { version: '1.2.0', audience: 'users' });
  });

  it('a template’s variables are all required, each once; the URI is expanded with encoding', async () => {
    const template = { name: 'file', uriTemplate: 'repo://{owner}/{repo}/blob{/path*}{?ref,owner}' };
    assert.deepEqual(
      (await templateArguments(template)).map((a) => [a.name, a.required]),
      [
        ['owner', true],
        ['repo', true],
        ['path', true],
        ['ref', true],
      ],
    );
    assert.equal(
      await expandTemplate({ name: 'r', uriTemplate: 'notes://release/{version}' }, { version: '1.0 beta' }),
      'notes://release/1.0%20beta',
    );
  });
});

describe('formatPromptResult', () => {
  it('shows the arguments, then each message under its role, with non-text content described', () => {
    const text = formatPromptResult(
      'notes',
      'release_notes',
      { version: '1.2.0' },
      {
        description: 'Drafts notes',
        messages: [
          { role: 'user', content: { type: 'text', text: 'Write notes for 1.2.0.' } },
          { role: 'assistant', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } },
          { role: 'user', content: { type: 'resource', resource: { uri: 'notes://x', mimeType: 'text/plain', text: 'body' } } },
        ],
      },
    );
    assert.equal(
      text,
      [
        '# notes › release_notes',
        '',
        '_Drafts notes_',
        '',
        'Arguments:',
        '',
        '- `version`: 1.2.0',
        '',
        '## 1. user',
        '',
        'Write notes for 1.2.0.',
        '',
        '## 2. assistant',
        '',
        '_[image: image/png, 3 bytes]_',
        '',
        '## 3. user',
        '',
        'Resource `notes://x` (text/plain)',
        '',
        '```\nbody\n```',
        '',
      ].join('\n'),
    );
  });

  it('says so when there are no messages', () => {
    assert.match(formatPromptResult('s', 'p', {}, { messages: [] }), /_The prompt has no messages._$/);
  });
});

describe('formatResourceResult', () => {
  it('text in a fence (longer than any backquote run inside), binary described by type and size', () => {
    const text = formatResourceResult('notes', 'notes://all', {
      contents: [
        { uri: 'notes://a.json', mimeType: 'application/json', text: '{"a": "```"}' },
        { uri: 'notes://logo.png', mimeType: 'image/png', blob: Buffer.from('0123456789').toString('base64') },
      ],
    });
    assert.match(text, /^# notes › notes:\/\/all\n/);
    assert.match(text, /Resource `notes:\/\/a\.json` \(application\/json\)\n\n````json\n\{"a": "```"\}\n````/);
    assert.match(text, /_Binary content: 10 bytes of image\/png._/);
  });

  it('an empty resource', () => {
    assert.match(formatResourceResult('s', 'u', { contents: [] }), /_The resource is empty._/);
  });
});

describe('shouldFallBackToSse', () => {
  it('falls back on a 4xx answer to the Streamable HTTP initialize, except for authorization problems', () => {
    for (const status of [400, 404, 405, 406]) assert.equal(shouldFallBackToSse(httpError(status, 'x')), true, String(status));
    for (const status of [401, 403, 500, 502, -1]) assert.equal(shouldFallBackToSse(httpError(status, 'x')), false, String(status));
    assert.equal(shouldFallBackToSse(new Error('fetch failed')), false);
    assert.equal(shouldFallBackToSse(Object.assign(new Error('x'), { code: 404 })), false, 'only the transport’s own HTTP errors');
  });

  it('says why in a few words, without the page the server sent along', () => {
    assert.equal(fallbackReason(httpError(404, 'Error POSTing to endpoint: <!DOCTYPE html>…')), 'HTTP 404');
  });
});

/** What the v2 client's Streamable HTTP transport throws for a POST the server refused. */
function httpError(status: number, message: string): SdkHttpError {
  return new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, message, { status });
}
