// The result envelope (R-RESULT-1, R-RESULT-2): `{ ok: true, data }` or `{ ok: false, error: { code, message,
// hint? } }` as structuredContent and as one text item. Business failures carry only a generic message and a
// request id.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Refusal } from '../kernel/errors.js';

export function okResult(data: unknown): CallToolResult {
  const structured = { ok: true, data };
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

export function refusalResult(r: Refusal): CallToolResult {
  const error: Record<string, string> = { code: r.code, message: r.message };
  if (r.hint) error.hint = r.hint;
  const structured = { ok: false, error };
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify(structured) }],
    structuredContent: structured,
  };
}

export function failureResult(requestId: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: failureText(requestId) }] };
}

export function failureText(requestId: string): string {
  return `The operation failed and nothing was changed. Request id: ${requestId}. Try again later; if it keeps failing, give the site owner this request id.`;
}

/** JSON Schema of the envelope around a tool's data schema (what `outputSchema` publishes). */
export function envelopeJsonSchema(data: Record<string, unknown>): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      ok: { type: 'boolean' },
      data,
      error: {
        type: 'object',
        properties: { code: { type: 'string' }, message: { type: 'string' }, hint: { type: 'string' } },
        required: ['code', 'message'],
      },
    },
    required: ['ok'],
  };
}
