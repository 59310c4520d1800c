/**
 * Paired devices: a name, the digest of a long random token, and when the
 * pairing ends. The token itself is handed out once, to the phone, in a
 * cookie; only its digest is kept (the VS Code layer keeps the list in
 * SecretStorage). A pairing lasts PAIRING_LIFETIME_MS unless renewed in the
 * editor, and can be revoked at any time.
 */
import { Emitter } from '../events';
import { digest, matchesDigest, randomToken } from './secrets';

export const PAIRING_LIFETIME_MS = 30 * 24 * 60 * 60_000;
/** Longer than any token this issues: a longer cookie is refused before it is hashed. */
const MAX_TOKEN_LENGTH = 128;
/** How often a device's "last seen" is kept: not a SecretStorage write for each of its requests. */
export const SEEN_KEEP_MS = 10 * 60_000;

export interface PairedDevice {
  id: string;
  name: string;
  /** SHA-256 of the token, hex. */
  tokenDigest: string;
  pairedAt: number;
  expiresAt: number;
  lastSeenAt?: number;
}

export class DeviceRegistry {
  private devices: PairedDevice[];
  /** When each device was last seen in what was kept (or announced to be kept). */
  private readonly keptSeenAt = new Map<string, number>();
  private readonly changes = new Emitter<void>();
  /** Fires when a device is added, renewed, revoked or seen: the list to keep has changed. */
  readonly onDidChange = this.changes.event;
  private readonly replaced = new Emitter<void>();
  /** Fires when another window's list replaced this one (replaceWith): nothing to write back. */
  readonly onDidReplace = this.replaced.event;

  constructor(
    saved: readonly PairedDevice[] = [],
    private readonly now: () => number = Date.now,
  ) {
    this.devices = saved.filter(isPairedDevice).map((d) => ({ ...d }));
    for (const d of this.devices) if (d.lastSeenAt !== undefined) this.keptSeenAt.set(d.id, d.lastSeenAt);
  }

  /**
   * The list another window kept (SecretStorage is shared by every window):
   * taken as it is, without firing onDidChange, so it is not written back.
   * True when it differs from this one.
   */
  replaceWith(saved: readonly PairedDevice[]): boolean {
    const changed = this.takeList(saved);
    // A device another window revoked ends its live feed here now, not at the next heartbeat.
    if (changed) this.replaced.fire();
    return changed;
  }

  private takeList(saved: readonly PairedDevice[]): boolean {
    const next = saved.filter(isPairedDevice).map((d) => ({ ...d }));
    const same =
      next.length === this.devices.length &&
      next.every(
        (d, i) =>
          d.id === this.devices[i]!.id && d.tokenDigest === this.devices[i]!.tokenDigest && d.expiresAt === this.devices[i]!.expiresAt,
      );
    this.devices = next.map((d) => {
      // Whichever window saw it last.
      const seen = Math.max(this.devices.find((o) => o.id === d.id)?.lastSeenAt ?? 0, d.lastSeenAt ?? 0);
      return seen > 0 ? { ...d, lastSeenAt: seen } : d;
    });
    for (const d of next) if (d.lastSeenAt !== undefined) this.keptSeenAt.set(d.id, Math.max(this.keptSeenAt.get(d.id) ?? 0, d.lastSeenAt));
    return !same;
  }

  /** Devices whose pairing has not ended, in pairing order. */
  list(): PairedDevice[] {
    const now = this.now();
    return this.devices.filter((d) => d.expiresAt > now).map((d) => ({ ...d }));
  }

  /** What to keep: no token, only digests. */
  toJSON(): PairedDevice[] {
    return this.devices.map((d) => ({ ...d }));
  }

  /** Pairs a device: its token, to be sent once to the phone and never kept. */
  add(name: string): { device: PairedDevice; token: string } {
    const token = randomToken();
    const now = this.now();
    const device: PairedDevice = {
      id: randomToken().slice(0, 16),
      name,
      tokenDigest: digest(token).toString('hex'),
      pairedAt: now,
      expiresAt: now + PAIRING_LIFETIME_MS,
    };
    this.devices.push(device);
    this.changes.fire();
    return { device: { ...device }, token };
  }

  /**
   * The device a token belongs to, if its pairing has not ended. Every kept
   * digest is compared, in constant time, whatever matched: the time taken says
   * nothing about which device, if any, a guess came near.
   */
  verify(token: unknown): PairedDevice | undefined {
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) return undefined;
    const now = this.now();
    let found: PairedDevice | undefined;
    for (const device of this.devices) {
      const matches = matchesDigest(token, Buffer.from(device.tokenDigest, 'hex'));
      if (matches && device.expiresAt > now) found = device;
    }
    if (!found) return undefined;
    found.lastSeenAt = now;
    // Kept now and then, so "last seen" in Manage Paired Devices outlives a reload.
    const kept = this.keptSeenAt.get(found.id);
    if (kept === undefined || now - kept >= SEEN_KEEP_MS) {
      this.keptSeenAt.set(found.id, now);
      this.changes.fire();
    }
    return { ...found };
  }

  /** Another PAIRING_LIFETIME_MS from now; false for a device no longer paired. */
  renew(id: string): boolean {
    const device = this.devices.find((d) => d.id === id && d.expiresAt > this.now());
    if (!device) return false;
    device.expiresAt = this.now() + PAIRING_LIFETIME_MS;
    this.changes.fire();
    return true;
  }

  /** Its token stops working at once. */
  revoke(id: string): boolean {
    const before = this.devices.length;
    this.devices = this.devices.filter((d) => d.id !== id);
    if (this.devices.length === before) return false;
    this.changes.fire();
    return true;
  }

  /** Forgets pairings that have ended. */
  sweep(): void {
    const now = this.now();
    const kept = this.devices.filter((d) => d.expiresAt > now);
    if (kept.length === this.devices.length) return;
    this.devices = kept;
    this.changes.fire();
  }
}

function isPairedDevice(value: unknown): value is PairedDevice {
  if (typeof value !== 'object' || value === null) return false;
  const d = value as Record<string, unknown>;
  return (
    typeof d.id === 'string' &&
    typeof d.name === 'string' &&
    typeof d.tokenDigest === 'string' &&
    /^[0-9a-f]{64}$/.test(d.tokenDigest) &&
    typeof d.pairedAt === 'number' &&
    typeof d.expiresAt === 'number'
  );
}
