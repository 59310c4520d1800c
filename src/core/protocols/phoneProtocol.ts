/**
 * What a paired phone is sent about each waiting question, and what it sends
 * back: the JSON of the device server, shared with the page (so types only,
 * nothing that needs node).
 */
import type { ElicitContent } from '../request';
import type { FormModel } from '../form/fields';

/**
 * Why a question is answered in the editor only (devicePolicy.ts); `window`: another VS Code window asked
 * it, and it is answered only there (a URL, a question its window keeps for itself).
 */
export type EditorOnlyReason = 'secret' | 'file' | 'key' | 'signIn' | 'elicitOwn' | 'prompt' | 'window';

export interface PhoneQuestionBase {
  id: number;
  /** "weather-server", one line. */
  asker: string;
  /** What the asker is doing, one line. */
  detail?: string;
  /** Asked in another VS Code window: its folder's name, one line. */
  window?: string;
  receivedAt: number;
  /** Put off ("Later") in the editor or on a device. */
  later: boolean;
  /**
   * The asker's own timer (codex's autoResolutionMs): milliseconds left when this list was made. The
   * page counts down from when it arrives, so the phone's clock does not matter.
   */
  autoResolvesInMs?: number;
}

export interface PhoneForm extends PhoneQuestionBase {
  kind: 'form';
  message: string;
  form: FormModel;
  /** Values to start from (a remembered answer that is not sent as it is). */
  prefill?: ElicitContent;
  /** The asker's turn has ended: it can only be dismissed. */
  turnEnded: boolean;
}

export interface PhoneUrl extends PhoneQuestionBase {
  kind: 'url';
  message: string;
  /** Where the link leads, as a person reads it. */
  host: string;
  warnings: string[];
}

export interface PhoneEditorOnly extends PhoneQuestionBase {
  kind: 'editorOnly';
  reason: EditorOnlyReason;
}

/** An agent's permission request: allow once or reject once only (devicePolicy.ts). */
export interface PhonePermission extends PhoneQuestionBase {
  kind: 'permission';
  /** The tool call's title, one line. */
  title: string;
  /** The command it wants to run, when it says. */
  command?: string;
  options: { optionId: string; name: string; kind: string }[];
}

/** How precise a location question wants the position: `low` is rounded before it leaves the phone. */
export type LocationAccuracy = 'high' | 'low';

/** An agent asks for the person's position, read from the phone's own geolocation once the person shares it. */
export interface PhoneLocation extends PhoneQuestionBase {
  kind: 'location';
  /** Why the asker wants it, in its own words (cleaned, clipped). */
  reason: string;
  accuracy: LocationAccuracy;
}

/**
 * How a location question ended on the phone: shared (degrees, and the accuracy the browser reported, in
 * metres), denied by the person's Deny or by the browser's permission, or failed (no fix in time, none at all).
 */
export type LocationOutcome =
  | { outcome: 'shared'; lat: number; lng: number; accuracy: number }
  | { outcome: 'denied'; by: 'person' | 'browser' }
  | { outcome: 'failed'; why: 'timeout' | 'unavailable' };

export type PhoneQuestion = PhoneForm | PhoneUrl | PhoneEditorOnly | PhonePermission | PhoneLocation;

/**
 * What a phone sends: Submit with values, Decline, Later, (for a URL question) Open on the computer, a
 * permission option, or how a location question ended.
 */
export type PhoneAnswer =
  | { action: 'accept'; content: ElicitContent }
  | { action: 'decline' }
  | { action: 'later' }
  | { action: 'dismiss' }
  | { action: 'open' }
  | { action: 'select'; optionId: string }
  | { action: 'location'; location: LocationOutcome };
