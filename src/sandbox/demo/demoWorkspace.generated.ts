// Generated from demo/ by src/sandbox/demo/generate.ts (npx tsx src/sandbox/demo/generate.ts). Do not edit.
import { type DemoApplication } from './types';

export const DEMO_WORKSPACE: DemoApplication[] = [
  {
    "id": "demo-crm",
    "name": "Demo CRM",
    "folder": "crm",
    "actions": [
      {
        "metadata": {
          "key": "contact-card",
          "name": "Contact Card",
          "description": "Builds a contact card with a display name, labels and the next follow-up date.",
          "developerEmail": "demo@example.com",
          "parameters": [
            {
              "name": "firstName",
              "type": "text"
            },
            {
              "name": "lastName",
              "type": "text"
            },
            {
              "name": "email",
              "type": "email"
            },
            {
              "name": "lastContacted",
              "type": "datetime",
              "description": "When someone last spoke to the contact."
            }
          ],
          "result": {
            "type": {
              "type": "object",
              "properties": {
                "displayName": {
                  "type": "text"
                },
                "email": {
                  "type": "email"
                },
                "daysSinceContact": {
                  "type": "number"
                },
                "followUpOn": {
                  "type": "datetime"
                },
                "labels": {
                  "type": {
                    "type": "collection",
                    "items": "text"
                  }
                }
              }
            },
            "description": "The card."
          }
        },
        "code": "import type { Inputs, Result } from './action.generated';\n\nconst DAY_MS = 24 * 60 * 60 * 1000;\n\n/** Contact Card: display name, labels and the next follow-up date. */\nexport async function main(firstName: Inputs['firstName'], lastName: Inputs['lastName'], email: Inputs['email'], lastContacted: Inputs['lastContacted']): Promise<Result> {\n  const last = new Date(lastContacted);\n  if (Number.isNaN(last.getTime())) throw new RangeError(`lastContacted is not a date: ${lastContacted}`);\n  const daysSinceContact = Math.max(0, Math.floor((Date.now() - last.getTime()) / DAY_MS));\n  const labels = [daysSinceContact > 90 ? 'dormant' : 'active'];\n  if (email.endsWith('.example')) labels.push('test-data');\n  const followUpOn = new Date(last.getTime() + 30 * DAY_MS).toISOString();\n  console.info(`card for ${firstName} ${lastName}: ${labels.join(', ')}`);\n  return { displayName: `${firstName} ${lastName}`.trim(), email, daysSinceContact, followUpOn, labels };\n}\n",
        "runs": [
          {
            "firstName": "Ada",
            "lastName": "Lovelace",
            "email": "ada@analytical.example",
            "lastContacted": "2024-03-01T09:30:00Z"
          },
          {
            "firstName": "Grace",
            "lastName": "Hopper",
            "email": "grace@navy.example",
            "lastContacted": "2025-01-15T14:00:00Z"
          }
        ]
      },
      {
        "metadata": {
          "key": "score-lead",
          "name": "Score Lead",
          "description": "Scores a new lead from 0 to 100 by company size, source and interests.",
          "developerEmail": "demo@example.com",
          "parameters": [
            {
              "name": "email",
              "type": "email",
              "description": "The lead's e-mail address; free-mail domains score lower."
            },
            {
              "name": "companySize",
              "type": "number",
              "description": "Number of employees."
            },
            {
              "name": "source",
              "type": {
                "type": "single-choice",
                "choices": [
                  {
                    "id": "web",
                    "label": "Website form"
                  },
                  {
                    "id": "referral",
                    "label": "Referral"
                  },
                  {
                    "id": "event",
                    "label": "Event or trade fair"
                  }
                ]
              },
              "description": "Where the lead came from."
            },
            {
              "name": "interests",
              "type": {
                "type": "multiple-select",
                "choices": [
                  {
                    "id": "pricing",
                    "label": "Pricing"
                  },
                  {
                    "id": "demo",
                    "label": "Product demo"
                  },
                  {
                    "id": "integrations",
                    "label": "Integrations"
                  }
                ]
              },
              "description": "What the lead asked about."
            }
          ],
          "result": {
            "type": "number",
            "description": "The score, 0 to 100."
          }
        },
        "code": "import type { Inputs, Result } from './action.generated';\n\nconst FREE_MAIL = ['gmail.com', 'outlook.com', 'yahoo.com', 'hotmail.com'];\n\n/** Score Lead: 0 to 100 by company size, source and interests. */\nexport async function main(email: Inputs['email'], companySize: Inputs['companySize'], source: Inputs['source'], interests: Inputs['interests']): Promise<Result> {\n  let score = Math.min(40, Math.round(Math.log10(Math.max(1, companySize)) * 12));\n  score += { web: 10, referral: 30, event: 20 }[source];\n  score += interests.length * 8 + (interests.includes('pricing') ? 6 : 0);\n  const domain = email.split('@')[1]?.toLowerCase() ?? '';\n  if (FREE_MAIL.includes(domain)) {\n    console.warn(`free-mail address (${domain}): -15`);\n    score -= 15;\n  }\n  const result = Math.max(0, Math.min(100, score));\n  console.log(`lead ${email} scored ${result}`);\n  return result;\n}\n",
        "runs": [
          {
            "email": "cto@bigcorp.example",
            "companySize": 2500,
            "source": "referral",
            "interests": [
              "pricing",
              "integrations"
            ]
          },
          {
            "email": "someone@gmail.com",
            "companySize": 3,
            "source": "web",
            "interests": []
          }
        ]
      },
      {
        "metadata": {
          "key": "split-tags",
          "name": "Split Tags",
          "description": "Turns a comma-separated list of tags into clean, unique, lower-case tags.",
          "developerEmail": "demo@example.com",
          "parameters": [
            {
              "name": "raw",
              "type": "text",
              "description": "Tags separated by commas or semicolons."
            }
          ],
          "result": {
            "type": {
              "type": "collection",
              "items": "text"
            },
            "description": "The tags, in their first order."
          }
        },
        "code": "import type { Inputs, Result } from './action.generated';\n\n/** Split Tags: clean, unique, lower-case tags in their first order. */\nexport async function main(raw: Inputs['raw']): Promise<Result> {\n  const tags = raw\n    .split(/[,;]/)\n    .map((tag) => tag.trim().toLowerCase())\n    .filter((tag) => tag.length > 0);\n  const unique = [...new Set(tags)];\n  if (unique.length < tags.length) console.debug(`dropped ${tags.length - unique.length} duplicate(s)`);\n  return unique;\n}\n",
        "runs": [
          {
            "raw": ""
          },
          {
            "raw": "VIP, newsletter; vip ,  partner"
          }
        ]
      }
    ]
  },
  {
    "id": "demo-helpdesk",
    "name": "Demo Helpdesk",
    "folder": "helpdesk",
    "actions": [
      {
        "metadata": {
          "key": "follow-up-date",
          "name": "Follow-up Date",
          "description": "The date a ticket needs a follow-up, a number of business days after it was opened.",
          "developerEmail": "support-dev@example.com",
          "parameters": [
            {
              "name": "openedAt",
              "type": "datetime"
            },
            {
              "name": "businessDays",
              "type": "number",
              "description": "Business days to wait (weekends do not count)."
            }
          ],
          "result": {
            "type": "datetime",
            "description": "When to follow up (UTC)."
          }
        },
        "code": "import type { Inputs, Result } from './action.generated';\n\n/** Follow-up Date: a number of business days after the ticket was opened (UTC). */\nexport async function main(openedAt: Inputs['openedAt'], businessDays: Inputs['businessDays']): Promise<Result> {\n  const date = new Date(openedAt);\n  let left = Math.max(0, Math.round(businessDays));\n  while (left > 0) {\n    date.setUTCDate(date.getUTCDate() + 1);\n    const day = date.getUTCDay();\n    if (day !== 0 && day !== 6) left--;\n  }\n  console.log(`${businessDays} business day(s) after ${openedAt}`);\n  return date.toISOString();\n}\n",
        "runs": [
          {
            "openedAt": "2024-05-03T16:00:00Z",
            "businessDays": 2
          },
          {
            "openedAt": "2024-05-06T09:00:00Z",
            "businessDays": 5
          }
        ]
      },
      {
        "metadata": {
          "key": "response-stats",
          "name": "Response Stats",
          "description": "Average and worst first-response time, and how many responses broke the 60-minute target.",
          "developerEmail": "support-dev@example.com",
          "parameters": [
            {
              "name": "responseMinutes",
              "type": {
                "type": "collection",
                "items": "number"
              },
              "description": "First-response times in minutes."
            }
          ],
          "result": {
            "type": {
              "type": "object",
              "properties": {
                "average": {
                  "type": "number"
                },
                "worst": {
                  "type": "number"
                },
                "breaches": {
                  "type": "number"
                }
              }
            },
            "description": "The statistics."
          }
        },
        "code": "import type { Inputs, Result } from './action.generated';\n\nconst TARGET_MINUTES = 60;\n\n/** Response Stats: average and worst first-response time, and breaches of the target. */\nexport async function main(responseMinutes: Inputs['responseMinutes']): Promise<Result> {\n  if (responseMinutes.length === 0) throw new Error('no response times given');\n  const worst = Math.max(...responseMinutes);\n  const average = Math.round((responseMinutes.reduce((sum, m) => sum + m, 0) / responseMinutes.length) * 10) / 10;\n  const breaches = responseMinutes.filter((m) => m > TARGET_MINUTES).length;\n  if (breaches > 0) console.warn(`${breaches} response(s) over ${TARGET_MINUTES} minutes`);\n  return { average, worst, breaches };\n}\n",
        "runs": [
          {
            "responseMinutes": [
              12,
              45,
              8,
              95,
              30,
              61
            ]
          },
          {
            "responseMinutes": []
          }
        ]
      },
      {
        "metadata": {
          "key": "route-ticket",
          "name": "Route Ticket",
          "description": "Chooses the team mailbox a ticket goes to; VIP requesters go to the escalation desk.",
          "developerEmail": "support-dev@example.com",
          "parameters": [
            {
              "name": "category",
              "type": {
                "type": "single-choice",
                "choices": [
                  {
                    "id": "billing",
                    "label": "Billing"
                  },
                  {
                    "id": "technical",
                    "label": "Technical problem"
                  },
                  {
                    "id": "account",
                    "label": "Account and access"
                  }
                ]
              }
            },
            {
              "name": "requesterEmail",
              "type": "email"
            }
          ],
          "result": {
            "type": "email",
            "description": "The mailbox of the team."
          }
        },
        "code": "import type { Inputs, Result } from './action.generated';\n\nconst VIP_DOMAINS = ['bigcorp.example'];\n\n/** Route Ticket: the team mailbox a ticket goes to. */\nexport async function main(category: Inputs['category'], requesterEmail: Inputs['requesterEmail']): Promise<Result> {\n  const domain = requesterEmail.split('@')[1] ?? '';\n  if (VIP_DOMAINS.includes(domain)) {\n    console.info(`VIP requester ${requesterEmail}: escalation desk`);\n    return 'escalations@helpdesk.example';\n  }\n  return `${category}@helpdesk.example`;\n}\n",
        "runs": [
          {
            "category": "billing",
            "requesterEmail": "jane@smallshop.example"
          },
          {
            "category": "technical",
            "requesterEmail": "cto@bigcorp.example"
          }
        ]
      },
      {
        "metadata": {
          "key": "ticket-priority",
          "name": "Ticket Priority",
          "description": "Picks P1 to P4 from the severity and the number of affected users.",
          "developerEmail": "support-dev@example.com",
          "parameters": [
            {
              "name": "severity",
              "type": {
                "type": "single-choice",
                "choices": [
                  {
                    "id": "low",
                    "label": "Low"
                  },
                  {
                    "id": "medium",
                    "label": "Medium"
                  },
                  {
                    "id": "high",
                    "label": "High"
                  }
                ]
              },
              "description": "Severity reported by the customer."
            },
            {
              "name": "affectedUsers",
              "type": "number",
              "description": "How many users are affected."
            }
          ],
          "result": {
            "type": "text",
            "description": "P1 (most urgent) to P4."
          }
        },
        "code": "import type { Inputs, Result } from './action.generated';\n\n/** Ticket Priority: P1 (most urgent) to P4. */\nexport async function main(severity: Inputs['severity'], affectedUsers: Inputs['affectedUsers']): Promise<Result> {\n  const base = { low: 4, medium: 3, high: 2 }[severity];\n  const bump = affectedUsers >= 100 ? 2 : affectedUsers >= 10 ? 1 : 0;\n  const priority = `P${Math.max(1, base - bump)}`;\n  console.log(`${severity} severity, ${affectedUsers} user(s): ${priority}`);\n  return priority;\n}\n",
        "runs": [
          {
            "severity": "high",
            "affectedUsers": 1200
          },
          {
            "severity": "low",
            "affectedUsers": 1
          }
        ]
      }
    ]
  }
];
