/**
 * A server's own app for a question (draft SEP-3118): the metadata that names it,
 * the policy its page gets (only declared domains, nothing that could add a
 * keyword), the page Elicit writes around it, and the host's end of the bridge:
 * the app speaks first, is asked only once it said it is initialized and answers
 * questions, and is refused anything else; a flood or a malformed answer gives the
 * question back to Elicit's form. Issue #57: an app of a server that is not local
 * reaches nothing of the person's own machine or network (finding 5), and Elicit's
 * strip above the app says whose page it is and holds Elicit's own buttons (finding 8).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppBridge, MAX_APP_MESSAGES, TEARDOWN_WAIT_MS, type AppOutcome } from '../../src/core/apps/appBridge';
import { appPage, isStripAction, STRIP_ACTIONS, type AppStrip } from '../../src/core/apps/appPage';
import {
  appCsp,
  appUriIn,
  AppUnavailable,
  onPersonsNetwork,
  readAppResource,
  serverUrlIsLocal,
  APP_MIME_TYPE,
  type AppCsp,
} from '../../src/core/apps/appQuestion';

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
      // A dev server on localhost: this server is on the same machine.
      { isLocal: true },
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
    const page = appPage({ uri: 'ui://x', html, csp: NO_DOMAINS }, STRIP);
    assert.ok(page.indexOf('Content-Security-Policy') < page.indexOf('acquireVsCodeApi()'));
    assert.match(page, /frame\.setAttribute\('sandbox', 'allow-scripts allow-forms'\)/);
    assert.doesNotMatch(page, /allow-same-origin|allow-top-navigation|allow-popups/);
    assert.equal(page.match(/<\/script>/g)?.length, 1, "the app's own </script> is escaped inside the host script");
    // The string the host script gives the frame is the app's page, unchanged.
    const literal = /frame\.srcdoc = (".*?");\n/s.exec(page)![1]!;
    assert.equal(JSON.parse(literal), html);
  });
});

const NO_DOMAINS: AppCsp = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };
const STRIP: AppStrip = { asker: { name: 'palette', detail: 'tool pick_color' }, actions: STRIP_ACTIONS };

const resourceDeclaring = (csp: Partial<AppCsp>): unknown => ({
  contents: [{ uri: 'ui://x', mimeType: APP_MIME_TYPE, text: '<p>', _meta: { ui: { csp } } }],
});

describe("an app and the person's own network (#57 finding 5)", () => {
  const theirs = [
    'http://192.168.1.20:8080',
    'http://10.0.0.1',
    'http://172.20.3.4',
    'http://127.0.0.1:5173',
    'http://127.1',
    'http://0x7f.0.0.1',
    'http://2130706433',
    'http://0.0.0.0:8080',
    'http://169.254.169.254',
    'http://100.100.100.100',
    'http://localhost:5173',
    'http://dev.localhost',
    'https://printer.local',
    'https://git.corp.internal',
    'https://nas.lan',
    'https://router.home.arpa',
    'http://router',
    'https://*.local',
    'wss://*.internal:9000',
    'http://*.0.1',
  ];

  it("refuses the app of a server that is not local when it declares any host of the person's machine or network", () => {
    for (const source of theirs) {
      for (const csp of [
        { connectDomains: [source] },
        { resourceDomains: [source] },
        { frameDomains: [source] },
        { baseUriDomains: [source] },
      ]) {
        assert.throws(
          () => readAppResource(resourceDeclaring({ ...csp }), 'ui://x', { isLocal: false }),
          (error: unknown) =>
            error instanceof AppUnavailable &&
            /asks to reach your own machine or network, which only a local server's app may: /.test(error.message),
          `${source} in ${Object.keys(csp)[0]}`,
        );
      }
    }
    // Unless told otherwise, a server is remote.
    assert.throws(() => readAppResource(resourceDeclaring({ connectDomains: ['http://192.168.1.20'] }), 'ui://x'), AppUnavailable);
    assert.throws(
      () => readAppResource(resourceDeclaring({ connectDomains: theirs }), 'ui://x'),
      /may: http:\/\/192\.168\.1\.20:8080, http:\/\/10\.0\.0\.1, http:\/\/172\.20\.3\.4 and 17 more$/,
    );
  });

  it('keeps them for the app of a server on this machine or network', () => {
    const resource = readAppResource(resourceDeclaring({ connectDomains: theirs }), 'ui://x', { isLocal: true });
    assert.deepEqual(resource.csp.connectDomains, theirs);
  });

  it('keeps public sites for any server', () => {
    const sites = ['https://api.example.com', 'https://*.cdn.example', 'wss://live.example.org:8443', 'http://8.8.8.8', 'https://*.com'];
    const resource = readAppResource(resourceDeclaring({ connectDomains: sites, frameDomains: ['https://maps.example'] }), 'ui://x', {
      isLocal: false,
    });
    assert.deepEqual(resource.csp.connectDomains, sites);
    assert.deepEqual(resource.csp.frameDomains, ['https://maps.example']);
  });

  it("reads IPv6 addresses as the person's network when loopback, unique local, link local or mapped from such IPv4", () => {
    for (const host of [
      '[::1]',
      '::1',
      '[::]',
      '[0:0:0:0:0:0:0:1]',
      '[fd12:3456::1]',
      '[fc00::1]',
      '[fe80::1]',
      '[::ffff:192.168.0.1]',
      '[::ffff:127.0.0.1]',
    ]) {
      assert.equal(onPersonsNetwork(host), true, host);
    }
    for (const host of ['[2606:4700:4700::1111]', '[2001:4860::8888]', '[::ffff:8.8.8.8]', 'api.example.com', '8.8.8.8']) {
      assert.equal(onPersonsNetwork(host), false, host);
    }
    assert.equal(onPersonsNetwork('evil.example@127.0.0.1'), true, 'anything a browser would not read as a host is theirs');
  });

  it('takes a server to be local when its URL is a local socket or a host of the machine or network, else remote', () => {
    for (const url of [
      'http://127.0.0.1:3000/mcp',
      'http://localhost:8931/mcp',
      'http://[::1]:3000/mcp',
      'https://mcp.internal/x',
      'http://192.168.1.5/mcp',
      'unix:/run/mcp.sock',
      'pipe:/mcp',
    ]) {
      assert.equal(serverUrlIsLocal(url), true, url);
    }
    for (const url of ['https://mcp.example.com/mcp', 'https://8.8.8.8/mcp', 'not a url', 'ftp://192.168.1.5/']) {
      assert.equal(serverUrlIsLocal(url), false, url);
    }
  });
});

/** The strip's words and buttons, as the page's script gets them. */
function stripOf(page: string): { who: string; notice: string; reach: string; buttons: Array<{ action: string; label: string }> } {
  return JSON.parse(/const view = (.*?);\n/s.exec(page)![1]!) as ReturnType<typeof stripOf>;
}

describe("Elicit's strip above an app (#57 finding 8)", () => {
  it("says who asks, that the page is the server's own, and which sites it may reach (finding 5)", () => {
    const csp = { ...NO_DOMAINS, connectDomains: ['https://api.palette.example'], resourceDomains: ['https://cdn.palette.example'] };
    const strip = stripOf(appPage({ uri: 'ui://x', html: '<p>', csp }, STRIP));
    assert.equal(strip.who, 'palette asks · tool pick_color');
    assert.match(strip.notice, /^The page below is palette's own, not Elicit's: what you type in it goes to palette\./);
    assert.match(strip.notice, /Elicit asks for secrets only in its own form/);
    assert.equal(strip.reach, 'It may reach: https://api.palette.example, https://cdn.palette.example');
    assert.equal(stripOf(appPage({ uri: 'ui://x', html: '<p>', csp: NO_DOMAINS }, STRIP)).reach, 'It may reach no site.');
  });

  it("holds Elicit's form, Decline, Later and Cancel, or only those given, each posting its action", () => {
    const page = appPage({ uri: 'ui://x', html: '<p>', csp: NO_DOMAINS }, STRIP);
    assert.deepEqual(
      stripOf(page).buttons.map((b) => [b.action, b.label]),
      [
        ['form', "Answer in Elicit's Form"],
        ['decline', 'Decline'],
        ['later', 'Later'],
        ['cancel', 'Cancel'],
      ],
    );
    assert.match(page, /api\.postMessage\(\{ elicitStrip: b\.action \}\)/);
    const onBehalf = appPage({ uri: 'ui://x', html: '<p>', csp: NO_DOMAINS }, { ...STRIP, actions: ['form', 'cancel'] });
    assert.deepEqual(
      stripOf(onBehalf).buttons.map((b) => b.action),
      ['form', 'cancel'],
    );
    assert.deepEqual(STRIP_ACTIONS.map(isStripAction), [true, true, true, true]);
    for (const other of ['submit', 'accept', undefined, {}, 'Decline']) assert.equal(isStripAction(other), false, String(other));
  });

  it('is drawn before the frame, outside it, on a page with nothing to scroll', () => {
    const page = appPage({ uri: 'ui://x', html: '<p>', csp: NO_DOMAINS }, STRIP);
    assert.match(page, /document\.body\.append\(bar, frame\)/);
    assert.match(page, /html, body \{ margin: 0; padding: 0; height: 100%; overflow: hidden; \}/);
    assert.match(page, /#elicit-strip \{ flex: none; max-height: 40vh;/);
  });

  it("puts the asker's name and the domains in only as text, which cannot end the script", () => {
    const asker = { name: '</script><img src=x onerror=alert(1)>\u2028evil', detail: 'tool <b>x</b>' };
    const page = appPage({ uri: 'ui://x', html: '<p>', csp: NO_DOMAINS }, { asker, actions: STRIP_ACTIONS });
    assert.equal(page.match(/<\/script>/g)?.length, 1);
    assert.doesNotMatch(page, /<img|<b>|innerHTML|insertAdjacentHTML/);
    assert.match(page, /node\.textContent = value/);
    assert.equal(stripOf(page).who, '</script><img src=x onerror=alert(1)> evil asks · tool <b>x</b>');
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
