/** The body of an OpenAI error response. */
export interface OpenAIErrorBody {
  readonly error: {
    readonly message: string;
    readonly type: string;
    readonly param: string | null;
    readonly code: string | null;
  };
}

/** The `error.type` OpenAI uses for a status when a turn does not name one. */
export function defaultErrorType(status: number): string {
  if (status === 401) return 'invalid_request_error';
  if (status === 403) return 'permission_denied';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/** Builds an OpenAI-shaped error body. */
export function openAIErrorBody(input: {
  message: string;
  status: number;
  type?: string | undefined;
  code?: string | null | undefined;
  param?: string | null | undefined;
}): OpenAIErrorBody {
  return {
    error: {
      message: input.message,
      type: input.type ?? defaultErrorType(input.status),
      param: input.param ?? null,
      code: input.code ?? null,
    },
  };
}
