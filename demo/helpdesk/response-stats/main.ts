import type { Inputs, Result } from './action.generated';

const TARGET_MINUTES = 60;

/** Response Stats: average and worst first-response time, and breaches of the target. */
export async function main(responseMinutes: Inputs['responseMinutes']): Promise<Result> {
  if (responseMinutes.length === 0) throw new Error('no response times given');
  const worst = Math.max(...responseMinutes);
  const average = Math.round((responseMinutes.reduce((sum, m) => sum + m, 0) / responseMinutes.length) * 10) / 10;
  const breaches = responseMinutes.filter((m) => m > TARGET_MINUTES).length;
  if (breaches > 0) console.warn(`${breaches} response(s) over ${TARGET_MINUTES} minutes`);
  return { average, worst, breaches };
}
