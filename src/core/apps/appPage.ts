/**
 * The page an app question's tab loads: a host page of Elicit's that holds the
 * app in a frame of its own, under a policy of Elicit's (appCsp: no network beyond
 * the domains the resource declares).
 *
 * The app's frame is sandboxed without `allow-same-origin`, so its origin is opaque:
 * it can reach neither this page (where the webview's API is) nor the editor's
 * window above it — in code-server a webview's page is on the workbench's own
 * origin, so the webview alone would not keep an app from the editor — and it
 * cannot navigate the top window. It talks to its host as MCP Apps do, by posting
 * to `window.parent`: this page, whose script passes what the app posts to the
 * extension host (wrapped, `{ elicitApp }`), and the host's messages to the app.
 * The app's page is the frame's `srcdoc`, so it keeps this page's policy (a frame
 * of a local scheme inherits it), plus any of its own.
 */
import { appCsp, type AppResource } from './appQuestion';

/** What the extension host posts to an app page, and what it posts back: one JSON-RPC message of the app's. */
export interface AppPageMessage {
  elicitApp: unknown;
}

/** The app's frame: scripts and forms, nothing of this page's origin, no top navigation, no popups. */
export const APP_FRAME_SANDBOX = 'allow-scripts allow-forms';

const HOST_SCRIPT = (appHtml: string): string => `(() => {
  const api = acquireVsCodeApi();
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', '${APP_FRAME_SANDBOX}');
  frame.setAttribute('title', 'App');
  frame.srcdoc = ${JSON.stringify(appHtml)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')};
  addEventListener('message', (event) => {
    if (event.source === frame.contentWindow) {
      api.postMessage({ elicitApp: event.data });
      return;
    }
    const data = event.data;
    if (event.source !== frame.contentWindow && data && typeof data === 'object' && 'elicitApp' in data && frame.contentWindow) {
      frame.contentWindow.postMessage(data.elicitApp, '*');
    }
  });
  document.body.append(frame);
})();`;

/** The host page the webview loads for an app: Elicit's policy and script, the app inside its sandboxed frame. */
export function appPage(resource: AppResource): string {
  const csp = appCsp(resource.csp).replace(/"/g, '&quot;');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<style>html, body { margin: 0; padding: 0; height: 100%; overflow: hidden; } iframe { border: 0; width: 100%; height: 100%; display: block; background: transparent; }</style>
</head>
<body>
<script>${HOST_SCRIPT(resource.html)}</script>
</body>
</html>`;
}
