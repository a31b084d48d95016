// Pieces shared by every tool of the reviewed-plan rail (R-PLAN-1).
import { z } from 'zod';
import type { Annotations } from '../define-tool.js';

/** What every prepare_* tool returns. */
export const PlanTicketOutput = z.object({
  planId: z.string(),
  kind: z.string(),
  status: z.literal('pending'),
  summary: z.string(),
  expiresAt: z.string(),
  approveUrl: z.string(),
});

export const PREPARE: Annotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

export const NEXT_STEP =
  'Nothing happens yet: give the owner the approveUrl to review and approve, then call confirm_pending_action with the planId within 5 minutes.';
