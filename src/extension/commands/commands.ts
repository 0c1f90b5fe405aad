// The pickers' door for the on-demand code of other features: only commands ask with a quick pick,
// so none of this is imported by activation (index.ts), and it stays out of dist/extension.js.
export { isNode, NAMES_TARGETS, pickAction, pickApplication, pickProject, pickValidProject, projectArgument, projectDescription, projectFileOf } from './pick';
