/**
 * Elicit's own lists (a command's server, tool, agent or device list) stay open when the keyboard
 * leaves them; Escape closes them. VS Code gives a webview editor the keyboard only once its page has
 * loaded: a tool's result just opened, an agent panel, or the tab shown when a form's tab closed can
 * take it after the person opened the next list, and the list they were about to click vanished.
 */
export const KEPT_OPEN = { ignoreFocusOut: true } as const;
