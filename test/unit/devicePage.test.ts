/**
 * The phone page (issue #23): its script runs only by a nonce fresh for each
 * response, nothing else may run or connect elsewhere, and the page's code
 * inserts server text only as text.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { devicePage } from '../../src/device/page';
import { ageText } from '../../webview/phone/age';

const PAGE_DIR = path.join(__dirname, '..', '..', 'webview', 'phone');

describe('the phone page', () => {
  it('runs only its own script, by a nonce fresh for every response', () => {
    const first = devicePage('console.log(1)');
    const second = devicePage('console.log(1)');
    const nonce = /script-src 'nonce-([^']+)'/.exec(first.csp)?.[1];
    assert.ok(nonce && nonce.length >= 22, 'a 128-bit nonce');
    assert.notEqual(first.csp, second.csp);
    assert.ok(first.html.includes(`<script type="module" nonce="${nonce}">console.log(1)</script>`));
    for (const rule of ["default-src 'none'", "connect-src 'self'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'none'"]) {
      assert.ok(first.csp.includes(rule), rule);
    }
    assert.doesNotMatch(first.csp, /unsafe-inline|unsafe-eval|\*/);
  });

  it('keeps a script that contains </script> inside its one element', () => {
    const { html } = devicePage('const s = "</script><script>alert(1)</script><!--";');
    assert.ok(html.includes('"<\\/script><script>alert(1)<\\/script><\\!--"'), 'escaped, the same string to the script');
    assert.equal(html.match(/<\/script>/gi)!.length, 1);
    assert.doesNotMatch(html, /<!--/);
  });

  it('is phone-sized and sends no referrer', () => {
    const { html } = devicePage('');
    assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
    assert.match(html, /<meta name="referrer" content="no-referrer">/);
  });

  it('never parses text as HTML in its code', () => {
    const files = readdirSync(PAGE_DIR).filter((f) => f.endsWith('.ts'));
    assert.ok(files.includes('main.ts'));
    for (const file of files) {
      const source = readFileSync(path.join(PAGE_DIR, file), 'utf8');
      assert.doesNotMatch(source, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|DOMParser|createContextualFragment|srcdoc/, file);
    }
  });

  it('says how long a question has waited in a few words', () => {
    const now = 10 * 3_600_000;
    assert.equal(ageText(now - 20_000, now), 'just now');
    assert.equal(ageText(now - 4 * 60_000, now), '4 min');
    assert.equal(ageText(now - 65 * 60_000, now), '1 h 5 min');
    assert.equal(ageText(now - 120 * 60_000, now), '2 h');
    assert.equal(ageText(now + 5000, now), 'just now', 'a clock a little ahead');
  });
});
