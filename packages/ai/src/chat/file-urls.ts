import { isUrlSupported } from '@ai-sdk/provider-utils';
import { ToolError } from '@edgetool/core';
import type { LanguageModel } from 'ai';

/**
 * Which `file` parts of a client's messages may name a URL instead of carrying their bytes as a `data:` URL (see
 * {@link ChatAgentOptions.fileUrls}): none, those the model fetches itself, all, or those a function accepts.
 */
export type FileUrlPolicy = 'refuse' | 'model' | 'allow' | ((file: { readonly url: URL; readonly mediaType: string }) => boolean);

const MARKER: unique symbol = Symbol.for('edgetool.FileUrlError');

/**
 * A client's `file` part names a URL the agent's `fileUrls` does not allow (`invalid-input`, thrown before anything
 * runs or any ticket is spent). `path` says where: `messages[2].parts[0].url`.
 */
export class FileUrlError extends ToolError {
  /** The refused URL (its first 200 characters). */
  readonly url: string;
  readonly path: string;

  constructor(url: string, path: string) {
    const shown = url.length > 200 ? `${url.slice(0, 200)}…` : url;
    super('invalid-input', `A file part must carry its bytes as a data: URL; this server does not take ${shown} (${path}).`, {
      issues: [{ path, message: 'not a data: URL' }],
    });
    this.name = 'FileUrlError';
    Object.defineProperty(this, MARKER, { value: true });
    this.url = shown;
    this.path = path;
  }

  /** True for a `FileUrlError`, even one from another copy of the package. */
  static override isInstance(value: unknown): value is FileUrlError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}

/** The agent's `fileUrls`, checked when it is made (a misspelt value must not mean "allow"). */
export function checkFileUrlPolicy(value: FileUrlPolicy | undefined): FileUrlPolicy {
  if (value === undefined) return 'refuse';
  if (value === 'refuse' || value === 'model' || value === 'allow' || typeof value === 'function') return value;
  throw new RangeError(`\`fileUrls\` must be 'refuse', 'model', 'allow' or a function; got ${JSON.stringify(value)}.`);
}

/** The URLs the model reads itself, by media type (the AI SDK's `supportedUrls`); none known for a model id string. */
async function modelUrls(model: LanguageModel): Promise<Record<string, RegExp[]>> {
  return typeof model === 'string' ? {} : await model.supportedUrls;
}

/**
 * Every part of UI messages, with the path of its `url`: also those a `steering-message` part holds (the AI SDK makes it
 * a user message in the prompt, whose file URLs it downloads).
 */
function* fileParts(messages: readonly { readonly parts: readonly unknown[] }[]): Iterable<readonly [unknown, string]> {
  for (const [m, message] of messages.entries()) {
    for (const [p, part] of message.parts.entries()) {
      const { type, parts } = part as { type?: unknown; parts?: unknown };
      if (type === 'steering-message' && Array.isArray(parts)) {
        for (const [q, inner] of parts.entries()) yield [inner, `messages[${m}].parts[${p}].parts[${q}].url`];
      } else {
        yield [part, `messages[${m}].parts[${p}].url`];
      }
    }
  }
}

/**
 * Refuses (throws {@link FileUrlError}) the first file part of validated UI messages (see {@link fileParts}) whose `url`
 * is a URL other than `data:` that `policy` does not allow. A url that is no URL at all is left to the conversion, which
 * refuses it too. Left through, such a URL is the AI SDK's to handle: passed to a model that takes it, downloaded by
 * this server otherwise.
 */
export async function checkFileUrls(
  messages: readonly { readonly parts: readonly unknown[] }[],
  policy: FileUrlPolicy,
  model: LanguageModel,
): Promise<void> {
  if (policy === 'allow') return;
  let supported: Record<string, RegExp[]> | undefined;
  for (const [part, path] of fileParts(messages)) {
    const { type, url, mediaType } = part as { type?: unknown; url?: unknown; mediaType?: unknown };
    if ((type !== 'file' && type !== 'reasoning-file') || typeof url !== 'string' || !URL.canParse(url)) continue;
    const parsed = new URL(url);
    if (parsed.protocol === 'data:') continue;
    const media = typeof mediaType === 'string' ? mediaType : '';
    if (policy === 'model') {
      supported ??= await modelUrls(model);
      // The AI SDK's own test (a part without a media type is never passed through): what it hands to the provider.
      if (media !== '' && isUrlSupported({ mediaType: media, url: parsed.toString(), supportedUrls: supported })) continue;
    } else if (typeof policy === 'function' && policy({ url: parsed, mediaType: media })) {
      continue;
    }
    throw new FileUrlError(url, path);
  }
}
