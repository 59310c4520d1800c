/**
 * The page's side of a webview's messages, typed by its protocol
 * (src/core/protocols/): `ToHost` what the page sends, `ToPage` what the host
 * sends. The host's side is src/vscode/webview/webviewHost.ts. VS Code gives a
 * page its API once (`acquireVsCodeApi`), so each page connects once.
 */

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export interface Host<ToHost> {
  post(message: ToHost): void;
  /** What the page kept with `setState` before it was hidden (and reloaded). */
  getState(): unknown;
  setState(state: unknown): void;
}

/**
 * `onMessage` gets every message from the host that is an object with a `type`;
 * the page checks the rest of its shape, since the host is another process.
 */
export function connectToHost<ToHost, ToPage extends { type: string }>(onMessage: (message: ToPage) => void): Host<ToHost> {
  const api = acquireVsCodeApi();
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const message = event.data as ToPage | undefined;
    if (typeof message !== 'object' || message === null) return;
    onMessage(message);
  });
  return {
    post: (message) => api.postMessage(message),
    getState: () => api.getState(),
    setState: (state) => api.setState(state),
  };
}
