import { h } from './dom';
import { icon, type IconName } from './icons';

export interface ListItemOptions {
  /** The id prefix of this item's fields (`fieldId` of the item's path); focus follows it on a move. */
  readonly idPrefix: (index: number) => string;
  readonly index: number;
  readonly count: number;
  /** "parameter", "choice", "property": read out on the buttons. */
  readonly noun: string;
  readonly title: string;
  readonly draggable?: boolean;
  move(from: number, to: number, focus: string | undefined): void;
  remove(): void;
}

/**
 * One item of an ordered list: move up/down and remove buttons, Alt+Up/Down anywhere inside it, and
 * (for parameters) a grip to drag it. Focus stays on the control it was on, at the item's new place.
 */
export function listItem(o: ListItemOptions, body: readonly HTMLElement[], className: string): HTMLElement {
  const prefix = o.idPrefix(o.index);
  const button = (name: IconName, label: string, suffix: string, disabled: boolean, action: () => void) =>
    h(
      'button',
      { class: 'icon-button', id: `${prefix}--${suffix}`, attrs: { type: 'button', title: label, 'aria-label': label, disabled }, on: { click: action } },
      [icon(name)],
    );
  const at = `${o.noun} ${o.index + 1}`;
  const moveTo = (to: number) => {
    const active = document.activeElement?.id ?? '';
    const focus = active === prefix || active.startsWith(`${prefix}--`) ? o.idPrefix(to) + active.slice(prefix.length) : undefined;
    o.move(o.index, to, focus);
  };
  const toolbar = h('div', { class: 'toolbar', attrs: { role: 'toolbar', 'aria-label': `${at} actions` } }, [
    button('arrow-up', `Move ${at} up (Alt+Up)`, 'up', o.index === 0, () => moveTo(o.index - 1)),
    button('arrow-down', `Move ${at} down (Alt+Down)`, 'down', o.index === o.count - 1, () => moveTo(o.index + 1)),
    button('trash', `Remove ${at}`, 'remove', false, () => o.remove()),
  ]);
  const grip = o.draggable
    ? h('span', { class: 'grip', attrs: { title: 'Drag to reorder (or Alt+Up/Down)', 'aria-hidden': 'true' } }, [icon('gripper')])
    : undefined;
  const item = h(
    'div',
    { class: `list-item ${className}`, id: prefix, attrs: { role: 'group', 'aria-label': o.title, tabindex: '-1', 'data-index': String(o.index) } },
    [h('div', { class: 'item-header' }, [grip, h('span', { class: 'item-title', text: o.title }), toolbar]), ...body],
  );
  item.addEventListener('keydown', (event) => {
    if (!event.altKey || event.ctrlKey || event.metaKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    const to = o.index + (event.key === 'ArrowUp' ? -1 : 1);
    event.preventDefault();
    event.stopPropagation();
    if (to >= 0 && to < o.count) moveTo(to);
  });
  if (grip) grip.addEventListener('pointerdown', (event) => dragWithPointer(event, grip, item, o));
  return item;
}

/** Gives an item built by `listItem` a new title (its heading and what a screen reader announces). */
export function setItemTitle(item: HTMLElement, title: string): void {
  const heading = item.querySelector(':scope > .item-header > .item-title');
  if (heading && heading.textContent !== title) heading.textContent = title;
  item.setAttribute('aria-label', title);
}

/**
 * Drags an item by its grip with pointer events. HTML5 drag and drop is not used: VS Code's webview
 * frame takes drags over to offer dropping files into the editor, so they never reach the form.
 */
function dragWithPointer(event: PointerEvent, grip: HTMLElement, item: HTMLElement, o: ListItemOptions): void {
  if (event.button !== 0 || !item.parentElement) return;
  event.preventDefault();
  grip.setPointerCapture(event.pointerId);
  const siblings = [...item.parentElement.children].filter((e): e is HTMLElement => e instanceof HTMLElement && e.classList.contains('list-item'));
  let target = o.index;
  item.classList.add('dragging');
  const onMove = (e: PointerEvent) => {
    clearDropMarks();
    // The gap the pointer is in: before the first item whose middle is below it, or after the last.
    let gap = siblings.findIndex((s) => {
      const box = s.getBoundingClientRect();
      return e.clientY < box.top + box.height / 2;
    });
    if (gap < 0) gap = siblings.length;
    if (gap < siblings.length) siblings[gap]?.classList.add('drop-before');
    else siblings[siblings.length - 1]?.classList.add('drop-after');
    target = gap > o.index ? gap - 1 : gap;
  };
  const end = (drop: boolean) => {
    grip.removeEventListener('pointermove', onMove);
    item.classList.remove('dragging');
    clearDropMarks();
    if (drop && target !== o.index) o.move(o.index, target, o.idPrefix(target));
  };
  grip.addEventListener('pointermove', onMove);
  grip.addEventListener('pointerup', () => end(true), { once: true });
  grip.addEventListener('pointercancel', () => end(false), { once: true });
}

function clearDropMarks(): void {
  for (const marked of document.querySelectorAll('.drop-before, .drop-after')) marked.classList.remove('drop-before', 'drop-after');
}

/** "Add parameter" and friends: a secondary button with a plus, as VS Code's own forms have. */
export function addButton(label: string, id: string, action: () => void): HTMLElement {
  const button = document.createElement('vscode-button');
  button.id = id;
  button.secondary = true;
  button.append(icon('add'), document.createTextNode(` ${label}`));
  button.addEventListener('click', action);
  return h('div', { class: 'add-row' }, [button]);
}
