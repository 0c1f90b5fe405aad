import '@vscode-elements/elements/dist/vscode-label/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import { type Path } from '../../src/core/webview/formModel';
import { fieldId, h } from './dom';
import { type ProblemBoard } from './problems';

/** What a section needs from the form: the value, a way to change it, and the problem board. */
export interface FormContext {
  readonly value: Record<string, unknown>;
  readonly problems: ProblemBoard;
  /** A typed change: sent after a pause, the form is not rebuilt (the field already shows it). */
  type(path: Path, next: unknown): void;
  /** A structural change (add, remove, move, a type): sent at once and the form rebuilt. `focus` is the id to focus after. */
  change(next: Record<string, unknown>, focus?: string): void;
  /**
   * Keeps text built from the value (a heading that shows a name) in step with typing, which does not
   * rebuild the form: `update` runs after every typed change, until the next rebuild.
   */
  follow(update: (value: Record<string, unknown>) => void): void;
}

export interface TextOptions {
  readonly path: Path;
  readonly label: string;
  readonly value: string;
  readonly hint?: string;
  readonly multiline?: boolean;
  readonly inputType?: 'text' | 'email';
  readonly placeholder?: string;
  /** How the typed text is stored: an optional field is removed when emptied. */
  readonly store?: (text: string) => unknown;
  /** The problem board label; defaults to the field label. */
  readonly problemLabel?: string;
}

export function textField(ctx: FormContext, o: TextOptions): HTMLElement {
  const id = fieldId(o.path);
  const control = o.multiline ? document.createElement('vscode-textarea') : document.createElement('vscode-textfield');
  control.id = id;
  control.value = o.value;
  control.label = o.label;
  if (o.placeholder) control.placeholder = o.placeholder;
  if (control instanceof HTMLElement && 'rows' in control) {
    control.rows = 3;
    control.resize = 'vertical';
  } else if (o.inputType) control.setAttribute('type', o.inputType);
  control.addEventListener('input', () => ctx.type(o.path, o.store ? o.store(control.value) : control.value));
  return field(ctx, o.path, id, o.label, control, o.hint, o.problemLabel);
}

export interface SelectOption {
  readonly value: string;
  readonly label: string;
}

export interface SelectOptions {
  readonly path: Path;
  readonly label: string;
  readonly options: readonly SelectOption[];
  readonly selected: string | undefined;
  readonly onChange: (value: string) => void;
  readonly problemLabel?: string;
  readonly hint?: string;
  /** Defaults to the path's; a property's fields follow its row instead of its (editable) name. */
  readonly id?: string;
}

export function selectField(ctx: FormContext, o: SelectOptions): HTMLElement {
  const { path, label, options, selected, onChange } = o;
  const id = o.id ?? fieldId(path);
  const select = document.createElement('vscode-single-select');
  select.id = id;
  select.label = label;
  const known = options.some((o) => o.value === selected);
  const all = known ? options : [{ value: '', label: 'Not a type the form knows (see the problem below)' }, ...options];
  for (const option of all) {
    const element = document.createElement('vscode-option');
    element.value = option.value;
    element.textContent = option.label;
    if (option.value === (known ? selected : '')) element.selected = true;
    select.append(element);
  }
  select.addEventListener('change', () => {
    if (select.value !== '') onChange(select.value);
  });
  return field(ctx, path, id, label, select, o.hint, o.problemLabel);
}

function field(
  ctx: FormContext,
  path: Path,
  id: string,
  label: string,
  control: HTMLElement,
  hint: string | undefined,
  problemLabel: string | undefined,
): HTMLElement {
  const slot = h('div', { class: 'problems', attrs: { hidden: true } });
  ctx.problems.register(path, problemLabel ?? label, slot, control);
  return h('div', { class: 'field' }, [
    h('vscode-label', { text: label, attrs: { for: id } }),
    control,
    slot,
    hint ? h('div', { class: 'hint field-hint', text: hint }) : undefined,
  ]);
}

/** A slot for the problems of a whole list or mapping (too few choices, a duplicate name). */
export function groupProblems(ctx: FormContext, path: Path, label: string, focus?: HTMLElement): HTMLElement {
  const slot = h('div', { class: 'problems', attrs: { hidden: true } });
  ctx.problems.register(path, label, slot, focus);
  return slot;
}
