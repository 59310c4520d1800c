/**
 * The page's side of the device server's JSON API (src/device/deviceServer.ts).
 * Same origin only; the cookies are HttpOnly, so the page never sees a token.
 * Paths are relative to the page, so it also works behind a forwarding proxy
 * that serves it under a path of its own.
 */
import type { PhoneQuestion } from '../../src/core/protocols/phoneProtocol';

export type PairStatus = { status: 'waiting' } | { status: 'paired'; name: string } | { status: 'refused' };

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

export async function claimPairing(code: string, name: string): Promise<{ name: string; confirmCode: string } | undefined> {
  const response = await post('api/pair', { code, name });
  return response.ok ? ((await response.json()) as { name: string; confirmCode: string }) : undefined;
}

export async function pairingStatus(): Promise<PairStatus> {
  const response = await fetch('api/pair', { credentials: 'same-origin' });
  return response.ok ? ((await response.json()) as PairStatus) : { status: 'refused' };
}

/** The waiting questions, or undefined when this phone is not (or no longer) paired. */
export async function waitingQuestions(): Promise<PhoneQuestion[] | undefined> {
  const response = await fetch('api/questions', { credentials: 'same-origin' });
  return response.ok ? ((await response.json()) as { questions: PhoneQuestion[] }).questions : undefined;
}

export type SendOutcome =
  { ok: true } | { ok: false; errors: Record<string, string> } | { ok: false; gone: true } | { ok: false; unpaired: true };

export async function sendAnswer(id: number, answer: unknown): Promise<SendOutcome> {
  const response = await post(`api/questions/${id}`, answer);
  if (response.ok) return { ok: true };
  if (response.status === 404) return { ok: false, gone: true };
  if (response.status === 403) return { ok: false, unpaired: true };
  const body = (await response.json().catch(() => ({}))) as { errors?: Record<string, string> };
  return { ok: false, errors: body.errors ?? { '': 'The answer was not taken' } };
}

/** Live updates: calls `onQuestions` with the whole list whenever it changes; `onLost` when the stream ends for good. */
export function watchQuestions(onQuestions: (questions: PhoneQuestion[]) => void, onLost: () => void): () => void {
  const source = new EventSource('api/events');
  source.addEventListener('questions', (event) => {
    onQuestions((JSON.parse((event as MessageEvent<string>).data) as { questions: PhoneQuestion[] }).questions);
  });
  source.onerror = () => {
    // EventSource retries by itself; a refused stream (revoked, expired) ends with CLOSED.
    if (source.readyState === EventSource.CLOSED) onLost();
  };
  return () => source.close();
}
