// Not in the barrel: input-schema.ts exports it (validation-result.ts needs it without importing that file back).
import type { StandardSchemaV1 } from '@standard-schema/spec';

/** Formats a Standard Schema path as `a.b[0].c` (root is `(root)`). */
export function formatIssuePath(path: StandardSchemaV1.Issue['path']): string {
  if (!path || path.length === 0) return '(root)';
  let out = '';
  for (const segment of path) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out || '(root)';
}
