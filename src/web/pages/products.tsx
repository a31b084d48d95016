// The console's products page: every product of the site with its status and revision, the owner's
// Publish (at the current revision) and Unpublish, and, where an assistant's prepare_publish_product
// plan waits, the way to its approval page. An assistant's create_product makes only drafts.
import type { ServiceStatus } from '../../domain/commerce/catalogue.js';
import { ConfirmActions, Flash } from './confirm.js';
import { type ConsoleBase, ConsoleFrame, consolePath } from './console.js';
import { DataTable } from './table.js';

export type ProductItem = {
  productId: string;
  name: string;
  description: string;
  price: string;
  status: string;
  revision: number;
  publishedRevision: number | null;
  /** What the page showed (shownProduct), posted back with Publish or Unpublish. */
  shown: string;
  /** The approval page of an assistant's plan to make it public, while one waits. */
  planId: string | null;
};

const DONE: Record<string, string> = {
  published: 'Public. Customers can see and buy it at this price.',
  unpublished: 'Back to a draft. Customers no longer see it.',
};

function status(p: ProductItem): string {
  if (p.status !== 'public') return 'Draft';
  return p.publishedRevision === p.revision
    ? `Public (revision ${p.revision})`
    : `Public at revision ${p.publishedRevision}; revision ${p.revision} is not`;
}

export function ProductsPage(p: ConsoleBase & { products: ProductItem[]; done?: string }) {
  const base = consolePath(p.siteId);
  const toggle = (x: ProductItem): { to: ServiceStatus; label: string; path: string } =>
    x.status === 'public'
      ? { to: 'draft', label: 'Unpublish', path: 'unpublish' }
      : { to: 'public', label: 'Publish', path: 'publish' };
  return (
    <ConsoleFrame
      {...p}
      title={`Products · ${p.siteName}`}
      heading={`Products of ${p.siteName}`}
      current="products"
      flash={<Flash messages={DONE} done={p.done} />}
    >
      <div class="card" id="products">
        <p class="muted">
          Your assistants can add products as drafts and ask you to make one public (a plan you approve). You
          can also publish or unpublish one here yourself.
        </p>
        <DataTable
          rows={p.products}
          empty="No product yet. Ask your assistant to create one; it appears here as a draft."
          rowAttrs={(x) => ({ 'data-product': x.productId, 'data-status': x.status })}
          columns={[
            {
              label: 'Product',
              class: 'msg',
              cell: (x) => (
                <>
                  <strong>{x.name}</strong>
                  {x.description ? <div class="muted">{x.description}</div> : null}
                </>
              ),
            },
            { label: 'Price', cell: (x) => x.price },
            {
              label: 'Status',
              cell: (x) => (
                <>
                  {status(x)}
                  {x.planId ? (
                    <div>
                      <a href={`/approvals/${encodeURIComponent(x.planId)}`} class="plan">
                        An assistant asks to make it public: review the plan
                      </a>
                    </div>
                  ) : null}
                </>
              ),
            },
            {
              label: 'Action',
              action: true,
              cell: (x) => (
                <ConfirmActions
                  csrf={p.csrf}
                  action={`${base}/products/${encodeURIComponent(x.productId)}/${toggle(x).path}`}
                  hidden={{ shown: x.shown }}
                  button={{
                    id: `${toggle(x).path}-${x.productId}`,
                    class: toggle(x).to === 'public' ? undefined : 'secondary',
                    label: (
                      <>
                        {toggle(x).label}
                        <span class="sr"> {x.name}</span>
                      </>
                    ),
                  }}
                />
              ),
            },
          ]}
        />
      </div>
    </ConsoleFrame>
  );
}
