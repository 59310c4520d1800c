/**
 * The `location` question an agent may ask through the `elicit_ask_user` tool,
 * the gateway's `ask_user` or the public API: the person's position, read by
 * their paired phone's browser once they share it there. In the editor they
 * may deny it or type a place instead. A refusal is an answer of its own,
 * `denied`, so the agent can fall back to asking for a city.
 *
 * Where the position goes: to the asker's own result and nowhere else. It is
 * never remembered or answered by a rule (it is not a broker question), and the
 * history keeps only "location shared (about N m)".
 *
 * Pure: the phone, the editor's prompt and the history are the caller's.
 */
import { oneLine } from '../display';
import { InvalidRequestError } from '../errors';
import type { LocationAccuracy, LocationOutcome } from '../protocols/phoneProtocol';
import type { Asker, ElicitAction } from '../request';
import type { ToolAnswer, ToolQuestion } from './questionTypes';

export type { LocationAccuracy, LocationOutcome } from '../protocols/phoneProtocol';

export const LOCATION_ACCURACIES: readonly LocationAccuracy[] = ['high', 'low'];
/** The longest reason an asker may give: the phone shows all of it. */
export const MAX_REASON_CHARS = 500;
/** The longest place a person may type instead of sharing a position. */
export const MAX_PLACE_CHARS = 200;
/** Low accuracy rounds both coordinates to whole hundredths of a degree: 0.01° is about 1.1 km north–south. */
const LOW_ACCURACY_STEPS_PER_DEGREE = 100;
/** That step in degrees, as the editor's prompt says it. */
export const LOW_ACCURACY_STEP_DEGREES = 1 / LOW_ACCURACY_STEPS_PER_DEGREE;
/** The rounding as the tool's description, its answer's note and the phone say it. */
export const LOW_ACCURACY_ROUNDING_TEXT = `${LOW_ACCURACY_STEP_DEGREES}° (about 1 km)`;
/** A degree of latitude on the Earth's mean radius (6,371 km): about 111 km. */
const METRES_PER_DEGREE = (6_371_008.8 * Math.PI) / 180;
/**
 * The farthest rounding to a step moves a point: half a step each way, about 556 m north–south and at most
 * as much east–west, so about 787 m (rounded up). Added to the accuracy a low-accuracy answer reports, which
 * stays honest.
 */
export const LOW_ACCURACY_ROUNDING_METRES = Math.ceil((Math.SQRT2 * METRES_PER_DEGREE * LOW_ACCURACY_STEP_DEGREES) / 2);

/** How a location question ended: on the phone, or in the editor (a typed place, closed). */
export type LocationReply = LocationOutcome | { outcome: 'place'; place: string } | { outcome: 'closed' };

export interface LocationRequest {
  asker: Asker;
  /** Why the asker wants it (its question). */
  reason: string;
  accuracy: LocationAccuracy;
}

export interface LocationAccess {
  /** Opens the question to the paired phone and the editor; settles with how it ended (`closed` when aborted). */
  ask(request: LocationRequest, signal?: AbortSignal): Promise<LocationReply>;
}

/** A location question's own rules, on top of the tool's: an accuracy, and a reason the phone can show whole. */
export function checkLocationQuestion(q: ToolQuestion): void {
  if (q.accuracy === undefined) throw new InvalidRequestError('A location question needs "accuracy": "high" or "low"');
  if (q.question.length > MAX_REASON_CHARS) {
    throw new InvalidRequestError(
      `The "question" of a location question (why you need it) may be at most ${MAX_REASON_CHARS} characters (it has ${q.question.length})`,
    );
  }
}

/** Reads a tool input's `accuracy`, or refuses it. */
export function readAccuracy(value: unknown): LocationAccuracy {
  if (!LOCATION_ACCURACIES.includes(value as LocationAccuracy)) throw new InvalidRequestError('"accuracy" must be "high" or "low"');
  return value as LocationAccuracy;
}

/**
 * What is sent for a shared position: at low accuracy both coordinates rounded to 0.01° and the accuracy
 * widened by what rounding may have moved it; at high accuracy the position as the phone gave it. The
 * accuracy in whole metres. The phone rounds before sending, and the editor rounds again: it trusts no phone.
 */
export function positionToSend(
  position: { lat: number; lng: number; accuracy: number },
  accuracy: LocationAccuracy,
): { lat: number; lng: number; accuracy: number } {
  const metres = Math.max(0, Math.round(position.accuracy));
  if (accuracy === 'high') return { lat: position.lat, lng: position.lng, accuracy: metres };
  // Counted in whole steps and divided back (0.01 itself is no exact double), so the result is the
  // nearest double to the rounded decimal (and -0 becomes 0).
  const round = (degrees: number): number => Math.round(degrees * LOW_ACCURACY_STEPS_PER_DEGREE) / LOW_ACCURACY_STEPS_PER_DEGREE + 0;
  const lat = round(position.lat);
  const lng = round(position.lng);
  // Rounded by the phone already: its accuracy includes the rounding.
  const alreadyRounded = lat === position.lat && lng === position.lng && metres >= LOW_ACCURACY_ROUNDING_METRES;
  return { lat, lng, accuracy: alreadyRounded ? metres : metres + LOW_ACCURACY_ROUNDING_METRES };
}

/** A phone's report of a location question, rebuilt from its parts; undefined when it is not one. */
export function readLocationOutcome(value: unknown): LocationOutcome | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  switch (v.outcome) {
    case 'shared': {
      const { lat, lng, accuracy } = v;
      if (!isNumberIn(lat, -90, 90) || !isNumberIn(lng, -180, 180) || !isNumberIn(accuracy, 0, 40_000_000)) return undefined;
      return { outcome: 'shared', lat, lng, accuracy };
    }
    case 'denied':
      return v.by === 'person' || v.by === 'browser' ? { outcome: 'denied', by: v.by } : undefined;
    case 'failed':
      return v.why === 'timeout' || v.why === 'unavailable' ? { outcome: 'failed', why: v.why } : undefined;
    default:
      return undefined;
  }
}

function isNumberIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;
}

/** A place typed in the editor instead of a position: one line, not empty, at most MAX_PLACE_CHARS; else why not. */
export function placeProblem(text: string): string | undefined {
  const place = text.trim();
  if (place === '') return 'Type a place, or press Escape to go back.';
  if (place.length > MAX_PLACE_CHARS) return `At most ${MAX_PLACE_CHARS} characters.`;
  return undefined;
}

/** What the asker receives. */
export function locationToolAnswer(reply: LocationReply, accuracy: LocationAccuracy): ToolAnswer {
  switch (reply.outcome) {
    case 'shared':
      return {
        action: 'accept',
        answer: positionToSend(reply, accuracy),
        note:
          accuracy === 'low'
            ? `Shared from the phone, rounded to ${LOW_ACCURACY_ROUNDING_TEXT} as "low" accuracy asks; accuracy is in metres and includes the rounding.`
            : "Shared from the phone; accuracy is the phone's own estimate, in metres.",
      };
    case 'place':
      return {
        action: 'accept',
        answer: { place: oneLine(reply.place, MAX_PLACE_CHARS) },
        note: 'The person typed a place instead of sharing a position.',
      };
    case 'denied':
      return {
        action: 'denied',
        note:
          reply.by === 'browser'
            ? "The phone's browser refused access to its location. Ask for a city or an address instead if you need one."
            : 'The person chose not to share their location. Ask for a city or an address instead if you need one.',
      };
    case 'failed':
      return {
        action: 'cancel',
        note: reply.why === 'timeout' ? 'The phone found no position in time.' : 'The phone could not find its position.',
      };
    case 'closed':
      return { action: 'cancel' };
  }
}

/** All the history keeps of a location question: never the position, nor a typed place. */
export function locationHistory(reply: LocationReply, accuracy: LocationAccuracy): { action: ElicitAction; summary: string } {
  switch (reply.outcome) {
    case 'shared':
      return { action: 'accept', summary: `location shared (about ${positionToSend(reply, accuracy).accuracy} m)` };
    case 'place':
      return { action: 'accept', summary: 'a place typed instead' };
    case 'denied':
      return { action: 'decline', summary: reply.by === 'browser' ? "location denied by the phone's browser" : 'location denied' };
    case 'failed':
    case 'closed':
      return { action: 'cancel', summary: 'location not shared' };
  }
}

/** Asks a location question; an answer that arrives after the asker gave up changes nothing. */
export async function askLocationQuestion(
  access: LocationAccess,
  asker: Asker,
  q: ToolQuestion,
  signal?: AbortSignal,
): Promise<ToolAnswer> {
  checkLocationQuestion(q);
  const accuracy = q.accuracy!;
  const reply = await access.ask({ asker, reason: q.question, accuracy }, signal);
  if (signal?.aborted) return { action: 'cancel' };
  return locationToolAnswer(reply, accuracy);
}
