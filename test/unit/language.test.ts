/**
 * The person's language and the asker's (draft SEP-2792): VS Code's display
 * language as an Accept-Language value, a server's contentLanguage read only
 * when it is a language tag, and the transport stamp that puts the preference
 * on every request (and on nothing else), keeping what `_meta` held.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { acceptLanguageFor, ACCEPT_LANGUAGE_META, contentLanguageIn, CONTENT_LANGUAGE_META } from '../../src/core/language';
import { stampAcceptLanguage, withAcceptLanguage } from '../../src/mcp/acceptLanguage';
import { elicitRequestFrom } from '../../src/core/broker/elicitParams';
import { roundLanguage } from '../../src/mcp/rounds';

describe('acceptLanguageFor', () => {
  it("writes VS Code's display language as a language tag", () => {
    assert.equal(acceptLanguageFor('en'), 'en');
    assert.equal(acceptLanguageFor('de'), 'de');
    assert.equal(acceptLanguageFor('zh-cn'), 'zh-CN');
    assert.equal(acceptLanguageFor('pt-br'), 'pt-BR');
    assert.equal(acceptLanguageFor('sr-latn'), 'sr-Latn');
  });

  it('sends nothing for what is not a tag', () => {
    for (const odd of [undefined, '', 'e', 'en_US', 'de, en', 'de\r\nX-Evil: 1', 'x'.repeat(20)])
      assert.equal(acceptLanguageFor(odd), undefined, String(odd));
  });
});

describe('contentLanguageIn', () => {
  it('reads the first language a server names, and only a tag', () => {
    assert.equal(contentLanguageIn({ [CONTENT_LANGUAGE_META]: 'de' }), 'de');
    assert.equal(contentLanguageIn({ [CONTENT_LANGUAGE_META]: 'fr-CA, en' }), 'fr-CA');
    for (const odd of ['"><script>x</script>', 'de x', '', 42, null])
      assert.equal(contentLanguageIn({ [CONTENT_LANGUAGE_META]: odd }), undefined);
    assert.equal(contentLanguageIn(undefined), undefined);
  });

  it('reaches a question: a 2025-era elicitation and a round', () => {
    const request = elicitRequestFrom(
      'elicitation/create',
      { message: 'Name?', requestedSchema: {}, _meta: { [CONTENT_LANGUAGE_META]: 'nl' } },
      { kind: 'mcp', name: 's' },
      new AbortController().signal,
    );
    assert.equal(request.language, 'nl');
    const inputRequests = { a: { method: 'elicitation/create', params: { message: 'x', _meta: { [CONTENT_LANGUAGE_META]: 'it' } } } };
    assert.equal(roundLanguage({ [CONTENT_LANGUAGE_META]: 'es' }, inputRequests), 'es', "the round's own first");
    assert.equal(roundLanguage(undefined, inputRequests), 'it', 'else its questions');
  });
});

describe('stampAcceptLanguage', () => {
  it('adds the preference to every request and keeps the rest of _meta; notifications and responses are left alone', async () => {
    const [client, server] = InMemoryTransport.createLinkedPair();
    const seen: JSONRPCMessage[] = [];
    server.onmessage = (message) => void seen.push(message);
    await server.start();
    await client.start();
    stampAcceptLanguage(client, 'de');
    await client.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    await client.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 't', _meta: { progressToken: 7 } } });
    await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await client.send({ jsonrpc: '2.0', id: 9, result: {} });
    assert.deepEqual(seen, [
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { [ACCEPT_LANGUAGE_META]: 'de' } } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 't', _meta: { progressToken: 7, [ACCEPT_LANGUAGE_META]: 'de' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 9, result: {} },
    ]);
  });

  it('uses a configured Accept-Language header in both places, so the two never differ', () => {
    assert.deepEqual(withAcceptLanguage({ Authorization: 'x' }, 'de'), {
      headers: { Authorization: 'x', 'Accept-Language': 'de' },
      value: 'de',
    });
    assert.deepEqual(withAcceptLanguage({ 'accept-language': 'fr, en;q=0.5' }, 'de'), {
      headers: { 'accept-language': 'fr, en;q=0.5' },
      value: 'fr, en;q=0.5',
    });
    assert.deepEqual(withAcceptLanguage(undefined, undefined), { headers: undefined, value: undefined });
  });
});
