export * from './ai-tools.ts';
export * from './call-results.ts';
export * from './invalid-calls.ts';
export * from './chat-agent.ts';
export * from './proofs.ts';
export { generateTextTurn, type TextTurnRequest, type TextTurnResult } from './text-turn.ts';
export * from './protocol.ts';
export * from './tool-output.ts';
export * from './verify-continuation.ts';
