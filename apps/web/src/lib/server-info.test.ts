import { describe, expect, it } from 'vitest';
import { serverToolsNote } from './server-info.ts';

describe('serverToolsNote', () => {
  it('says the tools are loading while the server is checked, and blames the server only once it did not answer', () => {
    // A slow first load read "Not loaded: the server is not reachable yet." while the health check was still on its way.
    expect(serverToolsNote('checking')).toBe('Loading them from the server…');
    expect(serverToolsNote('unreachable')).toBe('Not loaded: the server is not reachable yet.');
    // Online: the server answered, so an empty list is its own (or /api/tools failed), not an unreachable server.
    expect(serverToolsNote('online')).toBe('The server lists none.');
  });
});
