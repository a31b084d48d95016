// Image generation (R-IMG-1, R-IMG-2). Text generation is intentionally not offered.
// transaction: 'own' — credits are reserved and refunded in their own short statements so that no
// transaction holds locks while the provider works (src/domain/library/generate.ts); the gate still
// runs first, on services.db.
import { z } from 'zod';
import { generateImage } from '../../domain/library/generate.js';
import { defineTool } from '../define-tool.js';
import { plural } from '../../kernel/plural.js';

export const generate_image = defineTool({
  name: 'generate_image',
  title: 'Generate an image',
  description:
    'Makes one image in the brand’s palette and style (using Company Memory) and stores it in the website’s library; returns its assetId. Touches no page. Costs 1 credit, charged only when the image is delivered; needs the workspace’s AI consent.',
  scope: 'ai:generate',
  area: 'ai',
  role: 'editor',
  bucket: { key: 'generate_image', perMinute: 20 },
  transaction: 'own',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  idempotent: 'key',
  input: z.object({
    prompt: z.string().trim().min(3).max(1000).describe('What the image should show.'),
    aspect: z.enum(['square', 'landscape', 'portrait']).default('square'),
  }),
  output: z.object({
    assetId: z.string(),
    mime: z.string(),
    width: z.number(),
    height: z.number(),
    creditsSpent: z.number(),
    creditsLeft: z.number(),
  }),
  activity: (i, d) => `Generated a ${i.aspect} image (${plural(d?.creditsSpent ?? 0, 'credit')})`,
  credits: (d) => d.creditsSpent,
  run: (ctx, input) => generateImage(ctx, input),
});
