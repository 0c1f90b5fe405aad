export { ActionsTreeProvider, type RecentEventsSource, type ViewState } from './provider';
export { type TreeNode } from './nodes';
