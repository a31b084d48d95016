-- Custom SQL: demo markers written by earlier versions held the demo's API tokens in plaintext.
-- Tokens are kept only as a SHA-256 and a display prefix; the tokens leave the row (the demo's
-- own start then prints how to get a new one, src/demo/demo-tokens.ts).
UPDATE "demo_seed" SET "output" = "output" - 'tokens';
