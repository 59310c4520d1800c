/**
 * Prompts, resources, templates and completions through McpConnection, a tool
 * call that needs a URL step first (-32042) and succeeds on retry, and a server
 * started with `${input:…}` values and an envFile.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Question } from '../../src/core/broker/broker';
import { argumentFormSchema, expandTemplate, promptArguments, templateArguments } from '../../src/mcp/argumentSchema';
import {
  complete,
  getPrompt,
  listPrompts,
  listResources,
  listResourceTemplates,
  offersCompletions,
  readResource,
} from '../../src/mcp/catalog';
import type { ServerConfig } from '../../src/core/mcpConfig/serverConfig';
import { McpConnection } from '../../src/mcp/connection';
import { resolveLaunch } from '../../src/mcp/launch';
import { formatPromptResult } from '../../src/mcp/promptText';
import { formatResourceResult } from '../../src/mcp/resourceText';
import { connectScripted, everythingEntry, fixture, stdioServer, textOf } from '../support/mcpServers';
import { newRecordFile, readRecords } from '../support/records';

const opened: McpConnection[] = [];
after(async () => {
  await Promise.all(opened.map((c) => c.stop()));
});

describe('prompts, resources and completions of server-everything', () => {
  const { connection } = connectScripted(stdioServer('everything', everythingEntry, {}, ['stdio']), () => ({ action: 'cancel' }), opened);

  it('lists prompts with their arguments and gets one', async () => {
    const prompts = await listPrompts(connection);
    const args = prompts.find((p) => p.name === 'args-prompt')!;
    assert.deepEqual(
      promptArguments(args).map((a) => [a.name, a.required]),
      [
        ['city', true],
        ['state', false],
      ],
    );
    const result = await getPrompt(connection, 'args-prompt', { city: 'Berlin' });
    assert.match(formatPromptResult('everything', 'args-prompt', { city: 'Berlin' }, result), /What's weather in Berlin\?/);
  });

  it('offers completions, narrowed by the arguments already given', async () => {
    assert.equal(await offersCompletions(connection), true);
    const ref = { type: 'ref/prompt' as const, name: 'completable-prompt' };
    assert.deepEqual((await complete(connection, ref, { name: 'department', value: '' }, {})).values, [
      'Engineering',
      'Sales',
      'Marketing',
      'Support',
    ]);
    assert.deepEqual((await complete(connection, ref, { name: 'department', value: 'S' }, {})).values, ['Sales', 'Support']);
    assert.deepEqual((await complete(connection, ref, { name: 'name', value: '' }, { department: 'Sales' })).values, [
      'David',
      'Eve',
      'Frank',
    ]);
    const result = await getPrompt(connection, 'completable-prompt', { department: 'Sales', name: 'Eve' });
    assert.match(formatPromptResult('everything', 'completable-prompt', {}, result), /Please promote Eve to the head of the Sales team/);
  });

  it('lists resources and templates; reads text and describes binary; expands a template', async () => {
    const resources = await listResources(connection);
    assert.ok(resources.length > 0);
    const templates = await listResourceTemplates(connection);
    const textTemplate = templates.find((t) => t.uriTemplate.includes('/text/'))!;
    assert.deepEqual(
      (await templateArguments(textTemplate)).map((a) => a.name),
      ['resourceId'],
    );
    const uri = await expandTemplate(textTemplate, { resourceId: '7' });
    const text = formatResourceResult('everything', uri, await readResource(connection, uri));
    assert.match(text, /Resource 7: This is a plaintext resource/);
    const blobTemplate = templates.find((t) => t.uriTemplate.includes('/blob/'))!;
    const blobUri = await expandTemplate(blobTemplate, { resourceId: '3' });
    assert.match(
      formatResourceResult('everything', blobUri, await readResource(connection, blobUri)),
      /_Binary content: \d+ bytes of text\/plain._/,
    );
    const completion = await complete(
      connection,
      { type: 'ref/resource', uri: textTemplate.uriTemplate },
      { name: 'resourceId', value: '5' },
      {},
    );
    assert.deepEqual(completion.values, ['5']);
  });
});

describe('the catalog fixture (no completions)', () => {
  const record = newRecordFile();
  const seen: Question[] = [];
  const { connection } = connectScripted(
    stdioServer('catalog', fixture('catalog-server.mjs'), { RECORD_FILE: record, COMPLETE_DELAY_MS: '200' }),
    (q) => {
      seen.push(q);
      return { action: 'accept' };
    },
    opened,
  );

  it('has no completions, so prompt arguments go through a form', async () => {
    assert.equal(await offersCompletions(connection), false);
    const prompt = (await listPrompts(connection)).find((p) => p.name === 'release_notes')!;
    const schema = argumentFormSchema(promptArguments(prompt));
    assert.deepEqual(schema.required, ['version']);
    const result = await getPrompt(connection, 'release_notes', { version: '2.0.0' });
    assert.equal(result.messages.length, 2);
    assert.deepEqual(readRecords(record).find((r) => r.prompt)?.arguments, { version: '2.0.0' });
  });

  it('lists its resources and the template; a server without prompts capability has none', async () => {
    assert.deepEqual(
      (await listResources(connection)).map((r) => r.uri),
      ['notes://changelog', 'notes://logo.png'],
    );
    assert.deepEqual(
      (await listResourceTemplates(connection)).map((t) => t.uriTemplate),
      ['notes://release/{version}'],
    );
    const unreliable = connectScripted(
      stdioServer('tools-only', fixture('unreliable-server.mjs')),
      () => ({ action: 'cancel' }),
      opened,
    ).connection;
    assert.deepEqual(await listPrompts(unreliable), []);
    assert.deepEqual(await listResources(unreliable), []);
  });

  it('a server that declares resources but answers resources/templates/list with -32601 has no templates, and its resources still list', async () => {
    const plain = connectScripted(
      stdioServer('resources-only', fixture('resources-only-server.mjs')),
      () => ({ action: 'cancel' }),
      opened,
    ).connection;
    assert.deepEqual(await listResourceTemplates(plain), []);
    assert.deepEqual(
      (await listResources(plain)).map((r) => r.uri),
      ['sketch://latest'],
    );
  });

  it('-32042: consent to the URL, the server reports completion, the call is retried once and succeeds', async () => {
    seen.length = 0;
    const result = await connection.callTool('needs_sign_in', {});
    assert.equal(textOf(result), 'Signed in; the report is ready.');
    assert.deepEqual(
      seen.map((q) => q.presentation),
      ['url'],
      'no retry question: the completion came in time',
    );
    assert.equal(seen[0]!.url!.url, 'https://reports.example.com/sign-in');
    assert.equal(seen[0]!.request.asker.detail, 'tool needs_sign_in');
    const events = readRecords(record).filter((r) => r.tool === 'needs_sign_in');
    assert.deepEqual(
      events.map((r) => Object.keys(r).find((k) => k !== 'server' && k !== 'tool')),
      ['required', 'completed', 'retried'],
    );
  });
});

describe('a declined -32042 step is not retried', () => {
  it('fails the call with a sentence and never calls the tool again', async () => {
    const record = newRecordFile();
    const { connection } = connectScripted(
      stdioServer('catalog-decline', fixture('catalog-server.mjs'), { RECORD_FILE: record }),
      () => ({ action: 'decline' }),
      opened,
    );
    await assert.rejects(
      connection.callTool('needs_sign_in', {}),
      /needs_sign_in needs a step in your browser first \(reports\.example\.com\), which was declined/,
    );
    assert.equal(readRecords(record).filter((r) => r.retried).length, 0);
  });
});

describe('starting with ${input:…} values and an envFile', () => {
  it('the process sees the envFile, the configured env over it, and the filled-in inputs', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'elicit-envfile-'));
    writeFileSync(join(folder, '.env'), '# settings\nFROM_FILE=file-value\nOVERRIDDEN=from-file\nQUOTED="two\\nlines"\n');
    const config: ServerConfig = {
      name: 'everything-env',
      source: '.vscode/mcp.json',
      origin: { file: `file://${folder}/.vscode/mcp.json`, folder },
      inputs: [{ id: 'token', type: 'promptString', description: 'Token', password: true }],
      transport: {
        type: 'stdio',
        command: process.execPath,
        args: [everythingEntry, 'stdio'],
        env: { OVERRIDDEN: 'configured', TOKEN: 'Bearer ${input:token}' },
        envFile: '.env',
      },
    };
    let asked = 0;
    const connection = new McpConnection(config, {
      ask: async () => ({ action: 'cancel' }),
      log: () => undefined,
      prepare: (server) => {
        asked++;
        return resolveLaunch(server, { inputValues: { token: 't0k3n' } });
      },
    });
    opened.push(connection);
    const env = JSON.parse(textOf(await connection.callTool('get-env', {}))) as Record<string, string>;
    assert.equal(env.FROM_FILE, 'file-value');
    assert.equal(env.OVERRIDDEN, 'configured');
    assert.equal(env.QUOTED, 'two\nlines');
    assert.equal(env.TOKEN, 'Bearer t0k3n');
    assert.equal(asked, 1);
  });

  it('without values for its inputs the server does not start, and says which input is missing', async () => {
    const config: ServerConfig = {
      name: 'needs-input',
      source: 'test',
      inputs: [{ id: 'token', type: 'promptString', description: 'Token', password: true }],
      transport: { type: 'stdio', command: process.execPath, args: [everythingEntry, 'stdio'], env: { TOKEN: '${input:token}' } },
    };
    const connection = new McpConnection(config, { ask: async () => ({ action: 'cancel' }), log: () => undefined });
    opened.push(connection);
    await assert.rejects(connection.connect(), /Could not start MCP server "needs-input": no value for \$\{input:token\}/);
    assert.equal(connection.status, 'error');
  });
});
