/** The pairing panel's pure parts: the QR code's modules and the messages both sides check. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPairingState, isPairingToHost } from '../../src/core/protocols/pairingProtocol';
import { qrRows } from '../../src/device/qr';

/** A QR finder pattern: a 7×7 dark ring, a light ring, a 3×3 dark centre. */
function hasFinderAt(rows: readonly string[], top: number, left: number): boolean {
  const expected = ['1111111', '1000001', '1011101', '1011101', '1011101', '1000001', '1111111'];
  return expected.every((line, i) => rows[top + i]!.slice(left, left + 7) === line);
}

describe('pairing QR code', () => {
  const link = 'https://192.168.1.20:51234/#code=ABC-DEF';

  it('is a square of a QR version size with the three finder patterns', () => {
    const rows = qrRows(link);
    const size = rows.length;
    assert.ok(rows.every((row) => row.length === size && /^[01]+$/.test(row)));
    assert.equal((size - 17) % 4, 0, `size ${size} is 17 + 4 × version`);
    assert.ok(size <= 17 + 4 * 6, `a pairing link stays small enough to scan off a screen (${size})`);
    assert.ok(hasFinderAt(rows, 0, 0), 'top left');
    assert.ok(hasFinderAt(rows, 0, size - 7), 'top right');
    assert.ok(hasFinderAt(rows, size - 7, 0), 'bottom left');
    assert.ok(!hasFinderAt(rows, size - 7, size - 7), 'no finder bottom right');
  });

  it('differs with the code, so a new code gives a new picture', () => {
    assert.notDeepEqual(qrRows(link), qrRows(link.replace('ABC-DEF', 'XYZ-234')));
  });
});

describe('pairing panel protocol', () => {
  it('accepts only the page messages it knows', () => {
    assert.ok(isPairingToHost({ type: 'ready' }));
    assert.ok(isPairingToHost({ type: 'revoke', id: 'abc' }));
    assert.ok(!isPairingToHost({ type: 'revoke' }));
    assert.ok(!isPairingToHost({ type: 'revoke', id: 'x'.repeat(65) }));
    assert.ok(!isPairingToHost({ type: 'pair', id: 'abc' }));
    assert.ok(!isPairingToHost('ready'));
  });

  it('draws only a state of the right shape: QR rows are modules, never markup', () => {
    const state = { type: 'state', link: 'https://h/#code=A', code: 'ABC-DEF', codeEndsAt: 1, qr: ['101', '010'], devices: [] };
    assert.ok(isPairingState(state));
    assert.ok(!isPairingState({ ...state, qr: ['<svg onload=alert(1)>'] }));
    assert.ok(!isPairingState({ ...state, devices: [{ id: 'a', name: 5, pairedAt: 1, expiresAt: 2 }] }));
    assert.ok(!isPairingState({ ...state, link: 5 }));
  });
});
