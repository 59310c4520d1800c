/** Issue #33, finding 11: a global address is never listed as "on this network". */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressScope } from '../../src/core/device/addressScope';

describe('addressScope', () => {
  it('keeps private, shared and link-local addresses on the network', () => {
    for (const address of [
      '10.0.0.7',
      '172.16.4.2',
      '172.31.255.1',
      '192.168.1.20',
      '100.64.0.9',
      '169.254.3.3',
      'fd12:3456::1',
      'fc00::2',
      'fe80::1',
    ]) {
      assert.equal(addressScope(address), 'network', address);
    }
  });

  it('calls public IPv4 and global IPv6 addresses reachable from the internet', () => {
    for (const address of ['8.8.8.8', '172.32.0.1', '192.169.0.1', '100.128.0.1', '2001:db8::5', '2a00:1450:4001::200e']) {
      assert.equal(addressScope(address), 'internet', address);
    }
  });
});
