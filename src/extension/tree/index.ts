export { ActionsTreeProvider, type RecentEventsSource, type ViewState } from './provider';
export { isNode, type TreeNode } from './nodes';
