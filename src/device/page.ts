/**
 * The phone page's HTML: a fixed shell with the page's script (the bundle of
 * webview/phone/main.ts) inline under a CSP that allows only that script, by a
 * nonce fresh for every response; connections to this server only; no frames,
 * no forms posted anywhere, no base URL. The shell holds no asker text: the
 * script draws everything as text.
 */
import { randomBytes } from 'node:crypto';

export interface DevicePage {
  html: string;
  csp: string;
}

export function devicePage(script: string): DevicePage {
  const nonce = randomBytes(16).toString('base64');
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  // The script cannot end its own element early.
  const inline = script.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light dark">
<title>Elicit</title>
</head>
<body>
<main id="app"></main>
<script type="module" nonce="${nonce}">${inline}</script>
</body>
</html>
`;
  return { html, csp };
}
