import * as vscode from 'vscode';
import { describeType, parseSimple, splitList } from '../../core/events';
import { type Parameter, type SimpleType } from '../../core/schema';
import { serverText } from '../../core/text';

/**
 * Asks for one value per declared parameter, in order: an input box checked per type for simple
 * types and lists, a picker for choices. Previous values are offered again. Undefined when cancelled.
 */
export async function askInputs(
  title: string,
  parameters: readonly Parameter[],
  previous: Record<string, unknown> = {},
): Promise<Record<string, unknown> | undefined> {
  const values: Record<string, unknown> = {};
  for (const [index, parameter] of parameters.entries()) {
    const step = `${title} (${index + 1}/${parameters.length})`;
    const value = await askOne(step, parameter, previous[parameter.name]);
    if (value === undefined) return undefined;
    values[parameter.name] = value;
  }
  return values;
}

async function askOne(title: string, parameter: Parameter, previous: unknown): Promise<unknown> {
  const type = parameter.type;
  const prompt = `${parameter.name} (${describeType(type)})${parameter.description ? ` — ${parameter.description}` : ''}`;
  if (typeof type === 'string') return askSimple(title, prompt, type, previous);
  if (type.type === 'single-choice') {
    const picked = await vscode.window.showQuickPick(
      type.choices.map((c) => ({ label: serverText(c.label, 200), description: serverText(c.id, 120), id: c.id, picked: c.id === previous })),
      { title, placeHolder: prompt, ignoreFocusOut: true },
    );
    return picked?.id;
  }
  if (type.type === 'multiple-select') {
    const before = Array.isArray(previous) ? previous : [];
    const picked = await vscode.window.showQuickPick(
      type.choices.map((c) => ({ label: serverText(c.label, 200), description: serverText(c.id, 120), id: c.id, picked: before.includes(c.id) })),
      { title, placeHolder: `${prompt} — pick any number`, canPickMany: true, ignoreFocusOut: true },
    );
    return picked?.map((p) => p.id);
  }
  const items = type.items;
  const text = await vscode.window.showInputBox({
    title,
    prompt: `${prompt}: separate items with commas`,
    value: Array.isArray(previous) ? previous.join(', ') : '',
    ignoreFocusOut: true,
    validateInput: (v) => {
      for (const [i, item] of splitList(v).entries()) {
        const parsed = parseSimple(items, item);
        if (!parsed.ok) return `Item ${i + 1}: ${parsed.message}`;
      }
      return undefined;
    },
  });
  if (text === undefined) return undefined;
  return splitList(text).map((item) => {
    const parsed = parseSimple(items, item);
    return parsed.ok ? parsed.value : item;
  });
}

async function askSimple(title: string, prompt: string, type: SimpleType, previous: unknown): Promise<unknown> {
  const text = await vscode.window.showInputBox({
    title,
    prompt,
    value: previous === undefined ? '' : String(previous),
    placeHolder: type === 'datetime' ? new Date().toISOString() : type === 'email' ? 'ada@example.com' : undefined,
    ignoreFocusOut: true,
    validateInput: (v) => {
      const parsed = parseSimple(type, v);
      return parsed.ok ? undefined : parsed.message;
    },
  });
  if (text === undefined) return undefined;
  const parsed = parseSimple(type, text);
  return parsed.ok ? parsed.value : undefined;
}
