import { describe, expect, it } from 'vitest';
import { serverToolsNote } from './server-info.ts';

describe('serverToolsNote', () => {
  it('says the tools are loading while the server is checked, and blames the server only once it did not answer', () => {
    // A slow first load read "Not loaded: the server is not reachable yet." while the health check was still on its way.
    expect(serverToolsNote({ status: 'checking', toolsProblem: undefined })).toBe('Loading them from the server…');
    expect(serverToolsNote({ status: 'unreachable', toolsProblem: undefined })).toBe('Not loaded: the server is not reachable yet.');
    // Online: the server answered, so an empty list is its own, not an unreachable server.
    expect(serverToolsNote({ status: 'online', toolsProblem: undefined })).toBe('The server lists none.');
  });

  it('says the list did not load when the server answered its health check but not /api/tools', () => {
    // It read "The server lists none." for a server whose tools exist but whose list failed.
    expect(serverToolsNote({ status: 'online', toolsProblem: '/api/tools answered HTTP 500' })).toBe('Not loaded: the server did not list them (/api/tools answered HTTP 500).');
  });
});
