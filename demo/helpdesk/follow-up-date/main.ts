import type { Inputs, Result } from './action.generated';

/** Follow-up Date: a number of business days after the ticket was opened (UTC). */
export async function main(openedAt: Inputs['openedAt'], businessDays: Inputs['businessDays']): Promise<Result> {
  const date = new Date(openedAt);
  let left = Math.max(0, Math.round(businessDays));
  while (left > 0) {
    date.setUTCDate(date.getUTCDate() + 1);
    const day = date.getUTCDay();
    if (day !== 0 && day !== 6) left--;
  }
  console.log(`${businessDays} business day(s) after ${openedAt}`);
  return date.toISOString();
}
