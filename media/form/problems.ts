import { type FormProblem } from '../../src/core/webview/formProtocol';
import { formatPath } from '../../src/core/schema/validate';
import { h } from './dom';
import { icon } from './icons';

/** Where the problems of one path show: a message slot next to a field, and the field to focus. */
interface Anchor {
  readonly label: string;
  readonly slot: HTMLElement;
  readonly field: HTMLElement | undefined;
}

/**
 * Maps the core validator's problems onto the rendered form. Each field registers its path while the
 * form is built; a problem shows at the deepest registered path that contains it, so a missing field
 * shows at its section and a wrong choice id at the choice.
 */
export class ProblemBoard {
  private anchors = new Map<string, Anchor>();

  reset(): void {
    this.anchors = new Map();
  }

  register(path: readonly (string | number)[], label: string, slot: HTMLElement, field?: HTMLElement): void {
    this.anchors.set(formatPath(path), { label, slot, field });
  }

  /** Shows `problems` next to their fields and returns the entries the summary lists. */
  show(problems: readonly FormProblem[]): { text: string; field: HTMLElement | undefined }[] {
    for (const anchor of this.anchors.values()) {
      anchor.slot.replaceChildren();
      anchor.slot.hidden = true;
      if (anchor.field) setInvalid(anchor.field, false);
    }
    return problems.map((problem) => {
      const anchor = this.find(problem.path);
      const exact = anchor && formatPath(problem.path) === anchor.key;
      const where = exact ? '' : ` (${formatPath(problem.path) || 'the whole file'})`;
      const message = capitalize(problem.message) + (exact || !anchor ? '' : where);
      if (anchor) {
        anchor.value.slot.hidden = false;
        anchor.value.slot.append(h('div', { class: 'problem' }, [icon('error'), h('span', { text: message })]));
        if (anchor.value.field && exact) setInvalid(anchor.value.field, true);
      }
      const label = anchor ? anchor.value.label : 'action.yaml';
      return { text: `${label}: ${problem.message}${anchor ? where : ''}`, field: anchor?.value.field };
    });
  }

  private find(path: readonly (string | number)[]): { key: string; value: Anchor } | undefined {
    for (let depth = path.length; depth >= 0; depth--) {
      const key = formatPath(path.slice(0, depth));
      const value = this.anchors.get(key);
      if (value) return { key, value };
    }
    return undefined;
  }
}

function setInvalid(field: HTMLElement, invalid: boolean): void {
  if ('invalid' in field) (field as HTMLElement & { invalid: boolean }).invalid = invalid;
  field.toggleAttribute('data-invalid', invalid);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The top of the form: why the action would not be pushed, read out when it changes. */
export function renderSummary(container: HTMLElement, entries: readonly { text: string; field: HTMLElement | undefined }[]): void {
  container.classList.toggle('has-problems', entries.length > 0);
  if (entries.length === 0) {
    container.replaceChildren(
      h('p', { class: 'summary-title ok' }, [icon('pass'), h('span', { text: 'No problems: these metadata can be pushed to the server.' })]),
    );
    return;
  }
  const title = entries.length === 1 ? '1 problem' : `${entries.length} problems`;
  container.replaceChildren(
    h('p', { class: 'summary-title' }, [
      icon('error'),
      h('span', {
        text: `The action will not be pushed until ${entries.length === 1 ? 'this problem is' : `these ${title} are`} fixed. The file can still be saved.`,
      }),
    ]),
    h(
      'ul',
      { class: 'summary-list' },
      entries.map((entry) =>
        h('li', {}, [
          entry.field
            ? h('a', { text: entry.text, attrs: { href: '#' }, on: { click: (e: Event) => (e.preventDefault(), entry.field?.focus()) } })
            : h('span', { text: entry.text }),
        ]),
      ),
    ),
  );
}
