/**
 * Pairing a phone (issue #23): a short single-use code, valid two minutes, five
 * tries; then the person confirms the phone's own code and name in the editor.
 * Paired devices keep only a digest of their long token, compared in constant
 * time; pairings expire unless renewed and can be revoked. Over a fake clock.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CONFIRM_WINDOW_MS,
  PAIRING_TRIES,
  PAIRING_WINDOW_MS,
  Pairing,
  deviceName,
  normalizeCode,
  shouldListen,
  type PairingClaim,
} from '../../src/core/device/pairing';
import { DeviceRegistry, PAIRING_LIFETIME_MS, SEEN_KEEP_MS } from '../../src/core/device/devices';
import { CODE_ALPHABET } from '../../src/core/device/secrets';

function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

/** A wrong code that differs from `code` in its last character. */
function wrongCode(code: string): string {
  const last = code.at(-1)!;
  return code.slice(0, -1) + (last === '2' ? '3' : '2');
}

describe('pairing: the short code', () => {
  it('is six characters a person cannot misread, shown as XXX-XXX, and typed any way', () => {
    const pairing = new Pairing();
    const { code } = pairing.start();
    assert.match(code, /^[2-9A-Z]{3}-[2-9A-Z]{3}$/);
    for (const c of normalizeCode(code)) assert.ok(CODE_ALPHABET.includes(c), `${c} is unambiguous`);
    assert.ok(pairing.claim(` ${code.toLowerCase().replace('-', ' ')} `, 'Pixel 8'), 'spaces, case and the dash do not matter');
  });

  it('works once: the same code a second time is refused', () => {
    const pairing = new Pairing();
    const { code } = pairing.start();
    assert.ok(pairing.claim(code, 'Pixel 8'));
    assert.equal(pairing.claim(code, 'Attacker phone'), undefined);
  });

  it('expires after two minutes', () => {
    const time = clock();
    const pairing = new Pairing(time.now);
    const { code, expiresAt } = pairing.start();
    assert.equal(expiresAt, time.now() + PAIRING_WINDOW_MS);
    time.advance(PAIRING_WINDOW_MS);
    assert.equal(pairing.claim(code, 'Pixel 8'), undefined);
    assert.equal(pairing.active, false);
  });

  it('ends after five wrong tries: the right code on the sixth is refused', () => {
    const pairing = new Pairing();
    const { code } = pairing.start();
    for (let i = 0; i < PAIRING_TRIES - 1; i++) assert.equal(pairing.claim(wrongCode(normalizeCode(code)), 'guess'), undefined);
    assert.ok(pairing.active, 'four wrong tries leave it open');
    assert.equal(pairing.claim(wrongCode(normalizeCode(code)), 'guess'), undefined);
    assert.equal(pairing.active, false, 'the fifth wrong try ends it');
    assert.equal(pairing.claim(code, 'Pixel 8'), undefined, 'the right code no longer works');
  });

  it('tells the editor when wrong tries end the code, once', () => {
    const pairing = new Pairing();
    let burned = 0;
    pairing.onDidBurn(() => burned++);
    const { code } = pairing.start();
    for (let i = 0; i < PAIRING_TRIES + 2; i++) pairing.claim(wrongCode(normalizeCode(code)), 'guess');
    assert.equal(burned, 1);
  });

  it('listens only while pairing or while a device is paired', () => {
    const time = clock();
    const pairing = new Pairing(time.now);
    assert.equal(shouldListen(pairing, 0), false, 'nothing paired, no code: nothing listens');
    const { code } = pairing.start();
    assert.equal(shouldListen(pairing, 0), true);
    const ticket = pairing.claim(code, 'Pixel')!;
    assert.equal(shouldListen(pairing, 0), true, 'a claim waits for the editor');
    pairing.decide(ticket.claim.id, false);
    pairing.collect(ticket.secret);
    assert.equal(shouldListen(pairing, 0), false);
    assert.equal(shouldListen(pairing, 1), true);
    pairing.start();
    time.advance(PAIRING_WINDOW_MS);
    assert.equal(shouldListen(pairing, 0), false, 'the code expired');
  });

  it('refuses every way alike: nothing tells a wrong code from a used, expired or burned one', () => {
    const pairing = new Pairing();
    assert.equal(pairing.claim('ABC-DEF', 'x'), undefined, 'no code open');
    const { code } = pairing.start();
    const answers = [pairing.claim(wrongCode(normalizeCode(code)), 'x'), pairing.claim(42, 'x'), pairing.claim(code, '')];
    assert.deepEqual(answers, [undefined, undefined, undefined]);
  });

  it('a new code ends the old one', () => {
    const pairing = new Pairing();
    const first = pairing.start();
    pairing.start();
    assert.equal(pairing.claim(first.code, 'Pixel 8'), undefined);
  });
});

describe('pairing: the confirmation in the editor', () => {
  function claimed(time = clock()): { pairing: Pairing; claims: PairingClaim[]; secret: string; claim: PairingClaim; time: typeof time } {
    const pairing = new Pairing(time.now);
    const claims: PairingClaim[] = [];
    pairing.onDidClaim((c) => claims.push(c));
    const ticket = pairing.claim(pairing.start().code, '  Ada’s\u202e Pixel\n8  ')!;
    assert.ok(ticket);
    return { pairing, claims, secret: ticket.secret, claim: ticket.claim, time };
  }

  it('tells the editor the phone’s cleaned name and its own four-digit code', () => {
    const { claims, claim } = claimed();
    assert.equal(claims.length, 1);
    assert.equal(claims[0], claim);
    assert.equal(claim.name, 'Ada’s Pixel 8', 'one line, no bidi override');
    assert.match(claim.confirmCode, /^\d{4}$/);
  });

  it('pairs only when the person confirms in the editor; the phone learns it once', () => {
    const { pairing, secret, claim } = claimed();
    assert.deepEqual(pairing.collect(secret), { status: 'waiting' });
    assert.ok(pairing.decide(claim.id, true));
    const collected = pairing.collect(secret);
    assert.equal(collected.status, 'confirmed');
    assert.deepEqual(pairing.collect(secret), { status: 'refused' }, 'handed over once');
  });

  it('is refused when the person says no, and to anyone without the phone’s claim secret', () => {
    const { pairing, secret, claim } = claimed();
    assert.deepEqual(pairing.collect('not-the-secret'), { status: 'refused' });
    assert.deepEqual(pairing.collect(undefined), { status: 'refused' });
    assert.ok(pairing.decide(claim.id, false));
    assert.deepEqual(pairing.collect(secret), { status: 'refused' });
  });

  it('expires when nobody confirms within two minutes', () => {
    const { pairing, secret, claim, time } = claimed();
    time.advance(CONFIRM_WINDOW_MS);
    assert.equal(pairing.decide(claim.id, true), false);
    assert.deepEqual(pairing.collect(secret), { status: 'refused' });
  });

  it('keeps device names to one short printable line', () => {
    assert.equal(deviceName('x'.repeat(500))!.length, 40);
    assert.equal(deviceName('\u200b\u202e'), undefined);
    assert.equal(deviceName(7), undefined);
  });
});

describe('paired devices', () => {
  it('hand out a long random token once and keep only its digest', () => {
    const registry = new DeviceRegistry();
    const { device, token } = registry.add('Pixel 8');
    assert.ok(token.length >= 43, '256 bits');
    assert.notEqual(registry.add('Other').token, token);
    const kept = JSON.stringify(registry.toJSON());
    assert.ok(!kept.includes(token), 'the token is not kept');
    assert.match(device.tokenDigest, /^[0-9a-f]{64}$/);
    assert.equal(registry.verify(token)?.id, device.id);
  });

  it('refuse a wrong, empty, over-long or non-string token', () => {
    const registry = new DeviceRegistry();
    const { token } = registry.add('Pixel 8');
    for (const wrong of [token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'), '', 'x'.repeat(10_000), undefined, 12]) {
      assert.equal(registry.verify(wrong), undefined);
    }
  });

  it('expire unless renewed; renewal gives another full lifetime', () => {
    const time = clock();
    const registry = new DeviceRegistry([], time.now);
    const { device, token } = registry.add('Pixel 8');
    assert.equal(device.expiresAt, time.now() + PAIRING_LIFETIME_MS);
    time.advance(PAIRING_LIFETIME_MS - 1000);
    assert.ok(registry.renew(device.id));
    time.advance(PAIRING_LIFETIME_MS - 1000);
    assert.ok(registry.verify(token), 'renewed in time: still paired');
    time.advance(1000);
    assert.equal(registry.verify(token), undefined, 'not renewed again: expired');
    assert.equal(registry.renew(device.id), false, 'an expired pairing cannot be renewed');
    assert.deepEqual(registry.list(), []);
  });

  it('stop working at once when revoked, and the change is announced to be kept', () => {
    const registry = new DeviceRegistry();
    let changes = 0;
    registry.onDidChange(() => changes++);
    const { device, token } = registry.add('Pixel 8');
    assert.ok(registry.revoke(device.id));
    assert.equal(registry.verify(token), undefined);
    assert.equal(changes, 2);
  });

  it('take another window’s list as it is: a device revoked there stops working here, without writing it back', () => {
    const here = new DeviceRegistry();
    const { device, token } = here.add('Pixel 8');
    const there = new DeviceRegistry(JSON.parse(JSON.stringify(here.toJSON())) as never);
    const other = there.add('iPad');
    there.revoke(device.id);
    let changes = 0;
    here.onDidChange(() => changes++);
    assert.ok(here.replaceWith(JSON.parse(JSON.stringify(there.toJSON())) as never));
    assert.equal(changes, 0, 'nothing to keep again');
    assert.equal(here.verify(token), undefined, 'revoked in the other window');
    assert.equal(here.verify(other.token)?.name, 'iPad', 'paired in the other window');
    assert.ok(!here.replaceWith(there.toJSON()), 'the same list is no change');
  });

  it('keep when a device was last seen, now and then: it outlives a reload without a write per request', () => {
    const time = clock();
    const registry = new DeviceRegistry([], time.now);
    const { device, token } = registry.add('Pixel 8');
    let changes = 0;
    registry.onDidChange(() => changes++);
    assert.ok(registry.verify(token));
    assert.equal(changes, 1, 'first seen: kept');
    time.advance(SEEN_KEEP_MS - 1);
    assert.ok(registry.verify(token));
    assert.equal(changes, 1, 'seen again soon: not kept again');
    assert.equal(registry.list()[0]!.lastSeenAt, time.now(), 'the list shows the latest');
    time.advance(1);
    assert.ok(registry.verify(token));
    assert.equal(changes, 2, 'seen again later: kept');
    const reloaded = new DeviceRegistry(JSON.parse(JSON.stringify(registry.toJSON())) as never, time.now);
    assert.equal(reloaded.list().find((d) => d.id === device.id)?.lastSeenAt, time.now());
    // Another window's older list does not take the newer sighting back.
    const older = JSON.parse(JSON.stringify(registry.toJSON())) as Array<{ lastSeenAt: number }>;
    older[0]!.lastSeenAt -= 60_000;
    registry.replaceWith(older as never);
    assert.equal(registry.list()[0]!.lastSeenAt, time.now());
  });

  it('come back from what was kept, and skip entries that are not devices', () => {
    const first = new DeviceRegistry();
    const { token } = first.add('Pixel 8');
    const saved = JSON.parse(JSON.stringify(first.toJSON())) as unknown[];
    const again = new DeviceRegistry([...saved, { id: 'x', name: 'y', tokenDigest: 'short', pairedAt: 0, expiresAt: 9e15 }, null] as never);
    assert.equal(again.list().length, 1);
    assert.equal(again.verify(token)?.name, 'Pixel 8');
  });
});
