/**
 * What devices need kept, in SecretStorage only: the paired devices (names and
 * token digests, never a token) and the server's key and certificate (made
 * once and kept, so its fingerprint stays the one the person checked).
 */
import { randomBytes } from 'node:crypto';
import type * as vscode from 'vscode';
import type { PairedDevice } from '../../core/device/devices';
import { isHex32 } from '../../process/portHolder';
import type { DeviceCertificate } from '../../device/certificate';
import type * as DeviceHost from '../../device/deviceHost';

export const PAIRED_DEVICES_KEY = 'elicit.devices.paired';
export const CERTIFICATE_KEY = 'elicit.devices.certificate';

interface Log {
  warn(line: string): void;
}

/**
 * The ids of devices revoked in any window: a window that had
 * not heard of a revocation yet could save its older list and bring the device back.
 * Every save and every load leaves these out.
 */
export const REVOKED_DEVICES_KEY = 'elicit.devices.revoked';

let saving: Promise<unknown> = Promise.resolve();
let savesUnderway = 0;
const MAX_REVOKED = 500;

export async function loadRevokedDevices(secrets: vscode.SecretStorage): Promise<Set<string>> {
  try {
    const value: unknown = JSON.parse((await secrets.get(REVOKED_DEVICES_KEY)) ?? '[]');
    return new Set(Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : []);
  } catch {
    return new Set();
  }
}

/** Runs `write` after every write queued before it: a later list is never overwritten by an earlier one. */
function inOrder(write: () => Promise<unknown>, failure: string, log: Log): Promise<unknown> {
  savesUnderway++;
  saving = saving
    .then(write)
    .catch((error: unknown) => log.warn(`[elicit] ${failure}: ${String(error)}`))
    .finally(() => savesUnderway--);
  return saving;
}

/** Keeps `ids` as revoked, before the list without them is saved (the same queue: in order). */
export function keepRevoked(secrets: vscode.SecretStorage, ids: readonly string[], log: Log): Promise<unknown> {
  return inOrder(
    async () => {
      const revoked = [...(await loadRevokedDevices(secrets)), ...ids];
      await secrets.store(REVOKED_DEVICES_KEY, JSON.stringify([...new Set(revoked)].slice(-MAX_REVOKED)));
    },
    'a revoked device could not be kept as revoked',
    log,
  );
}

export async function loadPairedDevices(secrets: vscode.SecretStorage, log: Log): Promise<PairedDevice[]> {
  const text = await secrets.get(PAIRED_DEVICES_KEY);
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    const revoked = await loadRevokedDevices(secrets);
    // DeviceRegistry drops any entry that is not a paired device.
    return Array.isArray(value) ? (value as PairedDevice[]).filter((d) => !revoked.has(d?.id)) : [];
  } catch {
    log.warn('[elicit] the paired devices could not be read; pair them again');
    return [];
  }
}

/** In order: a later list is never overwritten by an earlier one. */
export function savePairedDevices(secrets: vscode.SecretStorage, devices: readonly PairedDevice[], log: Log): Promise<unknown> {
  const copy = devices.map((d) => ({ ...d }));
  return inOrder(
    async () => {
      // A device revoked in another window stays revoked, whatever this window's list still holds.
      const revoked = await loadRevokedDevices(secrets);
      const kept = copy.filter((d) => !revoked.has(d.id));
      return kept.length ? secrets.store(PAIRED_DEVICES_KEY, JSON.stringify(kept)) : secrets.delete(PAIRED_DEVICES_KEY);
    },
    'the paired devices could not be kept',
    log,
  );
}

/** While this window writes the list, a change seen in SecretStorage is its own, not another window's. */
export function isSaving(): boolean {
  return savesUnderway > 0;
}

/** The kept certificate when it covers `names` and stays valid a while; else a new one, kept. */
export async function loadCertificate(
  secrets: vscode.SecretStorage,
  names: readonly string[],
  host: Pick<typeof DeviceHost, 'certificateFits' | 'certificateFacts' | 'createDeviceCertificate'>,
): Promise<DeviceCertificate> {
  const text = await secrets.get(CERTIFICATE_KEY);
  if (text) {
    try {
      const kept = JSON.parse(text) as { key?: unknown; cert?: unknown };
      if (
        typeof kept.key === 'string' &&
        typeof kept.cert === 'string' &&
        host.certificateFits({ key: kept.key, cert: kept.cert }, names)
      ) {
        return { key: kept.key, cert: kept.cert, ...host.certificateFacts(kept.cert) };
      }
    } catch {
      // Made again below.
    }
  }
  const made = host.createDeviceCertificate(names);
  await secrets.store(CERTIFICATE_KEY, JSON.stringify({ key: made.key, cert: made.cert }));
  return made;
}

export const PROOF_KEY = 'elicit.devices.proofKey';

/**
 * The key this person's windows share to prove to each other that a port is held by
 * Elicit (src/process/portHolder.ts). Made on first use; never sent anywhere.
 */
export async function loadProofKey(secrets: vscode.SecretStorage): Promise<string> {
  const kept = await secrets.get(PROOF_KEY);
  if (isHex32(kept)) return kept;
  const made = randomBytes(32).toString('hex');
  await secrets.store(PROOF_KEY, made);
  return made;
}
