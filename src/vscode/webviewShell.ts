/**
 * The fixed page every Elicit webview loads: no asker or agent text at all
 * (that arrives by postMessage and is inserted as text), and one module script —
 * loaded from the extension, or written into the page itself (the form's: no
 * request through the webview's service worker before a question is drawn) —
 * under a strict CSP with a fresh nonce. Each script brings its own stylesheets
 * (bundled as text, see esbuild.mjs), one request fewer before the page draws;
 * they and vscode-elements' shadow roots use constructed stylesheets
 * (adoptedStyleSheets), which CSP does not govern. Components set sizes through
 * the CSSOM (element.style), which CSP allows — so no 'unsafe-inline'.
 */
import { randomBytes } from 'node:crypto';
import type * as vscode from 'vscode';

/** The extension's own bundled script, to be written into the page. */
export interface InlineScript {
  inline: string;
}

export function webviewShell(webview: vscode.Webview, script: vscode.Uri | InlineScript, title: string): string {
  const nonce = randomBytes(16).toString('base64');
  const csp = [
    `default-src 'none'`,
    `style-src ${webview.cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource}`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${title}</title>
</head>
<body>
<main id="app" aria-busy="true"></main>
${'inline' in script ? `<script type="module" nonce="${nonce}">${script.inline}</script>` : `<script type="module" nonce="${nonce}" src="${webview.asWebviewUri(script).toString()}"></script>`}
</body>
</html>`;
}

/**
 * The bundled script's text, when it can be written into the page as it is:
 * never when it holds text that would end or bend the script element (the
 * production bundle holds none; a development build might).
 */
export function inlineable(code: string): InlineScript | undefined {
  return /<\/script|<!--|<script/i.test(code) ? undefined : { inline: code };
}
