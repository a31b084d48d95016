// The console's products page and the owner's Publish / Unpublish of a product
// (src/domain/commerce/catalogue.ts), beside an assistant's publish-product plan, which waits on its
// approval page. Owner only, through the person gate; the CSRF guard has checked every POST.
import type { Hono } from 'hono';
import { listProducts, setProductStatus, shownProduct } from '../../domain/commerce/catalogue.js';
import { money } from '../../domain/money.js';
import { pendingProductPlans } from '../../plans/kinds/product.js';
import type { AppDeps } from '../deps.js';
import { consolePath } from '../pages/console.js';
import { ProductsPage } from '../pages/products.js';
import type { WebEnv } from '../session.js';
import { consoleView, field, ownerAction } from './owner-action.js';

const BASE = '/dashboard/sites/:websiteId/products';

export function mountProducts(app: Hono<WebEnv>, deps: AppDeps): void {
  app.get(BASE, async (c) => {
    const view = await consoleView(c, deps, 'products.read', async (ctx) => {
      const plans = await pendingProductPlans(ctx);
      return {
        products: (await listProducts(ctx)).products.map((p) => ({
          ...p,
          price: money(p.priceCents, p.currency),
          shown: shownProduct(p),
          // A plan for a product already public at its revision can no longer be approved: not offered.
          planId:
            p.status === 'public' && p.publishedRevision === p.revision
              ? null
              : (plans.get(p.productId) ?? null),
        })),
      };
    });
    return c.html(<ProductsPage {...view} done={c.req.query('done')} />);
  });

  const list = (id: string) => `${consolePath(id)}/products`;
  for (const [path, to, done] of [
    ['publish', 'public', 'published'],
    ['unpublish', 'draft', 'unpublished'],
  ] as const) {
    ownerAction(app, deps, {
      path: `${BASE}/:productId/${path}`,
      action: 'products.publish',
      input: (form, params) => ({ productId: params.productId!, shown: field(form, 'shown', 40), to }),
      run: setProductStatus,
      done: (id) => `${list(id)}?done=${done}`,
      back: (id) => ({ href: list(id), label: 'Back to the products' }),
    });
  }
}
