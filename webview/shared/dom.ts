/**
 * Tiny DOM helpers. Asker text only ever becomes textContent or a property:
 * nothing here parses HTML.
 */

export interface ElementOptions {
  className?: string;
  id?: string;
  text?: string;
  attrs?: Record<string, string>;
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: ElementOptions = {},
  ...children: Node[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (options.className) element.className = options.className;
  if (options.id) element.id = options.id;
  if (options.text !== undefined) element.textContent = options.text;
  for (const [name, value] of Object.entries(options.attrs ?? {})) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/** The element that really takes focus inside a component's shadow root (or the element itself). */
export function focusTarget(element: HTMLElement): HTMLElement {
  const root = element.shadowRoot;
  const inner = root?.querySelector<HTMLElement>('input, textarea, [role="combobox"], [tabindex="0"]');
  return inner ?? element;
}

interface AriaReflection {
  ariaDescribedByElements?: Element[] | null;
  ariaInvalid: string | null;
  ariaRequired: string | null;
}

function isGroup(widget: HTMLElement): boolean {
  return widget.getAttribute('role') === 'group' || widget.localName === 'vscode-checkbox-group';
}

/**
 * Ties a widget to its description and error line. IDREFs do not cross shadow
 * roots, so the host element gets aria-describedby and the inner control gets
 * the same elements through ARIA element reflection where the engine has it.
 */
export function describeBy(widget: HTMLElement, describers: HTMLElement[], invalid: boolean, required: boolean): void {
  const ids = describers.filter((d) => !d.hidden && d.textContent !== '').map((d) => d.id);
  if (ids.length > 0) widget.setAttribute('aria-describedby', ids.join(' '));
  else widget.removeAttribute('aria-describedby');
  widget.setAttribute('aria-invalid', invalid ? 'true' : 'false');
  // aria-required, not the native attribute: that would paint an untouched field invalid. A group of
  // checkboxes cannot be required in ARIA (each box can be ticked or not): its rule is in its description.
  if (required && !isGroup(widget)) widget.setAttribute('aria-required', 'true');
  const inner = focusTarget(widget);
  if (inner === widget) return;
  const aria = inner as unknown as AriaReflection;
  if ('ariaDescribedByElements' in inner) {
    aria.ariaDescribedByElements = describers.filter((d) => !d.hidden && d.textContent !== '');
  }
  aria.ariaInvalid = invalid ? 'true' : 'false';
  if (required && !isGroup(inner)) aria.ariaRequired = 'true';
}

/**
 * Applies a stylesheet bundled into the script: one request fewer before the
 * page can draw. Constructed stylesheets are not subject to the page's CSP
 * (vscode-elements styles its components the same way).
 */
export function adoptStyles(css: string): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
