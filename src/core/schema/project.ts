/**
 * customactions.yaml, the workspace's project file: where the server is and which applications the
 * workspace holds (the API cannot list applications). It never holds a key.
 */
import * as z from 'zod/mini';

/** The value of `baseUrl` that means "the local sandbox this extension starts". */
export const LOCAL_SANDBOX = 'local-sandbox';

/** A base URL the project file accepts besides `local-sandbox`: http or https. */
const HTTP_URL = { protocol: /^https?$/ } as const;

/** Whether `value` is a base URL the project file accepts (besides `local-sandbox`), wherever one is typed. */
export function isHttpUrl(value: string): boolean {
  return z.url(HTTP_URL).safeParse(value).success;
}

const text = (max: number) => z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(max, `must be at most ${max} characters`));

export const ApplicationEntrySchema = z.looseObject({
  id: text(200).check(z.describe('The application id of the platform.')),
  name: z.optional(text(120).check(z.describe('Display name in the sidebar.'))),
  folder: text(500).check(
    z.refine((f) => !f.split(/[\\/]/).includes('..') && !/^([\\/]|[A-Za-z]:)/.test(f), 'must be a relative path inside the workspace'),
    z.describe('Folder, relative to this file, holding one sub-folder per action.'),
  ),
});

export const ProjectFileSchema = z
  .looseObject({
    baseUrl: z
      .union([z.literal(LOCAL_SANDBOX), z.url({ ...HTTP_URL, error: `must be an http(s) URL or "${LOCAL_SANDBOX}"` })])
      .check(z.describe(`The platform's base URL, or "${LOCAL_SANDBOX}" for the sandbox the extension starts.`)),
    sandbox: z.optional(
      z
        .looseObject({ demo: z.optional(z.boolean().check(z.describe('Load the demo applications and actions into the sandbox.'))) })
        .check(z.describe(`Options for the local sandbox, used when baseUrl is "${LOCAL_SANDBOX}".`)),
    ),
    applications: z.array(ApplicationEntrySchema).check(
      z.superRefine((apps, ctx) => {
        const seen = new Set<string>();
        apps.forEach((app, i) => {
          if (seen.has(app.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `duplicate application id "${app.id}"`, input: app.id });
          seen.add(app.id);
        });
      }),
      z.describe('The applications this workspace holds.'),
    ),
  })
  .check(
    z.meta({
      title: 'Custom Actions project file',
      description: 'customactions.yaml: the server and the applications of this workspace. Keys are never stored here.',
    }),
  );

export type ApplicationEntry = z.infer<typeof ApplicationEntrySchema>;
export type ProjectFile = z.infer<typeof ProjectFileSchema>;

/** An application as a command line names it, `id` or `id:name` (the sandbox's --ensure-app, init's -a). */
export function applicationSpec(text: string): { readonly id: string; readonly name: string | undefined } {
  const colon = text.indexOf(':');
  return colon < 0 ? { id: text, name: undefined } : { id: text.slice(0, colon), name: text.slice(colon + 1) || undefined };
}
