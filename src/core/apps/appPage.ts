/**
 * The page an app question's tab loads: a host page of Elicit's that holds the
 * app in a frame of its own, under a policy of Elicit's (appCsp: no network beyond
 * the domains the resource declares), below Elicit's own strip.
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
 *
 * The strip is this page's, above the frame: a frame draws
 * only inside its own box, and this page is the height of the tab with nothing to
 * scroll, so the app can neither cover the strip nor scroll it away. It says who
 * asks, that the page below is the server's and not Elicit's, which sites the app
 * may reach, and holds Elicit's own ways out: the form, Decline,
 * Later, Cancel. Each posts `{ elicitStrip: action }`.
 */
import { oneLine } from '../display';
import { appCsp, appDomains, type AppResource } from './appQuestion';

/** What the extension host posts to an app page, and what it posts back: one JSON-RPC message of the app's. */
export interface AppPageMessage {
  elicitApp: unknown;
}

/** The app's frame: scripts and forms, nothing of this page's origin, no top navigation, no popups. */
export const APP_FRAME_SANDBOX = 'allow-scripts allow-forms';

/** The strip's buttons: Elicit's form instead of the app, and the form's own Decline, Later and Cancel. */
export const STRIP_ACTIONS = ['form', 'decline', 'later', 'cancel'] as const;
export type StripAction = (typeof STRIP_ACTIONS)[number];

export function isStripAction(value: unknown): value is StripAction {
  return typeof value === 'string' && (STRIP_ACTIONS as readonly string[]).includes(value);
}

/** Who the strip names, and which of its buttons this question takes. */
export interface AppStrip {
  asker: { name: string; detail?: string };
  actions: readonly StripAction[];
}

const BUTTONS: Record<StripAction, { label: string; title: string }> = {
  form: { label: "Answer in Elicit's Form", title: "Answer this question in Elicit's own form instead" },
  decline: { label: 'Decline', title: 'Tell the asker you will not answer' },
  later: { label: 'Later', title: 'Put this question off; answer it from Pending Questions' },
  cancel: { label: 'Cancel', title: 'Close without answering' },
};

/** What the strip shows, as plain strings: the page's script puts each in as text. */
function stripView(resource: AppResource, strip: AppStrip): unknown {
  const name = oneLine(strip.asker.name, 60);
  const detail = strip.asker.detail ? ` · ${oneLine(strip.asker.detail, 80)}` : '';
  const domains = appDomains(resource.csp);
  return {
    who: `${name} asks${detail}`,
    notice: `The page below is ${name}'s own, not Elicit's: what you type in it goes to ${name}. Elicit asks for secrets only in its own form.`,
    reach: domains.length > 0 ? `It may reach: ${domains.join(', ')}` : 'It may reach no site.',
    buttons: strip.actions.map((action) => ({ action, ...BUTTONS[action] })),
  };
}

/** A value as a script literal that cannot end the script it is written into. */
function scriptLiteral(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const HOST_SCRIPT = (appHtml: string, strip: unknown): string => `(() => {
  const api = acquireVsCodeApi();
  const view = ${scriptLiteral(strip)};
  const text = (tag, className, value) => {
    const node = document.createElement(tag);
    node.className = className;
    node.textContent = value;
    return node;
  };
  const bar = document.createElement('header');
  bar.id = 'elicit-strip';
  bar.setAttribute('aria-label', 'Elicit');
  const words = document.createElement('div');
  words.className = 'words';
  words.append(text('p', 'who', view.who), text('p', 'notice', view.notice), text('p', 'reach', view.reach));
  const buttons = document.createElement('div');
  buttons.className = 'buttons';
  for (const b of view.buttons) {
    const button = text('button', b.action === 'form' ? 'primary' : 'secondary', b.label);
    button.type = 'button';
    button.title = b.title;
    button.addEventListener('click', () => api.postMessage({ elicitStrip: b.action }));
    buttons.append(button);
  }
  bar.append(text('strong', 'badge', 'Elicit'), words, buttons);
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', '${APP_FRAME_SANDBOX}');
  frame.setAttribute('title', 'App');
  frame.srcdoc = ${scriptLiteral(appHtml)};
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
  // The strip first: it is there before the app's page loads.
  document.body.append(bar, frame);
})();`;

const STYLE = `html, body { margin: 0; padding: 0; height: 100%; overflow: hidden; }
body { display: flex; flex-direction: column; }
#elicit-strip { flex: none; max-height: 40vh; overflow: auto; display: flex; flex-wrap: wrap; align-items: center; gap: 6px 12px; padding: 6px 12px;
  font-family: var(--vscode-font-family, sans-serif); font-size: var(--vscode-font-size, 13px);
  background: var(--vscode-editorWidget-background, #252526); color: var(--vscode-editorWidget-foreground, var(--vscode-foreground, #ccc));
  border-bottom: 2px solid var(--vscode-focusBorder, #007fd4); }
#elicit-strip .badge { padding: 1px 6px; border-radius: 2px; background: var(--vscode-badge-background, #4d4d4d); color: var(--vscode-badge-foreground, #fff); }
#elicit-strip .words { flex: 1 1 320px; min-width: 0; }
#elicit-strip p { margin: 0; overflow-wrap: anywhere; }
#elicit-strip .who { font-weight: 600; }
#elicit-strip .buttons { display: flex; flex-wrap: wrap; gap: 6px; }
#elicit-strip button { font: inherit; padding: 3px 10px; border: 1px solid var(--vscode-button-border, transparent); border-radius: 2px; cursor: pointer; }
#elicit-strip button.primary { background: var(--vscode-button-background, #0e639c); color: var(--vscode-button-foreground, #fff); }
#elicit-strip button.secondary { background: var(--vscode-button-secondaryBackground, #3a3d41); color: var(--vscode-button-secondaryForeground, #fff); }
#elicit-strip button:focus-visible { outline: 1px solid var(--vscode-focusBorder, #007fd4); outline-offset: 2px; }
iframe { flex: 1 1 auto; min-height: 0; border: 0; width: 100%; display: block; background: transparent; }`;

/** The host page the webview loads for an app: Elicit's policy, script and strip, the app inside its sandboxed frame. */
export function appPage(resource: AppResource, strip: AppStrip): string {
  const csp = appCsp(resource.csp).replace(/"/g, '&quot;');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<style>${STYLE}</style>
</head>
<body>
<script>${HOST_SCRIPT(resource.html, stripView(resource, strip))}</script>
</body>
</html>`;
}
