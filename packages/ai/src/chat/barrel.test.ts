import { describe, expect, it } from 'vitest';
import * as chat from './index.ts';

describe('the chat barrel', () => {
  it("exports the API, not the loop's own helpers and wording", () => {
    for (const name of ['cutArgumentsText', 'unfinishedArgumentsText', 'UNRUN_CALL_TEXT', 'callIdRenamer', 'readTurnId', 'sseEvent', 'storeCall', 'SSE_DONE']) {
      expect(Object.keys(chat), name).not.toContain(name);
    }
    expect(Object.keys(chat)).toEqual(expect.arrayContaining(['createChatAgent', 'resumeResponse', 'cancelResumable', 'repairToolCallFor']));
  });
});
