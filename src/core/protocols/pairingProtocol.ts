/**
 * The typed messages between the extension host and the pairing panel ("Pair
 * a Device"), imported by both sides. The page says `ready`; the
 * host answers with the whole `state` and sends it again whenever anything in
 * it changes. Every string is plain text (a device name is the phone's own
 * words): the page inserts them only as text.
 */

export interface PairedDeviceRow {
  id: string;
  name: string;
  pairedAt: number;
  expiresAt: number;
  lastSeenAt?: number;
}

export interface PairingState {
  type: 'state';
  /** Where the phone opens the page; with `#code=` while a code is open. */
  link?: string;
  /** "ABC-DEF", while a code is open. */
  code?: string;
  /** When the code ends (epoch ms). */
  codeEndsAt?: number;
  /** The QR code of `link`: one string per row, '1' for a dark module. */
  qr?: string[];
  /** The certificate's SHA-256 fingerprint, absent behind VS Code's forwarding (its certificate is not ours). */
  fingerprint?: string;
  devices: PairedDeviceRow[];
  /** Why nothing listens (the address could not be used, say). */
  problem?: string;
}

export type PairingToPage = PairingState;

export type PairingToHost = { type: 'ready' } | { type: 'newCode' } | { type: 'revoke'; id: string } | { type: 'copyLink' };

export function isPairingToHost(value: unknown): value is PairingToHost {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  switch (message.type) {
    case 'ready':
    case 'newCode':
    case 'copyLink':
      return true;
    case 'revoke':
      return typeof message.id === 'string' && message.id.length > 0 && message.id.length <= 64;
    default:
      return false;
  }
}

/** What the page accepts from the host (another process): the shape, checked before drawing. */
export function isPairingState(value: unknown): value is PairingState {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as Record<string, unknown>;
  const optionalString = (key: string): boolean => state[key] === undefined || typeof state[key] === 'string';
  return (
    state.type === 'state' &&
    optionalString('link') &&
    optionalString('code') &&
    optionalString('fingerprint') &&
    optionalString('problem') &&
    (state.codeEndsAt === undefined || typeof state.codeEndsAt === 'number') &&
    (state.qr === undefined || (Array.isArray(state.qr) && state.qr.every((row) => typeof row === 'string' && /^[01]*$/.test(row)))) &&
    Array.isArray(state.devices) &&
    state.devices.every(
      (d: unknown) =>
        typeof d === 'object' &&
        d !== null &&
        typeof (d as PairedDeviceRow).id === 'string' &&
        typeof (d as PairedDeviceRow).name === 'string' &&
        typeof (d as PairedDeviceRow).pairedAt === 'number' &&
        typeof (d as PairedDeviceRow).expiresAt === 'number',
    )
  );
}
