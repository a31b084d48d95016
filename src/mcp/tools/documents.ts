// communications:write tools for invoices and quotes (R-DOC-1, R-PLAN-8): never-sent drafts without
// customer contact details, and the reviewed send plan pinned to a fingerprint of the whole document.
import { z } from 'zod';
import { listSendableDocuments } from '../../domain/documents/send.js';
import { prepareSendDocument } from '../../plans/kinds/document.js';
import { ParamId, defineTool } from '../define-tool.js';
import { NEXT_STEP, PREPARE, PlanTicketOutput } from './plan-shared.js';
import { plural } from '../../kernel/plural.js';

const invoicing = { scope: 'communications:write', area: 'invoicing', role: 'editor' } as const;

export const list_sendable_documents = defineTool({
  name: 'list_sendable_documents',
  title: 'List sendable documents',
  description:
    'Never-sent draft invoices and quotes with the documentId prepare_send_document needs (number, line count, total; no customer contact details).',
  ...invoicing,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  transaction: 'none',
  input: z.object({}),
  output: z.object({
    documents: z.array(
      z.object({
        documentId: z.string(),
        kind: z.string(),
        number: z.string(),
        lines: z.number(),
        totalCents: z.number(),
        currency: z.string(),
        dueAt: z.string().nullable(),
      }),
    ),
  }),
  activity: (_i, d) => `Listed ${plural(d?.documents.length ?? 0, 'sendable document')}`,
  run: async (ctx) => ({ documents: await listSendableDocuments(ctx) }),
});

export const prepare_send_document = defineTool({
  name: 'prepare_send_document',
  title: 'Prepare sending a document',
  description: `Prepares a plan to email one never-sent invoice or quote to its recipient. Any edit of the document after the owner's review refuses the send. ${NEXT_STEP}`,
  ...invoicing,
  annotations: PREPARE,
  idempotent: 'key',
  input: z.object({ documentId: ParamId.describe('Document id from list_sendable_documents.') }),
  output: PlanTicketOutput,
  activity: () => 'Prepared a send-document plan',
  run: (ctx, input) => prepareSendDocument(ctx, input.documentId),
});
