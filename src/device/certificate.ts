/**
 * The device server's own certificate: a P-256 key and a self-signed X.509
 * certificate for the addresses it listens on, made with node's crypto alone
 * (no OpenSSL on the person's machine, no dependency). A phone cannot check it
 * against a CA, so the editor shows its SHA-256 fingerprint and the person can
 * compare it with what the phone's browser shows.
 */
import { X509Certificate, createPrivateKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isIP } from 'node:net';

export interface DeviceCertificate {
  /** PEM */
  key: string;
  /** PEM */
  cert: string;
  /** "AB:CD:…", as browsers show it. */
  fingerprint256: string;
  validTo: Date;
}

export const CERTIFICATE_DAYS = 397;

// DER, as much as an X.509 certificate needs.
function der(tag: number, content: Buffer): Buffer {
  const length = content.length;
  let head: Buffer;
  if (length < 0x80) head = Buffer.from([tag, length]);
  else {
    const bytes: number[] = [];
    for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
    head = Buffer.from([tag, 0x80 | bytes.length, ...bytes]);
  }
  return Buffer.concat([head, content]);
}
const seq = (...parts: Buffer[]): Buffer => der(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]): Buffer => der(0x31, Buffer.concat(parts));
const explicit = (n: number, inner: Buffer): Buffer => der(0xa0 + n, inner);
const utf8 = (text: string): Buffer => der(0x0c, Buffer.from(text, 'utf8'));
const octets = (content: Buffer): Buffer => der(0x04, content);
const bits = (content: Buffer): Buffer => der(0x03, Buffer.concat([Buffer.from([0]), content]));
const bool = (value: boolean): Buffer => der(0x01, Buffer.from([value ? 0xff : 0]));

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [a! * 40 + b!];
  for (const n of rest) {
    const chunk: number[] = [n & 0x7f];
    for (let v = n >>> 7; v > 0; v >>>= 7) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return der(0x06, Buffer.from(bytes));
}

function positiveInteger(value: Buffer): Buffer {
  const body = value[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), value]) : value;
  return der(0x02, body);
}

/** UTCTime until 2049, GeneralizedTime after, as RFC 5280 requires. */
function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z';
  return date.getUTCFullYear() < 2050 ? der(0x17, Buffer.from(iso.slice(2), 'ascii')) : der(0x18, Buffer.from(iso, 'ascii'));
}

function ipBytes(address: string): Buffer {
  if (isIP(address) === 4) return Buffer.from(address.split('.').map(Number));
  const [head = '', tail = ''] = address.split('::');
  const groups = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = address.includes('::') ? groups(tail) : [];
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return Buffer.concat(all.map((g) => Buffer.from(g.padStart(4, '0'), 'hex')));
}

function subjectAltNames(names: readonly string[]): Buffer {
  const entries = names.map((name) => (isIP(name) ? der(0x87, ipBytes(name)) : der(0x82, Buffer.from(name.toLowerCase(), 'ascii'))));
  return seq(oid('2.5.29.17'), octets(seq(...entries)));
}

/** One subjectAltName entry as node prints it, compared by value ("::1" is "0:0:0:0:0:0:0:1"). */
function sanKey(entry: string): string {
  const ip = /^IP Address:(.*)$/.exec(entry)?.[1];
  if (ip !== undefined && isIP(ip)) return `ip:${ipBytes(ip).toString('hex')}`;
  return entry.toLowerCase();
}

const ECDSA_SHA256 = seq(oid('1.2.840.10045.4.3.2'));

/**
 * A new key and certificate for `names` (IP addresses and host names the
 * phone uses), valid CERTIFICATE_DAYS from now.
 */
export function createDeviceCertificate(names: readonly string[], now = new Date()): DeviceCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const name = seq(set(seq(oid('2.5.4.3'), utf8('Elicit on this computer'))));
  const notBefore = new Date(now.getTime() - 60_000);
  const notAfter = new Date(now.getTime() + CERTIFICATE_DAYS * 24 * 60 * 60_000);
  const serial = randomBytes(16);
  serial[0]! &= 0x7f;
  const extensions = explicit(
    3,
    seq(
      seq(oid('2.5.29.19'), bool(true), octets(seq())), // basicConstraints: not a CA
      seq(oid('2.5.29.15'), bool(true), octets(der(0x03, Buffer.from([7, 0x80])))), // keyUsage: digitalSignature (7 unused bits)
      seq(oid('2.5.29.37'), octets(seq(oid('1.3.6.1.5.5.7.3.1')))), // extKeyUsage: serverAuth
      subjectAltNames(names),
    ),
  );
  const tbs = seq(
    explicit(0, der(0x02, Buffer.from([2]))),
    positiveInteger(serial),
    ECDSA_SHA256,
    name,
    seq(time(notBefore), time(notAfter)),
    name,
    spki,
    extensions,
  );
  const signature = sign('sha256', tbs, privateKey);
  const certificate = seq(tbs, ECDSA_SHA256, bits(signature));
  const cert = `-----BEGIN CERTIFICATE-----\n${certificate
    .toString('base64')
    .replace(/.{64}/g, '$&\n')
    .trimEnd()}\n-----END CERTIFICATE-----\n`;
  const key = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { key, cert, ...certificateFacts(cert) };
}

/** The fingerprint and end of a kept certificate (it is made once and kept, so the fingerprint stays the same). */
export function certificateFacts(cert: string): { fingerprint256: string; validTo: Date } {
  const x509 = new X509Certificate(cert);
  return { fingerprint256: x509.fingerprint256, validTo: new Date(x509.validTo) };
}

/** Whether a kept key and certificate still belong together, cover `names` and stay valid a while. */
export function certificateFits(kept: { key: string; cert: string }, names: readonly string[], now = new Date()): boolean {
  try {
    const x509 = new X509Certificate(kept.cert);
    if (!x509.checkPrivateKey(createPrivateKey(kept.key))) return false;
    if (new Date(x509.validTo).getTime() - now.getTime() < 7 * 24 * 60 * 60_000) return false;
    const covered = new Set((x509.subjectAltName ?? '').split(', ').map(sanKey));
    return names.every((n) => covered.has(sanKey(isIP(n) ? `IP Address:${n}` : `DNS:${n}`)));
  } catch {
    return false;
  }
}
