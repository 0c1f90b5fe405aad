/**
 * customactions.yaml, the workspace's project file: where the server is and which applications the
 * workspace holds (the API cannot list applications). It never holds a key.
 */
import { z } from 'zod';

/** The value of `baseUrl` that means "the local sandbox this extension starts". */
export const LOCAL_SANDBOX = 'local-sandbox';

export const ApplicationEntrySchema = z.looseObject({
  id: z.string().trim().min(1, 'must not be empty').max(200).describe('The application id of the platform.'),
  name: z.string().trim().min(1, 'must not be empty').max(120).describe('Display name in the sidebar.').optional(),
  folder: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .refine((f) => !f.split(/[\\/]/).includes('..') && !/^([\\/]|[A-Za-z]:)/.test(f), 'must be a relative path inside the workspace')
    .describe('Folder, relative to this file, holding one sub-folder per action.'),
});

export const ProjectFileSchema = z
  .looseObject({
    baseUrl: z
      .union([
        z.literal(LOCAL_SANDBOX),
        z.url({ protocol: /^https?$/, error: `must be an http(s) URL or "${LOCAL_SANDBOX}"` }),
      ])
      .describe(`The platform's base URL, or "${LOCAL_SANDBOX}" for the sandbox the extension starts.`),
    sandbox: z
      .looseObject({ demo: z.boolean().optional().describe('Load the demo applications and actions into the sandbox.') })
      .optional()
      .describe(`Options for the local sandbox, used when baseUrl is "${LOCAL_SANDBOX}".`),
    applications: z
      .array(ApplicationEntrySchema)
      .superRefine((apps, ctx) => {
        const seen = new Set<string>();
        apps.forEach((app, i) => {
          if (seen.has(app.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `duplicate application id "${app.id}"` });
          seen.add(app.id);
        });
      })
      .describe('The applications this workspace holds.'),
  })
  .meta({ title: 'Custom Actions project file', description: 'customactions.yaml: the server and the applications of this workspace. Keys are never stored here.' });

export type ApplicationEntry = z.infer<typeof ApplicationEntrySchema>;
export type ProjectFile = z.infer<typeof ProjectFileSchema>;
