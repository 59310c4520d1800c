/**
 * The pairing panel: the link a phone opens, as a QR code and as
 * text, the short code and when it ends, the certificate's fingerprint to
 * compare, and the paired devices with Revoke. Everything arrives from the
 * host as `state` (pairingProtocol.ts) and is drawn as text; the QR code is
 * drawn from its modules as SVG rectangles, never from markup.
 */
import { isPairingState, type PairingState, type PairingToHost } from '../../src/core/protocols/pairingProtocol';
import { adoptStyles, el } from '../shared/dom';
import { connectToHost } from '../shared/host';
import buttons from '../shared/buttons.css';
import theme from '../shared/theme.css';
import styles from './styles.css';

adoptStyles(theme);
adoptStyles(buttons);
adoptStyles(styles);

const SVG = 'http://www.w3.org/2000/svg';
const app = document.getElementById('app')!;
let ticker: number | undefined;

const host = connectToHost<PairingToHost, PairingState>((message) => {
  if (!isPairingState(message)) return;
  draw(message);
});
host.post({ type: 'ready' });

function button(text: string, onClick: () => void, secondary = false): HTMLButtonElement {
  const b = el('button', { text, className: secondary ? 'secondary' : '', attrs: { type: 'button' } });
  b.addEventListener('click', onClick);
  return b;
}

/** The QR code: one rectangle per run of dark modules in a row, inside a 4-module quiet zone. */
function qrImage(rows: readonly string[]): SVGSVGElement {
  const quiet = 4;
  const size = rows.length + quiet * 2;
  const svg = document.createElementNS(SVG, 'svg');
  svg.id = 'qr';
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', 'QR code of the pairing link');
  svg.setAttribute('shape-rendering', 'crispEdges');
  const background = document.createElementNS(SVG, 'rect');
  background.setAttribute('width', String(size));
  background.setAttribute('height', String(size));
  background.setAttribute('fill', '#fff');
  svg.append(background);
  rows.forEach((row, y) => {
    for (const run of row.matchAll(/1+/g)) {
      const rect = document.createElementNS(SVG, 'rect');
      rect.setAttribute('x', String(run.index + quiet));
      rect.setAttribute('y', String(y + quiet));
      rect.setAttribute('width', String(run[0].length));
      rect.setAttribute('height', '1');
      rect.setAttribute('fill', '#000');
      svg.append(rect);
    }
  });
  return svg;
}

function timeLeft(endsAt: number): string {
  const seconds = Math.max(0, Math.round((endsAt - Date.now()) / 1000));
  return seconds === 0 ? 'This code has ended.' : `Ends in ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}.`;
}

function pairingSection(state: PairingState): HTMLElement {
  const section = el('section', { attrs: { 'aria-labelledby': 'pair-heading' } }, el('h1', { id: 'pair-heading', text: 'Pair a Device' }));
  if (state.problem) section.append(el('p', { className: 'problem', text: state.problem, attrs: { role: 'alert' } }));
  if (state.link && state.code) {
    const ends = el('p', { className: 'muted', id: 'code-ends', text: state.codeEndsAt ? timeLeft(state.codeEndsAt) : '' });
    const details = el(
      'div',
      {},
      el('p', { text: 'Scan the code with your phone’s camera, or open this address on it:' }),
      el('p', { className: 'link', id: 'pairing-url', text: state.link }),
      el('p', { text: 'The page asks for this code (the QR code brings it along):' }),
      el('p', { className: 'code', id: 'pairing-code', text: state.code }),
      ends,
      el('p', {
        className: 'muted',
        text: 'Your phone then shows a short number of its own: Elicit asks you here whether it is the same. Pair only if it is.',
      }),
      el(
        'div',
        { className: 'actions' },
        button('New Code', () => host.post({ type: 'newCode' }), true),
        button('Copy Link', () => host.post({ type: 'copyLink' }), true),
      ),
    );
    section.append(el('div', { className: 'pairing' }, ...(state.qr ? [qrImage(state.qr)] : []), details));
    window.clearInterval(ticker);
    if (state.codeEndsAt) {
      const endsAt = state.codeEndsAt;
      ticker = window.setInterval(() => (ends.textContent = timeLeft(endsAt)), 1000);
    }
  } else if (!state.problem) {
    section.append(
      el('p', { text: 'No pairing code is open.' }),
      el(
        'div',
        { className: 'actions' },
        button('New Code', () => host.post({ type: 'newCode' })),
      ),
    );
  }
  if (state.fingerprint) {
    section.append(
      el('h2', { text: 'Certificate' }),
      el('p', {
        text: 'Elicit made this address’s certificate itself, so your phone says it is not trusted. Go on only if the certificate’s SHA-256 fingerprint is:',
      }),
      el('p', { className: 'fingerprint', id: 'fingerprint', text: state.fingerprint }),
    );
  }
  return section;
}

function devicesSection(state: PairingState): HTMLElement {
  const section = el(
    'section',
    { attrs: { 'aria-labelledby': 'devices-heading' } },
    el('h2', { id: 'devices-heading', text: 'Paired devices' }),
  );
  if (state.devices.length === 0) {
    section.append(el('p', { className: 'muted', text: 'None yet.' }));
    return section;
  }
  const list = el('ul', { id: 'devices' });
  for (const device of state.devices) {
    const seen = device.lastSeenAt ? ` · last seen ${new Date(device.lastSeenAt).toLocaleString()}` : '';
    const revoke = button('Revoke', () => host.post({ type: 'revoke', id: device.id }), true);
    revoke.setAttribute('aria-label', `Revoke ${device.name}`);
    list.append(
      el(
        'li',
        {},
        el(
          'div',
          { className: 'grow' },
          el('div', { className: 'name', text: device.name }),
          el('div', {
            className: 'muted',
            text: `Paired ${new Date(device.pairedAt).toLocaleDateString()} · until ${new Date(device.expiresAt).toLocaleDateString()}${seen}`,
          }),
        ),
        revoke,
      ),
    );
  }
  section.append(list);
  return section;
}

function draw(state: PairingState): void {
  app.replaceChildren(pairingSection(state), devicesSection(state));
  app.removeAttribute('aria-busy');
}
