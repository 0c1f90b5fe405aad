/** A tiny element builder: the form has no framework, only the elements and plain DOM. */
type Child = Node | string | false | null | undefined;

export interface Props {
  class?: string;
  id?: string;
  text?: string;
  attrs?: Record<string, string | boolean | undefined>;
  on?: Partial<{ [K in keyof HTMLElementEventMap]: (event: HTMLElementEventMap[K]) => void }> & Record<string, ((event: Event) => void) | undefined>;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, children: readonly Child[] = []): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.class) element.className = props.class;
  if (props.id) element.id = props.id;
  if (props.text !== undefined) element.textContent = props.text;
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value === true) element.setAttribute(name, '');
    else if (typeof value === 'string') element.setAttribute(name, value);
  }
  for (const [name, handler] of Object.entries(props.on ?? {})) if (handler) element.addEventListener(name, handler as EventListener);
  for (const child of children) if (child !== false && child !== null && child !== undefined) element.append(child);
  return element;
}

/** An id safe in a CSS selector (vscode-label finds its field with `#id`), derived from a value path. */
export function fieldId(path: readonly (string | number)[]): string {
  return 'f-' + path.map((s) => String(s).replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}_`)).join('--');
}
