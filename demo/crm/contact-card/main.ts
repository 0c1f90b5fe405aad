import type { Inputs, Result } from './action.generated';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Contact Card: display name, labels and the next follow-up date. */
export async function main(firstName: Inputs['firstName'], lastName: Inputs['lastName'], email: Inputs['email'], lastContacted: Inputs['lastContacted']): Promise<Result> {
  const last = new Date(lastContacted);
  if (Number.isNaN(last.getTime())) throw new RangeError(`lastContacted is not a date: ${lastContacted}`);
  const daysSinceContact = Math.max(0, Math.floor((Date.now() - last.getTime()) / DAY_MS));
  const labels = [daysSinceContact > 90 ? 'dormant' : 'active'];
  if (email.endsWith('.example')) labels.push('test-data');
  const followUpOn = new Date(last.getTime() + 30 * DAY_MS).toISOString();
  console.info(`card for ${firstName} ${lastName}: ${labels.join(', ')}`);
  return { displayName: `${firstName} ${lastName}`.trim(), email, daysSinceContact, followUpOn, labels };
}
