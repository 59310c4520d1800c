/**
 * The device server (issue #23) over real HTTPS with Elicit's own certificate,
 * in front of the real broker with a person away from the desk: pairing with
 * the confirmation in the editor, the waiting questions as JSON, answers, live
 * updates as server-sent events; and everything an attacker would try — a
 * wrong, expired or revoked token, a wrong Host, a wrong Origin, plain HTTP,
 * guessing the pairing code — refused alike, with nothing learned.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as https from 'node:https';
import * as tls from 'node:tls';
import { after, describe, it } from 'node:test';
import { Broker, type AnsweredQuestion, type Question, type RenderOutcome, type Renderer } from '../../src/core/broker/broker';
import type { ElicitRequest, ElicitResult } from '../../src/core/request';
import { brokerDeviceQuestions } from '../../src/core/device/deviceQuestions';
import { DeviceRegistry, PAIRING_LIFETIME_MS } from '../../src/core/device/devices';
import { PAIRING_TRIES, Pairing, normalizeCode, type PairingClaim } from '../../src/core/device/pairing';
import type { PhoneQuestion } from '../../src/core/device/phoneQuestions';
import { createDeviceCertificate } from '../../src/device/certificate';
import { portHolder } from '../../src/process/portHolder';
import { DeviceServer } from '../../src/device/deviceServer';
import { devicePage } from '../../src/device/page';
import { buildSync } from 'esbuild';
import { rawStatus } from '../support/rawHttp';
import * as path from 'node:path';

/** The page's real script, built as esbuild.mjs builds it. */
const pageScript = buildSync({
  entryPoints: [path.join(__dirname, '..', '..', 'webview', 'phone', 'main.ts')],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  loader: { '.css': 'text' },
  write: false,
}).outputFiles[0]!.text;

const certificate = createDeviceCertificate(['127.0.0.1', 'localhost', '::1']);
/** The certificate is checked for the address connected to, whatever Host header a request sends. */
const trustElicit = {
  ca: certificate.cert,
  checkServerIdentity: (_host: string, cert: tls.PeerCertificate) => tls.checkServerIdentity('127.0.0.1', cert),
};

/** A person away from the desk: questions stay on screen in the editor. */
class AwayRenderer implements Renderer {
  render(_question: Question, signal: AbortSignal): Promise<RenderOutcome> {
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true }));
  }
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface Setup {
  broker: Broker;
  pairing: Pairing;
  devices: DeviceRegistry;
  server: DeviceServer;
  port: number;
  answered: AnsweredQuestion[];
  claims: PairingClaim[];
  opened: Question[];
  clock: { t: number };
  origin: string;
  host: string;
}

const running: DeviceServer[] = [];
const brokers: Broker[] = [];
after(async () => {
  await Promise.all(running.map((s) => s.stop()));
  // Questions left waiting would hold their deadline timers.
  for (const broker of brokers) for (const question of broker.pending()) broker.decline(question.id);
});

async function setup(): Promise<Setup> {
  const clock = { t: Date.now() };
  const broker = new Broker(new AwayRenderer(), { timeoutMs: () => 600_000, maxPendingPerAsker: () => 20, presentation: () => 'form' });
  brokers.push(broker);
  const answered: AnsweredQuestion[] = [];
  broker.onDidAnswer((a) => answered.push(a));
  const pairing = new Pairing(() => clock.t);
  const claims: PairingClaim[] = [];
  pairing.onDidClaim((c) => claims.push(c));
  const devices = new DeviceRegistry([], () => clock.t);
  const opened: Question[] = [];
  const server = new DeviceServer({
    address: '127.0.0.1',
    port: 0,
    tls: certificate,
    pairing,
    devices,
    questions: brokerDeviceQuestions(broker, { openOnComputer: (q) => opened.push(q) }),
    page: () => devicePage(pageScript),
  });
  running.push(server);
  const port = await server.start();
  const host = `127.0.0.1:${port}`;
  return { broker, pairing, devices, server, port, answered, claims, opened, clock, origin: `https://${host}`, host };
}

interface Send {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  json?: unknown;
  body?: string;
}

/** One real HTTPS request that trusts only Elicit's certificate. */
function send(s: Setup, { method = 'GET', path = '/api/questions', headers = {}, json, body }: Send): Promise<Reply> {
  const payload = json !== undefined ? JSON.stringify(json) : body;
  const allHeaders: Record<string, string> = { host: s.host, ...headers };
  if (json !== undefined) allHeaders['content-type'] ??= 'application/json';
  return new Promise((resolve, reject) => {
    const request = https.request({ host: '127.0.0.1', port: s.port, method, path, headers: allHeaders, ...trustElicit }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
    });
    request.on('error', reject);
    request.end(payload);
  });
}

const fromPage = (s: Setup): Record<string, string> => ({ origin: s.origin, 'sec-fetch-site': 'same-origin' });

function cookieValue(reply: Reply, name: string): string | undefined {
  for (const line of reply.headers['set-cookie'] ?? []) {
    const [pair] = line.split(';');
    const [key, value] = pair!.split('=');
    if (key === name && value) return value;
  }
  return undefined;
}

/** Pairs a phone the whole way: code, the person's yes in the editor, the token in its cookie. */
async function pair(s: Setup, name = 'Ada’s Pixel'): Promise<{ cookie: string; token: string }> {
  const { code } = s.pairing.start();
  const claimed = await send(s, { method: 'POST', path: '/api/pair', headers: fromPage(s), json: { code, name } });
  assert.equal(claimed.status, 200);
  const claimSecret = cookieValue(claimed, '__Host-elicit-pairing')!;
  assert.ok(s.pairing.decide(s.claims.at(-1)!.id, true));
  const collected = await send(s, {
    path: '/api/pair',
    headers: { cookie: `__Host-elicit-pairing=${claimSecret}`, 'sec-fetch-site': 'same-origin' },
  });
  assert.equal(collected.status, 200);
  const token = cookieValue(collected, '__Host-elicit-device')!;
  return { cookie: `__Host-elicit-device=${token}`, token };
}

function ask(s: Setup, request: Partial<ElicitRequest> & { message: string }): Promise<ElicitResult> {
  return s.broker.ask({
    mode: 'form',
    asker: { kind: 'acp', name: 'codex' },
    requestedSchema: { type: 'object', properties: {} },
    ...request,
  } as ElicitRequest);
}

async function waitFor(check: () => boolean, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A refusal's status, body and header names: all refusals must be the same. */
function shape(reply: Reply): string {
  const names = Object.keys(reply.headers)
    .filter((n) => n !== 'date' && n !== 'set-cookie')
    .sort();
  return JSON.stringify([reply.status, reply.body, names]);
}

describe('device server: pairing', () => {
  it('pairs only after the person confirms the phone’s code and name in the editor; the token travels only in its cookie', async () => {
    const s = await setup();
    const { code } = s.pairing.start();
    const claimed = await send(s, { method: 'POST', path: '/api/pair', headers: fromPage(s), json: { code, name: 'Ada’s Pixel' } });
    assert.equal(claimed.status, 200);
    const shown = JSON.parse(claimed.body) as { name: string; confirmCode: string };
    assert.equal(s.claims.length, 1, 'the editor is asked');
    assert.deepEqual(
      shown,
      { name: 'Ada’s Pixel', confirmCode: s.claims[0]!.confirmCode },
      'the phone shows the code the editor asks about',
    );
    const claimCookie = claimed.headers['set-cookie']![0]!;
    assert.match(claimCookie, /^__Host-elicit-pairing=[\w-]{43}; Path=\/; Max-Age=120; HttpOnly; Secure; SameSite=Strict$/);
    const claim = { cookie: claimCookie.split(';')[0]!, 'sec-fetch-site': 'same-origin' };

    const waiting = await send(s, { path: '/api/pair', headers: claim });
    assert.deepEqual(JSON.parse(waiting.body), { status: 'waiting' });
    assert.equal(s.devices.list().length, 0, 'not paired before the person says yes');

    s.pairing.decide(s.claims[0]!.id, true);
    const paired = await send(s, { path: '/api/pair', headers: claim });
    assert.equal(paired.status, 200);
    const token = cookieValue(paired, '__Host-elicit-device')!;
    assert.ok(token.length >= 43);
    const deviceCookie = paired.headers['set-cookie']!.find((c) => c.startsWith('__Host-elicit-device='))!;
    for (const attribute of ['HttpOnly', 'Secure', 'SameSite=Strict', 'Path=/', `Max-Age=${PAIRING_LIFETIME_MS / 1000}`]) {
      assert.ok(deviceCookie.includes(attribute), attribute);
    }
    assert.ok(!paired.body.includes(token), 'never in a body a script could read');
    assert.deepEqual(
      s.devices.list().map((d) => d.name),
      ['Ada’s Pixel'],
    );
    assert.ok(!JSON.stringify(s.devices.toJSON()).includes(token), 'kept only as a digest');
    const questions = await send(s, { headers: { cookie: `__Host-elicit-device=${token}`, 'sec-fetch-site': 'same-origin' } });
    assert.equal(questions.status, 200);
  });

  it('a phone the person does not confirm is never paired', async () => {
    const s = await setup();
    const { code } = s.pairing.start();
    const claimed = await send(s, { method: 'POST', path: '/api/pair', headers: fromPage(s), json: { code, name: 'Attacker' } });
    s.pairing.decide(s.claims[0]!.id, false);
    const refused = await send(s, { path: '/api/pair', headers: { cookie: claimed.headers['set-cookie']![0]!.split(';')[0]! } });
    assert.equal(refused.status, 403);
    assert.equal(s.devices.list().length, 0);
  });

  it('guessing the code: five wrong tries end it, the right code then fails the same way, the editor is never asked', async () => {
    const s = await setup();
    const { code } = s.pairing.start();
    const wrong = normalizeCode(code).slice(0, -1) + (code.endsWith('2') ? '3' : '2');
    const replies: Reply[] = [];
    for (let i = 0; i < PAIRING_TRIES; i++) {
      replies.push(await send(s, { method: 'POST', path: '/api/pair', headers: fromPage(s), json: { code: wrong, name: 'guess' } }));
    }
    replies.push(await send(s, { method: 'POST', path: '/api/pair', headers: fromPage(s), json: { code, name: 'guess' } }));
    assert.equal(new Set(replies.map(shape)).size, 1, 'every answer alike');
    assert.equal(replies[0]!.status, 403);
    assert.equal(s.claims.length, 0);
    assert.equal(s.devices.list().length, 0);
  });

  it('an expired code is refused like a wrong one', async () => {
    const s = await setup();
    const { code } = s.pairing.start();
    s.clock.t += 2 * 60_000;
    const expired = await send(s, { method: 'POST', path: '/api/pair', headers: fromPage(s), json: { code, name: 'late' } });
    const wrong = await send(s, { method: 'POST', path: '/api/pair', headers: fromPage(s), json: { code: 'ZZZ-ZZZ', name: 'x' } });
    assert.equal(shape(expired), shape(wrong));
    assert.equal(s.claims.length, 0);
  });
});

describe('device server: questions and answers', () => {
  it('lists the waiting questions and takes an answer that reaches the asker, named in the history', async () => {
    const s = await setup();
    const { cookie } = await pair(s);
    const answer = ask(s, {
      message: 'Which database?',
      requestedSchema: {
        type: 'object',
        properties: {
          db: { type: 'string', enum: ['Postgres', 'SQLite'] },
          features: { type: 'array', items: { enum: ['Auth', 'Search'] } },
        },
        required: ['db'],
      },
    });
    await waitFor(() => s.broker.pending().length === 1);
    const listed = JSON.parse((await send(s, { headers: { cookie } })).body) as { questions: PhoneQuestion[] };
    assert.equal(listed.questions.length, 1);
    const [question] = listed.questions;
    assert.ok(question!.kind === 'form');
    assert.equal(question!.asker, 'codex');
    assert.equal(question!.message, 'Which database?');

    const invalid = await send(s, {
      method: 'POST',
      path: `/api/questions/${question!.id}`,
      headers: { ...fromPage(s), cookie },
      json: { action: 'accept', content: { db: 'Oracle' } },
    });
    assert.equal(invalid.status, 422);
    assert.ok((JSON.parse(invalid.body) as { errors: Record<string, string> }).errors.db);
    assert.equal(s.broker.pending().length, 1, 'still waiting');

    const ok = await send(s, {
      method: 'POST',
      path: `/api/questions/${question!.id}`,
      headers: { ...fromPage(s), cookie },
      json: { action: 'accept', content: { db: 'SQLite', features: ['Auth', 'Search'] } },
    });
    assert.equal(ok.status, 200);
    assert.deepEqual(await answer, { action: 'accept', content: { db: 'SQLite', features: ['Auth', 'Search'] } });
    assert.equal(s.answered[0]!.device, 'Ada’s Pixel');
    const again = await send(s, {
      method: 'POST',
      path: `/api/questions/${question!.id}`,
      headers: { ...fromPage(s), cookie },
      json: { action: 'decline' },
    });
    assert.equal(again.status, 404, 'answered once');
  });

  it('declines from the phone, and refuses to take a secret field there', async () => {
    const s = await setup();
    const { cookie } = await pair(s);
    const declined = ask(s, { message: 'Go on?' });
    const secret = ask(s, {
      message: 'Your API key',
      requestedSchema: { type: 'object', properties: { key: { type: 'string', format: 'password' } } },
    });
    await waitFor(() => s.broker.pending().length === 2);
    const listed = (JSON.parse((await send(s, { headers: { cookie } })).body) as { questions: PhoneQuestion[] }).questions;
    const [plain, hidden] = listed;
    assert.equal(hidden!.kind, 'editorOnly');
    assert.ok(!JSON.stringify(hidden).includes('API key'), 'nothing of what it asks');
    const post = (id: number, json: unknown): Promise<Reply> =>
      send(s, { method: 'POST', path: `/api/questions/${id}`, headers: { ...fromPage(s), cookie }, json });
    assert.equal((await post(plain!.id, { action: 'decline' })).status, 200);
    assert.deepEqual(await declined, { action: 'decline' });
    assert.equal((await post(hidden!.id, { action: 'accept', content: { key: 'sk-typed-on-phone' } })).status, 422);
    assert.equal((await post(hidden!.id, { action: 'decline' })).status, 422, 'not even declined there');
    assert.equal(s.broker.pending().length, 1, 'the secret question still waits for the editor');
    s.broker.decline(hidden!.id);
    await secret;
  });

  it('an agent’s permission request: allow once or reject once from the phone, never a choice that lasts', async () => {
    const s = await setup();
    const { cookie } = await pair(s);
    const prompt = s.broker.prompts.open({
      kind: 'permission',
      asker: 'codex',
      title: 'Run npm test',
      command: 'npm test',
      options: [
        { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
        { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
        { optionId: 'no', name: 'Reject', kind: 'reject_once' },
        { optionId: 'never', name: 'Always reject', kind: 'reject_always' },
      ],
    });
    const listed = (JSON.parse((await send(s, { headers: { cookie } })).body) as { questions: PhoneQuestion[] }).questions;
    assert.equal(listed.length, 1);
    const shown = listed[0]!;
    assert.equal(shown.kind, 'permission');
    assert.ok(shown.kind === 'permission');
    assert.deepEqual(
      shown.options.map((o) => o.optionId),
      ['yes', 'no'],
      'only the options that end with this call',
    );
    assert.equal(shown.command, 'npm test');
    const post = (json: unknown): Promise<Reply> =>
      send(s, { method: 'POST', path: `/api/questions/${shown.id}`, headers: { ...fromPage(s), cookie }, json });
    assert.equal((await post({ action: 'select', optionId: 'always' })).status, 422, 'allow always is chosen in the editor only');
    assert.equal((await post({ action: 'select', optionId: 'never' })).status, 422);
    assert.equal((await post({ action: 'accept', content: {} })).status, 422);
    assert.equal(s.broker.prompts.list().length, 1, 'still open after refused choices');
    assert.equal((await post({ action: 'select', optionId: 'yes' })).status, 200);
    assert.deepEqual(await prompt.answered, { optionId: 'yes', device: 'Ada’s Pixel' });
    assert.equal(s.broker.prompts.list().length, 0);
    assert.equal((await post({ action: 'select', optionId: 'yes' })).status, 404, 'answered once');
  });

  it('a URL question opened from the phone goes to the editor, never to the phone', async () => {
    const s = await setup();
    const { cookie } = await pair(s);
    void s.broker.ask({
      mode: 'url',
      asker: { kind: 'mcp', name: 'github' },
      message: 'Connect',
      url: 'https://github.com/login/device?x=secret-link',
      elicitationId: 'e',
    });
    await waitFor(() => s.broker.pending().length === 1);
    const listed = await send(s, { headers: { cookie } });
    assert.ok(!listed.body.includes('secret-link'));
    const id = s.broker.pending()[0]!.id;
    const opened = await send(s, {
      method: 'POST',
      path: `/api/questions/${id}`,
      headers: { ...fromPage(s), cookie },
      json: { action: 'open' },
    });
    assert.equal(opened.status, 200);
    assert.equal(s.opened.length, 1);
    s.broker.decline(id);
  });

  it('tells an open event stream of a new question within a second', async () => {
    const s = await setup();
    const { cookie } = await pair(s);
    const events: Array<{ at: number; questions: PhoneQuestion[] }> = [];
    const stream = await openEvents(s, cookie, (questions) => events.push({ at: Date.now(), questions }));
    try {
      await waitFor(() => events.length === 1);
      assert.deepEqual(events[0]!.questions, []);
      // A proxy in front (code-server's forwarding compresses) must pass events on at once, not buffer them.
      assert.match(String(stream.headers['cache-control']), /\bno-transform\b/);
      const askedAt = Date.now();
      void ask(s, { message: 'Deploy now?' });
      await waitFor(() => events.some((e) => e.questions.length === 1), 1000);
      const first = events.find((e) => e.questions.length === 1)!;
      assert.ok(first.at - askedAt < 1000);
      assert.equal(first.questions[0]!.kind === 'form' && first.questions[0]!.message, 'Deploy now?');
    } finally {
      stream.destroy();
    }
  });
});

// Issue #33, finding 10: a device revoked in another window kept its live feed here up to 15 s.
describe('device server: a revocation from another window', () => {
  it("ends the device's live feed at once when another window's list no longer has it", async () => {
    const s = await setup();
    const { cookie } = await pair(s);
    const stream = await openEvents(s, cookie, () => undefined);
    try {
      const revokedAt = Date.now();
      // What the controller does when SecretStorage tells it another window's list changed.
      assert.equal(s.devices.replaceWith([]), true);
      await Promise.race([stream.ended, new Promise((_, reject) => setTimeout(() => reject(new Error('the feed stayed open')), 2_000))]);
      assert.ok(Date.now() - revokedAt < 2_000);
    } finally {
      stream.destroy();
    }
  });
});

/** A real EventSource-like reader of /api/events. Resolves once the stream is open. */
function openEvents(
  s: Setup,
  cookie: string,
  onQuestions: (q: PhoneQuestion[]) => void,
): Promise<http.IncomingMessage & { ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        host: '127.0.0.1',
        port: s.port,
        path: '/api/events',
        headers: { host: s.host, cookie, accept: 'text/event-stream', 'sec-fetch-site': 'same-origin' },
        ...trustElicit,
      },
      (response) => {
        if (response.statusCode !== 200) return reject(new Error(`status ${response.statusCode}`));
        let buffer = '';
        response.setEncoding('utf8');
        const ended = new Promise<void>((done) => response.on('end', done).on('close', done));
        response.on('data', (chunk: string) => {
          buffer += chunk;
          let at: number;
          while ((at = buffer.indexOf('\n\n')) >= 0) {
            const event = buffer.slice(0, at);
            buffer = buffer.slice(at + 2);
            const data = /^data: (.*)$/m.exec(event)?.[1];
            if (data) onQuestions((JSON.parse(data) as { questions: PhoneQuestion[] }).questions);
          }
        });
        resolve(Object.assign(response, { ended }));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

describe('device server: refused with nothing learned', () => {
  it('a wrong, expired or revoked token, a wrong Host, a wrong Origin, a query string: the same 403', async () => {
    const s = await setup();
    const { cookie, token } = await pair(s);
    const phone = { cookie, 'sec-fetch-site': 'same-origin' };
    const good = await send(s, { headers: phone });
    assert.equal(good.status, 200);
    const refused: Array<[string, Reply]> = [
      ['no cookie', await send(s, {})],
      ['a wrong token', await send(s, { headers: { cookie: `__Host-elicit-device=${token.slice(0, -2)}xx` } })],
      ['the token in the URL', await send(s, { path: `/api/questions?token=${token}` })],
      ['a rebound Host', await send(s, { headers: { ...phone, host: `evil.example:${s.port}` } })],
      ['another site’s page', await send(s, { headers: { ...phone, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } })],
      [
        'a CORS preflight',
        await send(s, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } }),
      ],
      [
        'an answer without Origin',
        await send(s, { method: 'POST', path: '/api/questions/1', headers: { cookie }, json: { action: 'decline' } }),
      ],
      [
        'a form posted from another page',
        await send(s, {
          method: 'POST',
          path: '/api/questions/1',
          headers: { cookie, origin: 'https://evil.example', 'content-type': 'text/plain' },
          body: '{}',
        }),
      ],
    ];
    // Two Hosts, the server's own first: node keeps the first, a proxy in front may route by the second.
    const socket = tls.connect({ host: '127.0.0.1', port: s.port, ...trustElicit });
    const head = ['GET /api/questions HTTP/1.1', `Host: ${s.host}`, `Host: evil.example:${s.port}`, `Cookie: ${cookie}`];
    assert.equal(await rawStatus(socket, [...head, 'Sec-Fetch-Site: same-origin']), 403, 'a second Host');
    s.clock.t += PAIRING_LIFETIME_MS;
    refused.push(['an expired pairing', await send(s, { headers: phone })]);
    for (const [why, reply] of refused) {
      assert.equal(reply.status, 403, why);
      assert.equal(shape(reply), shape(refused[0]![1]), `${why}: refused like any other`);
      assert.ok(!Object.keys(reply.headers).some((h) => h.startsWith('access-control-')), `${why}: no CORS header`);
    }
  });

  it('revoking a device refuses its next request and ends its open event stream', async () => {
    const s = await setup();
    const { cookie } = await pair(s);
    const stream = await openEvents(s, cookie, () => undefined);
    const device = s.devices.list()[0]!;
    s.devices.revoke(device.id);
    await stream.ended;
    const after = await send(s, { headers: { cookie, 'sec-fetch-site': 'same-origin' } });
    assert.equal(after.status, 403);
  });

  it('plain HTTP to the HTTPS port gets no HTTP answer at all', async () => {
    const s = await setup();
    const outcome = await new Promise<string>((resolve) => {
      const request = http.request({ host: '127.0.0.1', port: s.port, path: '/api/questions', headers: { host: s.host } }, (response) =>
        resolve(`answered ${response.statusCode}`),
      );
      request.on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code ?? error.message}`));
      request.end();
    });
    assert.match(outcome, /^error /);
  });

  it('behind forwarding: loopback HTTP, the forwarded origin, cookies kept to the proxy’s path', async () => {
    const broker = new Broker(new AwayRenderer(), { timeoutMs: () => 60_000, maxPendingPerAsker: () => 5, presentation: () => 'form' });
    const pairing = new Pairing();
    const devices = new DeviceRegistry();
    const claims: PairingClaim[] = [];
    pairing.onDidClaim((c) => claims.push(c));
    const server = new DeviceServer({
      address: '127.0.0.1',
      port: 0,
      pairing,
      devices,
      questions: brokerDeviceQuestions(broker, { openOnComputer: () => undefined }),
      publicScheme: 'https',
      extraOrigins: ['https://forwarded.example'],
      cookiePath: '/proxy/8443/',
    });
    running.push(server);
    const port = await server.start();
    /** What the forwarding proxy sends on: plain HTTP on loopback, the browser's Origin. */
    const viaProxy = (options: { method?: string; path: string; headers?: Record<string, string>; json?: unknown }): Promise<Reply> =>
      new Promise((resolve, reject) => {
        const headers: Record<string, string> = { host: `localhost:${port}`, ...options.headers };
        if (options.json !== undefined) headers['content-type'] = 'application/json';
        const request = http.request(
          { host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers },
          (response) => {
            let body = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => (body += chunk));
            response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
          },
        );
        request.on('error', reject);
        request.end(options.json === undefined ? undefined : JSON.stringify(options.json));
      });
    const { code } = pairing.start();
    const fromForwarded = { origin: 'https://forwarded.example', 'sec-fetch-site': 'same-origin' };
    const claimed = await viaProxy({ method: 'POST', path: '/api/pair', headers: fromForwarded, json: { code, name: 'Pixel' } });
    assert.equal(claimed.status, 200);
    assert.match(claimed.headers['set-cookie']![0]!, /^__Secure-elicit-pairing=[\w-]+; Path=\/proxy\/8443\/; /);
    pairing.decide(claims[0]!.id, true);
    const collected = await viaProxy({ path: '/api/pair', headers: { cookie: claimed.headers['set-cookie']![0]!.split(';')[0]! } });
    const device = collected.headers['set-cookie']!.find((c) => c.startsWith('__Secure-elicit-device='))!;
    assert.match(device, /; Path=\/proxy\/8443\/; .*HttpOnly; Secure; SameSite=Strict$/);
    const cookie = device.split(';')[0]!;
    assert.equal((await viaProxy({ path: '/api/questions', headers: { cookie } })).status, 200);
    assert.equal((await viaProxy({ path: '/api/questions', headers: { cookie: cookie.replace('__Secure-', '__Host-') } })).status, 403);
    const elsewhere = await viaProxy({
      method: 'POST',
      path: '/api/questions/1',
      headers: { cookie, origin: 'https://evil.example' },
      json: {},
    });
    assert.equal(elsewhere.status, 403);
    const rebound = await viaProxy({ path: '/api/questions', headers: { cookie, host: `evil.example:${port}` } });
    assert.equal(rebound.status, 403);
  });

  it('will not serve plain HTTP beyond loopback', () => {
    const options = {
      port: 0,
      pairing: new Pairing(),
      devices: new DeviceRegistry(),
      questions: { list: () => [], onDidChange: () => ({ dispose() {} }), answer: async () => 'gone' as const },
    };
    for (const address of ['0.0.0.0', '192.168.1.20', '::']) {
      assert.throws(() => new DeviceServer({ ...options, address }), /loopback only/);
    }
    assert.doesNotThrow(() => new DeviceServer({ ...options, address: '127.0.0.1' }));
  });

  it('serves the page: its built script inline under a nonce CSP fresh for each load, no CORS header', async () => {
    const s = await setup();
    const first = await send(s, { path: '/', headers: { 'sec-fetch-site': 'none' } });
    const second = await send(s, { path: '/', headers: { 'sec-fetch-site': 'none' } });
    assert.equal(first.status, 200);
    const csp = String(first.headers['content-security-policy']);
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)![1]!;
    assert.ok(first.body.includes(`<script type="module" nonce="${nonce}">`));
    assert.ok(first.body.includes('new EventSource("api/events")'), 'the page script is in it');
    assert.notEqual(second.headers['content-security-policy'], csp);
    assert.equal(first.headers['cache-control'], 'no-store');
    assert.ok(!Object.keys(first.headers).some((h) => h.startsWith('access-control-')));
  });
});

// Issue #33, finding 6: a window that finds the devices' port taken asks the holder to prove it is Elicit.
describe('device server: proving it holds its port', () => {
  const KEY = 'a'.repeat(64);
  const serve = async (tls: boolean, proofKey?: string): Promise<number> => {
    const broker = new Broker(new AwayRenderer(), { timeoutMs: () => 60_000, maxPendingPerAsker: () => 5, presentation: () => 'form' });
    brokers.push(broker);
    const server = new DeviceServer({
      address: '127.0.0.1',
      port: 0,
      ...(tls ? { tls: certificate } : {}),
      pairing: new Pairing(),
      devices: new DeviceRegistry(),
      questions: brokerDeviceQuestions(broker, { openOnComputer: () => undefined }),
      ...(proofKey ? { proofKey } : {}),
    });
    running.push(server);
    return server.start();
  };

  it('over HTTPS and over loopback HTTP, a server with the shared key proves it; another key does not', async () => {
    const tlsPort = await serve(true, KEY);
    assert.equal(await portHolder(tlsPort, KEY, { address: '127.0.0.1', tls: true }), 'elicit');
    assert.equal(await portHolder(tlsPort, 'b'.repeat(64), { address: '127.0.0.1', tls: true }), 'other');
    const httpPort = await serve(false, KEY);
    assert.equal(await portHolder(httpPort, KEY), 'elicit');
  });

  it('a server without the key (or a squatter) proves nothing; the challenge needs no cookie', async () => {
    const port = await serve(true);
    assert.equal(await portHolder(port, KEY, { address: '127.0.0.1', tls: true }), 'other');
  });
});
