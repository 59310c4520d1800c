/**
 * The device server's own certificate (issue #23), made with node's crypto
 * alone: a P-256 key, self-signed, for the addresses the phone uses, with the
 * SHA-256 fingerprint the editor shows.
 */
import assert from 'node:assert/strict';
import { X509Certificate, createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { CERTIFICATE_DAYS, certificateFacts, certificateFits, createDeviceCertificate } from '../../src/device/certificate';

describe('device certificate', () => {
  const names = ['192.168.1.20', '::1', 'localhost'];
  const made = createDeviceCertificate(names, new Date('2026-11-25T00:00:00Z'));

  it('is a server certificate for exactly the given addresses, signed by its own key, not a CA', () => {
    const x509 = new X509Certificate(made.cert);
    assert.equal(x509.subjectAltName, 'IP Address:192.168.1.20, IP Address:0:0:0:0:0:0:0:1, DNS:localhost');
    assert.ok(x509.verify(x509.publicKey), 'self-signed');
    assert.equal(x509.ca, false);
    assert.equal(x509.publicKey.asymmetricKeyDetails?.namedCurve, 'prime256v1');
    assert.deepEqual(x509.keyUsage, ['1.3.6.1.5.5.7.3.1'], 'server authentication');
    assert.equal(new Date(x509.validTo).getTime(), new Date('2026-11-25T00:00:00Z').getTime() + CERTIFICATE_DAYS * 86_400_000);
  });

  it('shows the SHA-256 fingerprint of its DER bytes, as a browser does', () => {
    const der = new X509Certificate(made.cert).raw;
    const expected = createHash('sha256').update(der).digest('hex').toUpperCase().match(/../g)!.join(':');
    assert.equal(made.fingerprint256, expected);
    assert.equal(certificateFacts(made.cert).fingerprint256, expected);
  });

  it('is kept while it fits: the same key, every address covered, not about to end', () => {
    const now = new Date('2026-11-25T00:00:00Z');
    assert.ok(certificateFits(made, ['192.168.1.20', '0:0:0:0:0:0:0:1'], now));
    assert.equal(certificateFits(made, ['10.0.0.7'], now), false, 'a new address needs a new certificate');
    assert.equal(certificateFits({ key: createDeviceCertificate(names).key, cert: made.cert }, names, now), false, 'another key');
    assert.equal(certificateFits(made, names, new Date(made.validTo.getTime() - 86_400_000)), false, 'ends within a week');
    assert.equal(certificateFits({ key: 'x', cert: 'y' }, names, now), false);
  });
});
