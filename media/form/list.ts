import { h } from './dom';
import { icon, type IconName } from './icons';

export interface ListItemOptions {
  /** The id prefix of this item's fields (`fieldId` of the item's path); focus follows it on a move. */
  readonly idPrefix: (index: number) => string;
  /** Names the list in drag and drop, so an item cannot be dropped into another list. */
  readonly list: string;
  readonly index: number;
  readonly count: number;
  /** "parameter", "choice", "property": read out on the buttons. */
  readonly noun: string;
  readonly title: string;
  readonly draggable?: boolean;
  move(from: number, to: number, focus: string | undefined): void;
  remove(): void;
}

let dragging: { list: string; index: number } | undefined;

/**
 * One item of an ordered list: move up/down and remove buttons, Alt+Up/Down anywhere inside it, and
 * (for parameters) a grip to drag it. Focus stays on the control it was on, at the item's new place.
 */
export function listItem(o: ListItemOptions, body: readonly HTMLElement[], className: string): HTMLElement {
  const prefix = o.idPrefix(o.index);
  const button = (name: IconName, label: string, suffix: string, disabled: boolean, action: () => void) =>
    h('button', { class: 'icon-button', id: `${prefix}--${suffix}`, attrs: { type: 'button', title: label, 'aria-label': label, disabled }, on: { click: action } }, [icon(name)]);
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
    ? h('span', { class: 'grip', attrs: { draggable: 'true', title: `Drag to reorder (or Alt+Up/Down)`, 'aria-hidden': 'true' } }, [icon('gripper')])
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
  if (grip) {
    grip.addEventListener('dragstart', (event) => {
      dragging = { list: o.list, index: o.index };
      event.dataTransfer?.setData('text/plain', at);
      if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
      event.dataTransfer?.setDragImage(item, 12, 12);
      item.classList.add('dragging');
    });
    grip.addEventListener('dragend', () => {
      dragging = undefined;
      item.classList.remove('dragging');
      clearDropMarks();
    });
  }
  if (o.draggable) {
    item.addEventListener('dragover', (event) => {
      if (!dragging || dragging.list !== o.list) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'move';
      clearDropMarks();
      item.classList.add(isUpperHalf(item, event) ? 'drop-before' : 'drop-after');
    });
    item.addEventListener('dragleave', () => item.classList.remove('drop-before', 'drop-after'));
    item.addEventListener('drop', (event) => {
      if (!dragging || dragging.list !== o.list) return;
      event.preventDefault();
      const from = dragging.index;
      dragging = undefined;
      clearDropMarks();
      // Dropping on the upper half puts the item before this one, on the lower half after it.
      let to = isUpperHalf(item, event) ? o.index : o.index + 1;
      if (from < to) to--;
      if (to !== from) o.move(from, to, o.idPrefix(to));
    });
  }
  return item;
}

function isUpperHalf(item: HTMLElement, event: DragEvent): boolean {
  const box = item.getBoundingClientRect();
  return event.clientY < box.top + box.height / 2;
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
