/**
 * deviceAnswerMs (issue #23): Submit on a paired device → the asker has the
 * answer. A real HTTPS POST to the device server on loopback, with the
 * device's cookie, through the broker's check, to the `ask()` of the asker;
 * median of 21. (The page's own time to send is not in it: the e2e tests drive
 * the page.)
 */
import * as https from 'node:https';
import { Broker, type Question, type RenderOutcome, type Renderer } from '../../src/core/broker/broker';
import { brokerDeviceQuestions } from '../../src/core/device/deviceQuestions';
import { DeviceRegistry } from '../../src/core/device/devices';
import { Pairing } from '../../src/core/device/pairing';
import { createDeviceCertificate } from '../../src/device/certificate';
import { DeviceServer } from '../../src/device/deviceServer';

/** Samples of a full run (`npm run bench`). */
const SAMPLES = 21;

class AwayRenderer implements Renderer {
  render(_question: Question, signal: AbortSignal): Promise<RenderOutcome> {
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true }));
  }
}

export async function deviceAnswer(samplesWanted = SAMPLES): Promise<{ medianMs: number; samples: number[] }> {
  const certificate = createDeviceCertificate(['127.0.0.1']);
  const broker = new Broker(new AwayRenderer(), { timeoutMs: () => 60_000, maxPendingPerAsker: () => 5, presentation: () => 'form' });
  const devices = new DeviceRegistry();
  const { token } = devices.add('bench phone');
  const server = new DeviceServer({
    address: '127.0.0.1',
    port: 0,
    tls: certificate,
    pairing: new Pairing(),
    devices,
    questions: brokerDeviceQuestions(broker, { openOnComputer: () => undefined }),
  });
  const port = await server.start();
  const agent = new https.Agent({ keepAlive: true, ca: certificate.cert });
  const headers = {
    host: `127.0.0.1:${port}`,
    origin: `https://127.0.0.1:${port}`,
    'sec-fetch-site': 'same-origin',
    cookie: `__Host-elicit-device=${token}`,
    'content-type': 'application/json',
  };
  const samples: number[] = [];
  try {
    for (let i = 0; i < samplesWanted; i++) {
      const answered = broker.ask({
        mode: 'form',
        asker: { kind: 'acp', name: 'bench' },
        message: 'Which database?',
        requestedSchema: { type: 'object', properties: { db: { type: 'string', enum: ['Postgres', 'SQLite'] } }, required: ['db'] },
      });
      await new Promise((resolve) => setImmediate(resolve));
      const id = broker.pending()[0]!.id;
      const started = performance.now();
      const body = JSON.stringify({ action: 'accept', content: { db: 'SQLite' } });
      const replied = new Promise<void>((resolve, reject) => {
        const request = https.request({ host: '127.0.0.1', port, method: 'POST', path: `/api/questions/${id}`, headers, agent });
        request.on('response', (response) => response.resume().on('end', resolve));
        request.on('error', reject);
        request.end(body);
      });
      await answered;
      samples.push(performance.now() - started);
      await replied;
    }
  } finally {
    agent.destroy();
    await server.stop();
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return { medianMs: sorted[Math.floor(sorted.length / 2)]!, samples };
}
