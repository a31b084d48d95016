// publish_site: never publishes. It has no success to test: every call is refused with review_required
// and the next step (prepare_publish, the owner's approval, confirm_pending_action).
import { expect, it } from 'vitest';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('publish_site'));

it('is refused with review_required and the next step, even for the owner with every scope', async () => {
  const w = await kit.workspace();
  const r = await kit.expectRefusal('review_required', () => kit.call(w.tokens.all, 'publish_site'), {
    tool: 'publish_site',
    companyIds: [w.companyId],
  });
  expect(r.error).toMatchObject({ code: 'review_required', hint: expect.stringMatching(/prepare_publish/) });
});
