/**
 * Issue #33, finding 10: a window that had not heard of a revocation yet saved its older
 * list and brought the revoked phone back. Revocations are kept apart (tombstones), and
 * every save and load leaves them out. Over a shared SecretStorage, as two windows share it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type * as vscode from 'vscode';
import type { PairedDevice } from '../../src/core/device/devices';
import { MemorySecretStore } from '../../src/mcp/oauthStore';
import { keepRevoked, loadPairedDevices, savePairedDevices } from '../../src/vscode/devices/deviceStore';

const device = (id: string): PairedDevice => ({
  id,
  name: `phone ${id}`,
  tokenDigest: 'ab'.repeat(32),
  pairedAt: 1,
  expiresAt: Date.now() + 1e9,
});
const log = { warn: () => undefined };

describe('paired devices kept in SecretStorage', () => {
  it('a revocation in one window survives another window saving its older list', async () => {
    const shared = new MemorySecretStore();
    const secrets = shared as unknown as vscode.SecretStorage;
    await savePairedDevices(secrets, [device('x'), device('y')], log);
    // Window A revokes x: kept as revoked, then its list without x.
    await keepRevoked(secrets, ['x'], log);
    await savePairedDevices(secrets, [device('y')], log);
    // Window B, which had not heard yet, saves x's "last seen" with its older list.
    await savePairedDevices(secrets, [device('x'), device('y')], log);
    assert.deepEqual(
      (await loadPairedDevices(secrets, log)).map((d) => d.id),
      ['y'],
    );
    assert.ok(!shared.values.get('elicit.devices.paired')!.includes('"x"'));
  });
});
