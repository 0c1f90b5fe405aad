import { type SimpleType } from '../../src/core/schema/metadata';
import {
  asText,
  getIn,
  isRecord,
  moveEntry,
  propertyKind,
  propertyNameProblem,
  renameKey,
  resultKind,
  setIn,
  uniqueName,
  withKind,
  type Path,
  type ResultKind,
} from '../../src/core/webview/formModel';
import { fieldId, h } from './dom';
import { groupProblems, selectField, textField, type FormContext } from './fields';
import { icon } from './icons';
import { addButton, listItem } from './list';
import { optional } from './parameters';
import { PROPERTY_OPTIONS, RESULT_OPTIONS, SIMPLE_OPTIONS } from './typeOptions';

const TYPE: Path = ['result', 'type'];
const PROPERTIES: Path = [...TYPE, 'properties'];

/** The result (spec §2.3): a simple type, a collection, or an object with named properties. */
export function resultSection(ctx: FormContext): HTMLElement {
  const result = getIn(ctx.value, ['result']);
  const type = getIn(result, ['type']);
  const kind = resultKind(type);
  const setKind = (value: string) => {
    if (value === kind) return;
    ctx.change(setIn(ctx.value, TYPE, withKind(getIn(ctx.value, TYPE), value as ResultKind, 'text')) as Record<string, unknown>, fieldId(TYPE));
  };
  return h('section', { class: 'section', attrs: { 'aria-labelledby': 'result-heading' } }, [
    h('h2', { id: 'result-heading', text: 'Result' }),
    groupProblems(ctx, ['result'], 'Result'),
    h('div', { class: 'grid two' }, [
      selectField(ctx, {
        path: TYPE,
        label: 'Type',
        options: RESULT_OPTIONS,
        selected: kind,
        onChange: setKind,
        problemLabel: 'Result type',
        hint: 'What main returns.',
      }),
      kind === 'collection' ? itemsSelect(ctx, TYPE, 'Result item type') : h('div'),
    ]),
    kind === 'object' ? propertiesEditor(ctx) : undefined,
    textField(ctx, {
      path: ['result', 'description'],
      label: 'Description',
      value: asText(getIn(result, ['description'])),
      multiline: true,
      store: optional,
      problemLabel: 'Result description',
    }),
  ]);
}

function itemsSelect(ctx: FormContext, typePath: Path, problemLabel: string, id?: string): HTMLElement {
  const path = [...typePath, 'items'];
  const focus = id ?? fieldId(path);
  const onChange = (items: string) => ctx.change(setIn(ctx.value, path, items as SimpleType) as Record<string, unknown>, focus);
  return selectField(ctx, { path, label: 'Item type', options: SIMPLE_OPTIONS, selected: asText(getIn(ctx.value, path)), onChange, problemLabel, id: focus });
}

/**
 * The properties of an object result. A name is the mapping's key, so it is renamed in place (the YAML
 * keeps its order); a name with whitespace, an empty one or a duplicate is refused while typed and the
 * file keeps the last good name.
 */
function propertiesEditor(ctx: FormContext): HTMLElement {
  const record = getIn(ctx.value, PROPERTIES);
  const properties = isRecord(record) ? record : {};
  const entries = Object.entries(properties);
  const rowId = (i: number) => fieldId([...PROPERTIES, '#', i]);
  const add = () => {
    const now = currentProperties(ctx) ?? {};
    const name = uniqueName('property', Object.keys(now));
    ctx.change(setIn(ctx.value, PROPERTIES, { ...now, [name]: { type: 'text' } }) as Record<string, unknown>, `${rowId(Object.keys(now).length)}--name`);
  };
  return h('div', { class: 'subsection' }, [
    h('h3', { text: 'Properties' }),
    h('p', { class: 'hint', text: 'Names without whitespace; camelCase is the suggested style.' }),
    groupProblems(ctx, PROPERTIES, 'Result properties'),
    h(
      'div',
      { class: 'list compact' },
      entries.map(([name, property], index) => propertyItem(ctx, properties, entries.length, name, property, index, rowId)),
    ),
    addButton('Add Property', 'add-property', add),
  ]);
}

function propertyItem(
  ctx: FormContext,
  properties: Record<string, unknown>,
  count: number,
  initialName: string,
  property: unknown,
  index: number,
  rowId: (i: number) => string,
): HTMLElement {
  let name = initialName;
  const label = `Property ${index + 1}`;
  const typePath = (): Path => [...PROPERTIES, name, 'type'];
  const type = getIn(property, ['type']);
  const kind = propertyKind(type);

  const nameId = `${rowId(index)}--name`;
  const nameInput = document.createElement('vscode-textfield');
  nameInput.id = nameId;
  nameInput.value = name;
  nameInput.label = `${label} name`;
  const local = h('div', { class: 'problems local', attrs: { hidden: true, 'aria-live': 'polite' } });
  nameInput.addEventListener('input', () => {
    const wanted = nameInput.value;
    const current = getIn(ctx.value, PROPERTIES);
    const record = isRecord(current) ? current : {};
    const problem = propertyNameProblem(
      wanted,
      Object.keys(record).filter((k) => k !== name),
    );
    local.replaceChildren(
      ...(problem ? [h('div', { class: 'problem' }, [icon('error'), h('span', { text: `${problem} Not applied: the file keeps "${name}".` })])] : []),
    );
    local.hidden = !problem;
    nameInput.invalid = problem !== undefined;
    if (problem || wanted === name) return;
    ctx.type(PROPERTIES, renameKey(record, name, wanted));
    name = wanted;
    ctx.problems.register([...PROPERTIES, name], `Result ${label.toLowerCase()} "${name}"`, nameSlot, nameInput);
  });
  const nameSlot = h('div', { class: 'problems', attrs: { hidden: true } });
  ctx.problems.register([...PROPERTIES, name], `Result ${label.toLowerCase()} "${name}"`, nameSlot, nameInput);

  const setKind = (value: string) => {
    if (value === kind) return;
    ctx.change(
      setIn(ctx.value, typePath(), withKind(getIn(ctx.value, typePath()), value as ResultKind, 'text')) as Record<string, unknown>,
      `${rowId(index)}--type`,
    );
  };
  // Ids follow the row, not the name, so focus survives a rename or a move.
  const typeSelect = selectField(ctx, {
    path: [...PROPERTIES, name, 'type'],
    label: 'Type',
    options: PROPERTY_OPTIONS,
    selected: kind,
    onChange: setKind,
    problemLabel: `Result property "${name}" type`,
    id: `${rowId(index)}--type`,
  });
  const items = kind === 'collection' ? itemsSelect(ctx, typePath(), `Result property "${name}" item type`, `${rowId(index)}--items`) : undefined;

  return listItem(
    {
      idPrefix: rowId,
      index,
      count,
      noun: 'property',
      title: label,
      move: (from, to, focus) =>
        ctx.change(setIn(ctx.value, PROPERTIES, moveEntry(currentProperties(ctx) ?? properties, from, to)) as Record<string, unknown>, focus),
      remove: () => {
        const { [name]: _removed, ...rest } = currentProperties(ctx) ?? properties;
        ctx.change(setIn(ctx.value, PROPERTIES, rest) as Record<string, unknown>, count > 1 ? `${rowId(Math.min(index, count - 2))}--name` : 'add-property');
      },
    },
    [
      h('div', { class: 'grid three' }, [
        h('div', { class: 'field' }, [h('vscode-label', { text: 'Name', attrs: { for: nameId } }), nameInput, local, nameSlot]),
        typeSelect,
        items ?? h('div'),
      ]),
    ],
    'property',
  );
}

function currentProperties(ctx: FormContext): Record<string, unknown> | undefined {
  const record = getIn(ctx.value, PROPERTIES);
  return isRecord(record) ? record : undefined;
}
