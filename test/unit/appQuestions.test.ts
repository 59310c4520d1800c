/**
 * A server's own app for a question (draft SEP-3118): the metadata that names it,
 * the policy its page gets (only declared domains, nothing that could add a
 * keyword), the page Elicit writes around it, and the host's end of the bridge:
 * the app speaks first, is asked only once it said it is initialized and answers
 * questions, and is refused anything else; a flood or a malformed answer gives the
 * question back to Elicit's form.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppBridge, MAX_APP_MESSAGES, TEARDOWN_WAIT_MS, type AppOutcome } from '../../src/core/apps/appBridge';
import { appPage } from '../../src/core/apps/appPage';
import { appCsp, appUriIn, readAppResource, APP_MIME_TYPE } from '../../src/core/apps/appQuestion';

describe('the app a question names', () => {
  it('is a ui:// resource in _meta.ui.resourceUri, else none', () => {
    assert.equal(appUriIn({ ui: { resourceUri: 'ui://palette/picker' } }), 'ui://palette/picker');
    for (const meta of [
      undefined,
      {},
      { ui: 'x' },
      { ui: { resourceUri: 'https://evil.example/app' } },
      { ui: { resourceUri: 'ui://a b' } },
      { ui: { resourceUri: `ui://${'a'.repeat(2001)}` } },
    ]) {
      assert.equal(appUriIn(meta), undefined, JSON.stringify(meta)?.slice(0, 60));
    }
  });

  it('gets a policy with only the domains its resource declares, each a plain origin', () => {
    const resource = readAppResource(
      {
        contents: [
          {
            uri: 'ui://x',
            mimeType: APP_MIME_TYPE,
            text: '<p>',
            _meta: {
              ui: {
                csp: {
                  connectDomains: ['https://api.example.com', "https://x.example; script-src 'unsafe-eval'", '*', 'data:', "'self'"],
                  resourceDomains: ['https://*.cdn.example', 'http://localhost:5173'],
                },
              },
            },
          },
        ],
      },
      'ui://x',
    );
    const csp = appCsp(resource.csp);
    assert.equal(
      csp,
      "default-src 'none'; script-src 'unsafe-inline' https://*.cdn.example http://localhost:5173; style-src 'unsafe-inline' https://*.cdn.example http://localhost:5173; img-src data: https://*.cdn.example http://localhost:5173; font-src https://*.cdn.example http://localhost:5173; media-src data: https://*.cdn.example http://localhost:5173; connect-src https://api.example.com; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'",
    );
    assert.match(appCsp({ connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }), /connect-src 'none'/);
  });

  it('holds the app in a sandboxed frame of an opaque origin, its page a string that cannot end the host script', () => {
    const html = '<!doctype html><html><head><script>evil()</script></head><body>\u2028</body></html>';
    const page = appPage({ uri: 'ui://x', html, csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] } });
    assert.ok(page.indexOf('Content-Security-Policy') < page.indexOf('acquireVsCodeApi()'));
    assert.match(page, /frame\.setAttribute\('sandbox', 'allow-scripts allow-forms'\)/);
    assert.doesNotMatch(page, /allow-same-origin|allow-top-navigation|allow-popups/);
    assert.equal(page.match(/<\/script>/g)?.length, 1, "the app's own </script> is escaped inside the host script");
    // The string the host script gives the frame is the app's page, unchanged.
    const literal = /frame\.srcdoc = (".*?");\n/s.exec(page)![1]!;
    assert.equal(JSON.parse(literal), html);
  });
});

function bridge(): { sent: unknown[]; outcomes: AppOutcome[]; app: AppBridge } {
  const sent: unknown[] = [];
  const outcomes: AppOutcome[] = [];
  const app = new AppBridge(
    (m) => sent.push(m),
    { message: 'Which color?', requestedSchema: { type: 'object' } },
    { name: 'Elicit', version: '1.2.3', context: { theme: 'dark', locale: 'en' } },
    (o) => outcomes.push(o),
  );
  return { sent, outcomes, app };
}

const init = (capabilities: unknown = { elicitation: {} }): unknown => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'ui/initialize',
  params: { appInfo: { name: 'a', version: '1' }, appCapabilities: capabilities, protocolVersion: '2026-01-26' },
});
const initialized = { jsonrpc: '2.0', method: 'ui/notifications/initialized' };

describe("the host's end of the bridge", () => {
  it('answers ui/initialize, asks the question once initialized, and takes the answer', () => {
    const { sent, outcomes, app } = bridge();
    app.receive(init());
    assert.deepEqual(sent[0], {
      jsonrpc: '2.0',
      id: 1,
      result: {
        protocolVersion: '2026-01-26',
        hostInfo: { name: 'Elicit', version: '1.2.3' },
        hostCapabilities: { elicitation: {} },
        hostContext: { theme: 'dark', locale: 'en', displayMode: 'inline', platform: 'desktop' },
      },
    });
    assert.equal(sent.length, 1, 'nothing before initialized');
    app.receive(initialized);
    assert.deepEqual(sent[1], {
      jsonrpc: '2.0',
      id: 'elicit-question',
      method: 'elicitation/create',
      params: { mode: 'form', message: 'Which color?', requestedSchema: { type: 'object' } },
    });
    app.receive({ jsonrpc: '2.0', id: 'elicit-question', result: { action: 'accept', content: { color: 'red' } } });
    assert.deepEqual(outcomes, [{ kind: 'result', action: 'accept', content: { color: 'red' } }]);
  });

  it('refuses everything else an app may ask of a host', () => {
    const { sent, app } = bridge();
    app.receive({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'delete_everything' } });
    app.receive({ jsonrpc: '2.0', id: 8, method: 'ui/open-link', params: { url: 'https://evil.example' } });
    assert.deepEqual(
      sent.map((m) => (m as { error?: { code: number } }).error?.code),
      [-32601, -32601],
    );
  });

  it('gives the question back to the form when the app does not answer questions, errs, floods, or answers without an action', () => {
    const cases: Array<[string, (app: AppBridge) => void, RegExp]> = [
      ['no capability', (a) => (a.receive(init({})), a.receive(initialized)), /no elicitation capability/],
      [
        'error',
        (a) => (
          a.receive(init()),
          a.receive(initialized),
          a.receive({ jsonrpc: '2.0', id: 'elicit-question', error: { code: 1, message: 'x' } })
        ),
        /with an error/,
      ],
      [
        'no action',
        (a) => (
          a.receive(init()),
          a.receive(initialized),
          a.receive({ jsonrpc: '2.0', id: 'elicit-question', result: { action: 'approve' } })
        ),
        /no action/,
      ],
      [
        'flood',
        (a) => {
          for (let i = 0; i <= MAX_APP_MESSAGES; i++) a.receive({ jsonrpc: '2.0', method: 'ui/notifications/size-changed' });
        },
        /more than 500 messages/,
      ],
      ['huge', (a) => a.receive({ jsonrpc: '2.0', method: 'x', params: 'y'.repeat(300_000) }), /too large/],
    ];
    for (const [what, run, reason] of cases) {
      const { outcomes, app } = bridge();
      run(app);
      assert.equal(outcomes.length, 1, what);
      assert.equal(outcomes[0]!.kind, 'unusable', what);
      assert.match((outcomes[0] as { reason: string }).reason, reason, what);
    }
  });

  it('takes no answer before it asked, and none after the question ended', () => {
    const { outcomes, app } = bridge();
    app.receive({ jsonrpc: '2.0', id: 'elicit-question', result: { action: 'accept', content: {} } });
    assert.deepEqual(outcomes, []);
    app.receive(init());
    app.receive(initialized);
    app.close();
    app.receive({ jsonrpc: '2.0', id: 'elicit-question', result: { action: 'accept', content: {} } });
    assert.deepEqual(outcomes, []);
  });

  it('tells the app its page goes (ui/resource-teardown) and waits for its reply, or not long', async () => {
    const { sent, app } = bridge();
    app.receive(init());
    app.receive(initialized);
    const done = app.teardown('answered');
    assert.deepEqual(sent.at(-1), {
      jsonrpc: '2.0',
      id: 'elicit-teardown',
      method: 'ui/resource-teardown',
      params: { reason: 'answered' },
    });
    app.receive({ jsonrpc: '2.0', id: 'elicit-teardown', result: {} });
    await done;
    const silent = bridge();
    silent.app.receive(init());
    silent.app.receive(initialized);
    const started = Date.now();
    await silent.app.teardown('the person chose to answer in the form');
    assert.ok(Date.now() - started >= TEARDOWN_WAIT_MS - 20);
  });
});
