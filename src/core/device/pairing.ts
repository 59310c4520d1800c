/**
 * Pairing a phone, in two steps a network attacker cannot complete alone:
 *
 * 1. The editor shows a short code (single use, valid PAIRING_WINDOW_MS, at most
 *    PAIRING_TRIES wrong guesses); the phone sends it with a name for itself.
 * 2. The phone is then shown a confirmation code of its own, and the editor asks
 *    the person whether the name and that code are what their phone shows.
 *    Only their "yes" in the editor pairs the device.
 *
 * Someone who saw or guessed the short code still needs the person to confirm a
 * code that only the attacker's screen shows. Every refusal is the same
 * `undefined`: a wrong, used, expired or burned code cannot be told apart.
 * Pure: the clock is passed in; tokens are issued by DeviceRegistry.
 */
import { oneLine } from '../display';
import { Emitter } from '../events';
import { digest, matchesDigest, randomCode, randomToken } from './secrets';

export const PAIRING_WINDOW_MS = 2 * 60_000;
export const PAIRING_TRIES = 5;
/** How long the person has to confirm in the editor once the phone has sent the code. */
export const CONFIRM_WINDOW_MS = 2 * 60_000;
/** How long a phone has to collect its token once the person confirmed (it polls every second or two). */
export const COLLECT_WINDOW_MS = 30_000;
export const PAIRING_CODE_LENGTH = 6;
export const CONFIRM_CODE_LENGTH = 4;
export const MAX_DEVICE_NAME = 40;

export interface PairingCode {
  /** As shown: "ABC-DEF". */
  code: string;
  expiresAt: number;
}

/** A phone that sent the right code and waits for the person's confirmation in the editor. */
export interface PairingClaim {
  id: string;
  /** The name the phone gave itself, cleaned to one short line. */
  name: string;
  /** Shown on the phone; the editor asks whether the phone shows this. */
  confirmCode: string;
  expiresAt: number;
}

/** What the phone gets back: its claim, and the secret it proves it is that phone with (an HttpOnly cookie). */
export interface ClaimTicket {
  claim: PairingClaim;
  secret: string;
}

export type ClaimStatus = 'waiting' | 'confirmed' | 'refused';

interface OpenCode {
  digest: Buffer;
  expiresAt: number;
  triesLeft: number;
}

interface OpenClaim {
  claim: PairingClaim;
  secretDigest: Buffer;
  status: ClaimStatus;
}

/** "abc def", "ABC-DEF" and "abcdef" are the same code. */
export function normalizeCode(typed: string): string {
  return typed.replace(/[\s-]/g, '').toUpperCase();
}

function shownCode(code: string): string {
  return `${code.slice(0, 3)}-${code.slice(3)}`;
}

/** A device name as the editor shows it, or undefined when nothing printable is left. */
export function deviceName(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const name = oneLine(raw.slice(0, 200), MAX_DEVICE_NAME);
  return name === '' ? undefined : name;
}

export class Pairing {
  private code: OpenCode | undefined;
  private open: OpenClaim | undefined;
  private readonly claims = new Emitter<PairingClaim>();
  /** A phone sent the right code: ask the person to confirm its name and code in the editor. */
  readonly onDidClaim = this.claims.event;
  private readonly burns = new Emitter<void>();
  /** The last wrong try ended the code: the editor says so (someone may be guessing) and offers a new one. */
  readonly onDidBurn = this.burns.event;

  constructor(private readonly now: () => number = Date.now) {}

  /** A new code; any earlier code and any unconfirmed claim end. */
  start(): PairingCode {
    const code = randomCode(PAIRING_CODE_LENGTH);
    const expiresAt = this.now() + PAIRING_WINDOW_MS;
    this.code = { digest: digest(code), expiresAt, triesLeft: PAIRING_TRIES };
    this.open = undefined;
    return { code: shownCode(code), expiresAt };
  }

  /** Ends pairing: the code and any claim no longer work. */
  stop(): void {
    this.code = undefined;
    this.open = undefined;
  }

  /** Whether a code is open now (the server listens for pairing only then). */
  get active(): boolean {
    const code = this.code;
    if (code && code.expiresAt > this.now()) return true;
    return this.current() !== undefined;
  }

  /**
   * The phone's attempt: the code it was given and its name. The right code is
   * used up at once; a wrong one costs a try, and the last wrong try ends the
   * code. Undefined for every refusal alike.
   */
  claim(typed: unknown, name: unknown): ClaimTicket | undefined {
    const code = this.code;
    if (!code) return undefined;
    if (code.expiresAt <= this.now()) {
      this.code = undefined;
      return undefined;
    }
    const cleanName = deviceName(name);
    const right = typeof typed === 'string' && matchesDigest(normalizeCode(typed.slice(0, 64)), code.digest);
    if (!right || cleanName === undefined) {
      code.triesLeft--;
      if (code.triesLeft <= 0) {
        this.code = undefined;
        this.burns.fire();
      }
      return undefined;
    }
    this.code = undefined;
    const secret = randomToken();
    const claim: PairingClaim = {
      id: randomToken(),
      name: cleanName,
      confirmCode: randomCode(CONFIRM_CODE_LENGTH, '0123456789'),
      expiresAt: this.now() + CONFIRM_WINDOW_MS,
    };
    this.open = { claim, secretDigest: digest(secret), status: 'waiting' };
    this.claims.fire(claim);
    return { claim, secret };
  }

  /** The person's answer in the editor. False when the claim is no longer open (expired, replaced). */
  decide(claimId: string, confirmed: boolean): boolean {
    const open = this.current();
    if (!open || open.claim.id !== claimId || open.status !== 'waiting') return false;
    open.status = confirmed ? 'confirmed' : 'refused';
    open.claim.expiresAt = Math.max(open.claim.expiresAt, this.now() + COLLECT_WINDOW_MS);
    return true;
  }

  /**
   * The phone asks how its claim stands, proving it is the phone that made it.
   * A confirmed claim is handed over once (the caller then issues the device
   * token); anything unknown or expired is `refused`.
   */
  collect(secret: unknown): { status: 'waiting' } | { status: 'refused' } | { status: 'confirmed'; claim: PairingClaim } {
    const open = this.current();
    if (!open || typeof secret !== 'string' || !matchesDigest(secret, open.secretDigest)) return { status: 'refused' };
    if (open.status === 'waiting') return { status: 'waiting' };
    this.open = undefined;
    return open.status === 'confirmed' ? { status: 'confirmed', claim: open.claim } : { status: 'refused' };
  }

  private current(): OpenClaim | undefined {
    const open = this.open;
    if (open && open.claim.expiresAt <= this.now()) this.open = undefined;
    return this.open;
  }
}

/**
 * Whether the device server should listen: only while a code is open or a
 * claim waits, or a device is paired. With none, nothing listens.
 */
export function shouldListen(pairing: Pairing, pairedDevices: number): boolean {
  return pairing.active || pairedDevices > 0;
}
