// Commerce tools (R-TOOL-9): draft services and products, and an operations overview
// without personal data. Creating a record charges no one and sends nothing; it stays a draft.
import { z } from 'zod';
import { createProduct, createService, listProducts, listServices } from '../../domain/commerce/catalogue.js';
import { commerceOverview } from '../../domain/commerce/overview.js';
import { defineTool } from '../define-tool.js';
import { plural } from '../../kernel/plural.js';

const READ = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;
const WRITE = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
} as const;
const commerce = { scope: 'commerce:write', area: 'commerce' } as const;

const Name = z.string().trim().min(1).max(120);
const Description = z.string().trim().max(2000);
const PriceCents = z.number().int().min(0).max(100_000_000).describe('Price in cents (4500 = 45.00).');
const Currency = z
  .string()
  .regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as EUR')
  .describe('ISO 4217 currency code (EUR).');

const Service = z.object({
  serviceId: z.string(),
  name: z.string(),
  description: z.string(),
  priceCents: z.number().nullable(),
  currency: z.string(),
  durationMinutes: z.number().nullable(),
  status: z.string(),
});
const Product = z.object({
  productId: z.string(),
  name: z.string(),
  description: z.string(),
  priceCents: z.number(),
  currency: z.string(),
  status: z.string(),
  revision: z.number(),
  publishedRevision: z.number().nullable(),
});
const ByStatus = z.object({ draft: z.number(), public: z.number(), total: z.number() });

export const list_services = defineTool({
  name: 'list_services',
  title: 'List services',
  description: 'The website’s services (draft and public) with price, currency and duration.',
  ...commerce,
  role: 'viewer',
  annotations: READ,
  transaction: 'none',
  input: z.object({}),
  output: z.object({ services: z.array(Service) }),
  activity: (_i, d) => `Listed ${plural(d?.services.length ?? 0, 'service')}`,
  run: (ctx) => listServices(ctx),
});

export const create_service = defineTool({
  name: 'create_service',
  title: 'Create a draft service',
  description:
    'Creates a draft service. It is not public, charges no customer and sends nothing; the owner publishes it on the site’s Services page.',
  ...commerce,
  role: 'editor',
  annotations: WRITE,
  idempotent: 'key',
  input: z.object({
    name: Name,
    description: Description.optional(),
    priceCents: PriceCents.optional(),
    currency: Currency.optional(),
    durationMinutes: z.number().int().min(5).max(1440).optional().describe('Length in minutes, 5-1440.'),
  }),
  output: Service,
  activity: () => 'Created a draft service',
  run: (ctx, input) => createService(ctx, input),
});

export const list_products = defineTool({
  name: 'list_products',
  title: 'List products',
  description:
    'The website’s products with status, price and revision (publish one with prepare_publish_product).',
  ...commerce,
  role: 'viewer',
  annotations: READ,
  transaction: 'none',
  input: z.object({}),
  output: z.object({ products: z.array(Product) }),
  activity: (_i, d) => `Listed ${plural(d?.products.length ?? 0, 'product')}`,
  run: (ctx) => listProducts(ctx),
});

export const create_product = defineTool({
  name: 'create_product',
  title: 'Create a draft product',
  description:
    'Creates a draft product at revision 1. It is not for sale until the owner approves prepare_publish_product or publishes it on the site’s Products page; nothing is charged or sent.',
  ...commerce,
  role: 'editor',
  annotations: WRITE,
  idempotent: 'key',
  input: z.object({
    name: Name,
    description: Description.optional(),
    priceCents: PriceCents,
    currency: Currency.optional(),
  }),
  output: Product,
  activity: () => 'Created a draft product',
  run: (ctx, input) => createProduct(ctx, input),
});

export const get_commerce_overview = defineTool({
  name: 'get_commerce_overview',
  title: 'Commerce overview',
  description:
    'Operations status without personal data: services and products by draft/public, open invoices and quotes by status, bookings this week (Monday-Sunday, UTC). Document figures are omitted when the agency has switched invoicing off.',
  ...commerce,
  role: 'viewer',
  annotations: READ,
  transaction: 'none',
  input: z.object({}),
  output: z.object({
    services: ByStatus,
    products: ByStatus,
    bookingsThisWeek: z.object({ from: z.string(), to: z.string(), count: z.number() }),
    openDocuments: z.array(z.object({ kind: z.string(), status: z.string(), count: z.number() })).nullable(),
    documentsWithheld: z.boolean(),
  }),
  activity: () => 'Read the commerce overview',
  run: (ctx) => commerceOverview(ctx),
});
