import type { Inputs, Result } from './action.generated';

const VIP_DOMAINS = ['bigcorp.example'];

/** Route Ticket: the team mailbox a ticket goes to. */
export async function main(category: Inputs['category'], requesterEmail: Inputs['requesterEmail']): Promise<Result> {
  const domain = requesterEmail.split('@')[1] ?? '';
  if (VIP_DOMAINS.includes(domain)) {
    console.info(`VIP requester ${requesterEmail}: escalation desk`);
    return 'escalations@helpdesk.example';
  }
  return `${category}@helpdesk.example`;
}
