import { type SimpleType } from '../../src/core/schema/metadata';
import {
  asText,
  getIn,
  isRecord,
  listAt,
  moveItem,
  parameterKind,
  setIn,
  uniqueName,
  withKind,
  type ParameterKind,
  type Path,
} from '../../src/core/webview/formModel';
import { fieldId, h } from './dom';
import { groupProblems, selectField, textField, type FormContext } from './fields';
import { addButton, listItem, setItemTitle } from './list';
import { PARAMETER_OPTIONS, SIMPLE_OPTIONS } from './typeOptions';

const PARAMETERS: Path = ['parameters'];

/** The ordered parameter list (spec §2.2). */
export function parametersSection(ctx: FormContext): HTMLElement {
  const list = listAt(ctx.value, PARAMETERS);
  // Actions read the value when they run: typing since the last render is in it, not in `list`.
  const add = () => {
    const now = listAt(ctx.value, PARAMETERS);
    const names = now.map((p) => (isRecord(p) ? asText(p.name) : ''));
    const next = setIn(ctx.value, [...PARAMETERS, now.length], { name: uniqueName('parameter', names), type: 'text' }) as Record<string, unknown>;
    ctx.change(next, fieldId([...PARAMETERS, now.length, 'name']));
  };
  return h('section', { class: 'section', attrs: { 'aria-labelledby': 'parameters-heading' } }, [
    h('h2', { id: 'parameters-heading', text: 'Parameters' }),
    h('p', { class: 'hint', text: 'The values passed to main, in order. Reorder with the arrows, Alt+Up/Down, or by dragging the grip.' }),
    groupProblems(ctx, PARAMETERS, 'Parameters'),
    list.length === 0 ? h('p', { class: 'empty', text: 'No parameters: main takes no arguments.' }) : undefined,
    h(
      'div',
      { class: 'list' },
      list.map((parameter, index) => parameterItem(ctx, list, index, parameter)),
    ),
    addButton('Add Parameter', 'add-parameter', add),
  ]);
}

function parameterItem(ctx: FormContext, list: readonly unknown[], index: number, parameter: unknown): HTMLElement {
  const path: Path = [...PARAMETERS, index];
  const p = isRecord(parameter) ? parameter : {};
  const name = asText(p.name);
  const label = parameterTitle(index, '');
  const kind = parameterKind(p.type);
  const typePath: Path = [...path, 'type'];
  const setKind = (value: string) => {
    if (value === kind) return;
    ctx.change(
      setIn(ctx.value, typePath, withKind(getIn(ctx.value, typePath), value as ParameterKind, 'number')) as Record<string, unknown>,
      fieldId(typePath),
    );
  };
  const body = [
    h('div', { class: 'grid two' }, [
      textField(ctx, { path: [...path, 'name'], label: 'Name', value: name, problemLabel: `${label} name`, hint: 'The argument of main: an identifier.' }),
      selectField(ctx, { path: typePath, label: 'Type', options: PARAMETER_OPTIONS, selected: kind, onChange: setKind, problemLabel: `${label} type` }),
    ]),
    kind === 'single-choice' || kind === 'multiple-select' ? choicesEditor(ctx, [...typePath, 'choices'], label) : undefined,
    kind === 'collection'
      ? selectField(ctx, {
          path: [...typePath, 'items'],
          label: 'Item type',
          options: SIMPLE_OPTIONS,
          selected: asText(getIn(p.type, ['items'])),
          onChange: (items) =>
            ctx.change(setIn(ctx.value, [...typePath, 'items'], items as SimpleType) as Record<string, unknown>, fieldId([...typePath, 'items'])),
          problemLabel: `${label} item type`,
        })
      : undefined,
    textField(ctx, {
      path: [...path, 'description'],
      label: 'Description',
      value: asText(p.description),
      multiline: true,
      store: optional,
      problemLabel: `${label} description`,
    }),
  ].filter((e): e is HTMLElement => e !== undefined);
  const item = listItem(
    {
      idPrefix: (i) => fieldId([...PARAMETERS, i]),
      index,
      count: list.length,
      noun: 'parameter',
      title: parameterTitle(index, name),
      draggable: true,
      move: (from, to, focus) => ctx.change(setIn(ctx.value, PARAMETERS, moveItem(listAt(ctx.value, PARAMETERS), from, to)) as Record<string, unknown>, focus),
      remove: () =>
        ctx.change(
          setIn(ctx.value, path, undefined) as Record<string, unknown>,
          list.length > 1 ? fieldId([...PARAMETERS, Math.min(index, list.length - 2), 'name']) : 'add-parameter',
        ),
    },
    body,
    'parameter',
  );
  // The card is headed by the name being typed, not by the name it had when the form was last built.
  ctx.follow((value) => setItemTitle(item, parameterTitle(index, asText(getIn(value, [...path, 'name'])))));
  return item;
}

function parameterTitle(index: number, name: string): string {
  return name ? `Parameter ${index + 1}: ${name}` : `Parameter ${index + 1}`;
}

/** The choices of a single-choice or multiple-select parameter: an id (what main gets) and a label each. */
function choicesEditor(ctx: FormContext, path: Path, owner: string): HTMLElement {
  const choices = listAt(ctx.value, path);
  const add = () => {
    const now = listAt(ctx.value, path);
    const id = uniqueName(
      'option',
      now.map((c) => (isRecord(c) ? asText(c.id) : '')),
    );
    // A label to replace rather than "": YAML would keep the quotes of an empty string on later edits.
    ctx.change(
      setIn(ctx.value, [...path, now.length], { id, label: `Option ${id.slice('option'.length)}` }) as Record<string, unknown>,
      fieldId([...path, now.length, 'id']),
    );
  };
  return h('div', { class: 'subsection' }, [
    h('h3', { text: 'Choices' }),
    groupProblems(ctx, path, `${owner} choices`),
    h(
      'div',
      { class: 'list compact' },
      choices.map((choice, index) => {
        const c = isRecord(choice) ? choice : {};
        const at: Path = [...path, index];
        const label = `Choice ${index + 1}`;
        return listItem(
          {
            idPrefix: (i) => fieldId([...path, i]),
            index,
            count: choices.length,
            noun: 'choice',
            title: label,
            move: (from, to, focus) => ctx.change(setIn(ctx.value, path, moveItem(listAt(ctx.value, path), from, to)) as Record<string, unknown>, focus),
            remove: () =>
              ctx.change(
                setIn(ctx.value, at, undefined) as Record<string, unknown>,
                choices.length > 1 ? fieldId([...path, Math.min(index, choices.length - 2), 'id']) : fieldId(path) + '--add',
              ),
          },
          [
            h('div', { class: 'grid two' }, [
              textField(ctx, {
                path: [...at, 'id'],
                label: 'Id',
                value: asText(c.id),
                problemLabel: `${owner} ${label.toLowerCase()} id`,
                hint: 'The value main receives.',
              }),
              textField(ctx, {
                path: [...at, 'label'],
                label: 'Label',
                value: asText(c.label),
                problemLabel: `${owner} ${label.toLowerCase()} label`,
                hint: 'What the user sees.',
              }),
            ]),
          ],
          'choice',
        );
      }),
    ),
    addButton('Add Choice', fieldId(path) + '--add', add),
  ]);
}

/** An optional text field is removed from the YAML when emptied rather than left as "". */
export function optional(text: string): string | undefined {
  return text === '' ? undefined : text;
}
