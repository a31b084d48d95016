// Every plan kind (R-PLAN-7) and its one executor. Nothing else can be prepared or redeemed: booking
// cancellation, completion and rescheduling have no kind here, so the rail cannot reach them.
import { grantAccessKind } from './access.js';
import { createCompanyKind } from './company.js';
import { sendDocumentKind } from './document.js';
import { publishProductKind } from './product.js';
import { publishKind, unpublishKind } from './publish.js';
import { type PlanKind, type PlanKindDef, isPlanKind } from './types.js';
import { searchVisibilityKind } from './visibility.js';

export const KINDS: Record<PlanKind, PlanKindDef<never>> = {
  publish: publishKind as PlanKindDef<never>,
  unpublish: unpublishKind as PlanKindDef<never>,
  publish_product: publishProductKind as PlanKindDef<never>,
  search_visibility: searchVisibilityKind as PlanKindDef<never>,
  grant_access: grantAccessKind as PlanKindDef<never>,
  send_document: sendDocumentKind as PlanKindDef<never>,
  create_company: createCompanyKind as PlanKindDef<never>,
};

export function kindOf(kind: string): PlanKindDef<unknown> | null {
  return isPlanKind(kind) ? (KINDS[kind] as unknown as PlanKindDef<unknown>) : null;
}
