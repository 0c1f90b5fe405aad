import type { Inputs, Result } from './action.generated';

const FREE_MAIL = ['gmail.com', 'outlook.com', 'yahoo.com', 'hotmail.com'];

/** Score Lead: 0 to 100 by company size, source and interests. */
export async function main(email: Inputs['email'], companySize: Inputs['companySize'], source: Inputs['source'], interests: Inputs['interests']): Promise<Result> {
  let score = Math.min(40, Math.round(Math.log10(Math.max(1, companySize)) * 12));
  score += { web: 10, referral: 30, event: 20 }[source];
  score += interests.length * 8 + (interests.includes('pricing') ? 6 : 0);
  const domain = email.split('@')[1]?.toLowerCase() ?? '';
  if (FREE_MAIL.includes(domain)) {
    console.warn(`free-mail address (${domain}): -15`);
    score -= 15;
  }
  const result = Math.max(0, Math.min(100, score));
  console.log(`lead ${email} scored ${result}`);
  return result;
}
