/** The launch configuration type of package.json's `debuggers`. */
export const DEBUG_TYPE = 'customActions';

/** What a `customActions` configuration asked for, carried through VS Code's variable substitution (provider.ts). */
export const ASKED = '__customActionsAsked';
