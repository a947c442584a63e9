export * from './offline-model';
export type { OfflineReply, OfflineRule, OfflineRuleInput, OfflineToolCall } from './plan-reply';
