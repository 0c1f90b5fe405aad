import type { Inputs, Result } from './action.generated';

/** Split Tags: clean, unique, lower-case tags in their first order. */
export async function main(raw: Inputs['raw']): Promise<Result> {
  const tags = raw
    .split(/[,;]/)
    .map((tag) => tag.trim().toLowerCase())
    .filter((tag) => tag.length > 0);
  const unique = [...new Set(tags)];
  if (unique.length < tags.length) console.debug(`dropped ${tags.length - unique.length} duplicate(s)`);
  return unique;
}
