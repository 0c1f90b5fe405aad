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

/** The name of the target the file's own `baseUrl` and application ids make (docs/environments.md). */
export const DEFAULT_TARGET = 'default';

/** A target's name: it goes into variable names (`CUSTOM_ACTIONS_KEY_<TARGET>_…`) and on command lines. */
export const TARGET_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/;

const baseUrlSchema = (what: string) =>
  z.union([z.literal(LOCAL_SANDBOX), z.url({ ...HTTP_URL, error: `must be an http(s) URL or "${LOCAL_SANDBOX}"` })]).check(z.describe(what));

const targetName = z.string().check(z.regex(TARGET_NAME, 'must start with a letter and hold only letters, digits, _ and - (at most 40)'));

export const TargetEntrySchema = z.looseObject({
  baseUrl: baseUrlSchema(`This target's server: its base URL, or "${LOCAL_SANDBOX}".`),
  applications: z.optional(
    z
      .record(z.string(), text(200))
      .check(z.describe('The application ids on this server, by the id the applications list gives them; an application left out keeps that id.')),
  ),
  default: z.optional(z.boolean().check(z.describe('The target a command uses when nothing names another (at most one target says so).'))),
  protected: z.optional(z.boolean().check(z.describe('Nothing writes to this target without a confirmation or --yes (production).'))),
});

export const ProjectFileSchema = z
  .looseObject({
    baseUrl: baseUrlSchema(
      `The platform's base URL, or "${LOCAL_SANDBOX}" for the sandbox the extension starts: with the applications' ids, the target named "${DEFAULT_TARGET}".`,
    ),
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
    targets: z.optional(
      z
        .record(targetName, TargetEntrySchema)
        .check(
          z.describe(
            `Named targets (staging, production, …), each a server and the application ids on it; "${DEFAULT_TARGET}" is the file's own baseUrl and ids.`,
          ),
        ),
    ),
    branches: z.optional(
      z
        .record(z.string().check(z.minLength(1, 'must not be empty')), targetName)
        .check(
          z.describe(
            "Which target a branch deploys to in CI: a branch's name, or a pattern where * stands for any characters ('release/*', '*'). An exact name comes first, then the patterns in this order.",
          ),
        ),
    ),
  })
  .check(
    z.superRefine((file, ctx) => {
      const targets = file.targets ?? {};
      if (DEFAULT_TARGET in targets)
        ctx.addIssue({
          code: 'custom',
          path: ['targets', DEFAULT_TARGET],
          message: `"${DEFAULT_TARGET}" is the name of the file's own baseUrl and ids`,
          input: DEFAULT_TARGET,
        });
      const defaults = Object.keys(targets).filter((name) => targets[name]!.default === true);
      for (const name of defaults.slice(1))
        ctx.addIssue({ code: 'custom', path: ['targets', name, 'default'], message: `only one target can be the default (${defaults[0]} is)`, input: true });
      const ids = new Set(file.applications.map((a) => a.id));
      for (const [name, target] of Object.entries(targets))
        for (const app of Object.keys(target.applications ?? {}))
          if (!ids.has(app))
            ctx.addIssue({
              code: 'custom',
              path: ['targets', name, 'applications', app],
              message: `no application "${app}" in the applications list`,
              input: app,
            });
      for (const [branch, name] of Object.entries(file.branches ?? {}))
        if (name !== DEFAULT_TARGET && !(name in targets))
          ctx.addIssue({ code: 'custom', path: ['branches', branch], message: `no target "${name}" in targets`, input: name });
    }),
  )
  .check(
    z.meta({
      title: 'Custom Actions project file',
      description: 'customactions.yaml: the server and the applications of this workspace. Keys are never stored here.',
    }),
  );

export type ApplicationEntry = z.infer<typeof ApplicationEntrySchema>;
export type TargetEntry = z.infer<typeof TargetEntrySchema>;
export type ProjectFile = z.infer<typeof ProjectFileSchema>;

/** An application as a command line names it, `id` or `id:name` (the sandbox's --ensure-app, init's -a). */
export function applicationSpec(text: string): { readonly id: string; readonly name: string | undefined } {
  const colon = text.indexOf(':');
  return colon < 0 ? { id: text, name: undefined } : { id: text.slice(0, colon), name: text.slice(colon + 1) || undefined };
}
