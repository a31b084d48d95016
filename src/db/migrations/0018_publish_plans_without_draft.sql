-- A publish plan is pinned to the draft counter, and its preview shows the draft (or the live site)
-- while that counter still names it: the whole draft once kept in each plan's subject is dropped.
UPDATE "pending_actions" SET "subject" = "subject" - 'draft' WHERE "kind" = 'publish' AND "subject" ? 'draft';
