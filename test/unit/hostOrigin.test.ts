/** The one Host and Origin check of the gateway and the device server (issue #35). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allowedHosts, refuseHostOrOrigin, singleHeader } from '../../src/core/http/hostOrigin';

const gateway = { hosts: allowedHosts(['127.0.0.1', 'localhost'], 8765), scheme: 'http' as const };
const device = { hosts: allowedHosts(['192.168.1.20', '::1'], 8443), scheme: 'https' as const, origins: ['https://8443.example.dev'] };

describe('refuseHostOrOrigin', () => {
  it('takes the server’s own Host, any case, with no Origin or its own', () => {
    assert.equal(refuseHostOrOrigin({ host: '127.0.0.1:8765' }, gateway), undefined);
    assert.equal(refuseHostOrOrigin({ host: ['LOCALHOST:8765'], origin: ['http://localhost:8765'] }, gateway), undefined);
    assert.equal(refuseHostOrOrigin({ host: '[::1]:8443', origin: 'https://[::1]:8443' }, device), undefined);
    assert.equal(refuseHostOrOrigin({ host: '192.168.1.20:8443', origin: 'https://8443.example.dev' }, device), undefined);
  });

  it('refuses a missing, foreign or repeated Host, the server’s own first or not', () => {
    assert.equal(refuseHostOrOrigin({}, gateway), 'host');
    assert.equal(refuseHostOrOrigin({ host: 'evil.example:8765' }, gateway), 'host');
    assert.equal(refuseHostOrOrigin({ host: ['127.0.0.1:8765', 'evil.example:8765'] }, gateway), 'host');
    assert.equal(refuseHostOrOrigin({ host: ['evil.example:8443', '192.168.1.20:8443'] }, device), 'host');
    assert.equal(refuseHostOrOrigin({ host: '192.168.1.20:8444' }, device), 'host');
  });

  it('refuses another Origin, the other scheme, or two Origins', () => {
    assert.equal(refuseHostOrOrigin({ host: '127.0.0.1:8765', origin: 'https://evil.example' }, gateway), 'origin');
    assert.equal(refuseHostOrOrigin({ host: '127.0.0.1:8765', origin: 'https://127.0.0.1:8765' }, gateway), 'origin');
    assert.equal(refuseHostOrOrigin({ host: '127.0.0.1:8765', origin: ['http://127.0.0.1:8765', 'http://evil'] }, gateway), 'origin');
    assert.equal(refuseHostOrOrigin({ host: '192.168.1.20:8443', origin: 'null' }, device), 'origin');
  });

  it('reads one value of a header; none when repeated', () => {
    assert.equal(singleHeader({ a: 'x' }, 'a'), 'x');
    assert.equal(singleHeader({ a: ['x'] }, 'a'), 'x');
    assert.equal(singleHeader({ a: ['x', 'y'] }, 'a'), undefined);
    assert.equal(singleHeader({}, 'a'), undefined);
  });
});
