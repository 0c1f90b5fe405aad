import { limits } from '../../src/core/schema/limits';
import { asText } from '../../src/core/webview/formModel';
import { h } from './dom';
import { textField, type FormContext } from './fields';

/** Key, name, description and developer e-mail (spec §2.1). */
export function generalSection(ctx: FormContext): HTMLElement {
  const v = ctx.value;
  return h('section', { class: 'section', attrs: { 'aria-labelledby': 'general-heading' } }, [
    h('h2', { id: 'general-heading', text: 'Action' }),
    h('div', { class: 'grid two' }, [
      textField(ctx, {
        path: ['key'],
        label: 'Key',
        value: asText(v.key),
        hint: `Identifier-like short name: a letter, then letters, digits, _ or - (at most ${limits.keyMaxLength}).`,
      }),
      textField(ctx, { path: ['name'], label: 'Name', value: asText(v.name), hint: 'What people see in the workflow builder.' }),
    ]),
    textField(ctx, { path: ['description'], label: 'Description', value: asText(v.description), multiline: true }),
    textField(ctx, {
      path: ['developerEmail'],
      label: 'Developer e-mail',
      value: asText(v.developerEmail),
      inputType: 'email',
      hint: 'Who to contact about this action.',
    }),
  ]);
}
