// What every anonymous submission path of the published site is handed (the site's forms and its
// endpoint for visitors' assistants): the services, the visitor keys and the limits from config.
import { visitorKeysOf } from '../../domain/analytics/visitor-keys.js';
import type { FormLimits } from '../../domain/crm/form-guard.js';
import type { VisitorDeps } from '../../domain/crm/submission.js';
import type { AppDeps } from '../deps.js';

export function visitorDepsOf(deps: AppDeps): VisitorDeps {
  const { db, config } = deps.services;
  const limits: FormLimits = {
    perAddress: config.formLimitPerAddress,
    perWebsite: config.formLimitPerWebsite,
    assistantPerDay: config.visitorMcpSendsPerDay,
    take: (w, key) => deps.limits.tryWindow(w, key),
  };
  return { services: deps.services, keys: visitorKeysOf(db), limits };
}
