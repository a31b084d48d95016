// The shared page frame of the owner-facing web app (server-rendered with hono/jsx; everything escaped).
import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import type { SessionUser } from '../session.js';

const CSS = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1b1b1f;background:#f6f6f8}
header{display:flex;gap:1rem;align-items:center;padding:.75rem 1.5rem;background:#1b1b1f;color:#fff}
header a{color:#fff;text-decoration:none}header .sp{flex:1}main{max-width:960px;margin:2rem auto;padding:0 1rem}
.card{background:#fff;border:1px solid #e3e3e8;border-radius:10px;padding:1.25rem;margin-bottom:1rem}
button,.btn{font:inherit;padding:.5rem 1rem;border-radius:8px;border:1px solid #1b1b1f;background:#1b1b1f;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1b1b1f}input,select,textarea{font:inherit;padding:.45rem;border:1px solid #c8c8d0;border-radius:6px;width:100%}
label{display:block;margin:.5rem 0}table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.4rem;border-bottom:1px solid #eee}
.muted{color:#666}.error{color:#b00020}.ok{color:#0a7a32}code,pre{background:#f0f0f4;padding:.1rem .3rem;border-radius:4px;overflow:auto}
header{flex-wrap:wrap;row-gap:.5rem}header button{white-space:nowrap}td{overflow-wrap:anywhere}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}.actions form{margin:0}
a.btn{display:inline-block;text-decoration:none}.btn.secondary{background:#fff;color:#1b1b1f}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (max-width:640px){header{padding:.6rem 1rem;gap:.4rem .9rem}main{margin:1rem auto;padding:0 .6rem}.card{padding:.9rem}
table.rt thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
table.rt tr{display:block;border-bottom:1px solid #e3e3e8;padding:.5rem 0}table.rt td{display:block;border:0;padding:.1rem 0}
table.rt td[data-label]::before{content:attr(data-label) ": ";font-weight:600}}
`;

export function Layout(props: {
  title: string;
  user?: SessionUser | null;
  csrf?: string;
  /** Page-specific CSS, appended to the shared sheet: a constant of ours, never data (it is not escaped). */
  css?: string;
  children?: Child;
}) {
  // An HTML5 document: without the doctype browsers render in quirks mode.
  return (
    <>
      {raw('<!doctype html>')}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{`${props.title} · Sitegate`}</title>
          {/* Our own constant CSS, not data: raw so quotes in it survive. */}
          <style>{raw(props.css ? CSS + props.css : CSS)}</style>
        </head>
        <body>
          <header>
            <a href="/">
              <strong>Sitegate</strong>
            </a>
            <span class="sp" />
            {props.user ? (
              <>
                <a href="/approvals">Approvals</a>
                <a href="/settings/advanced/developers">Developers</a>
                <form method="post" action="/logout" style="margin:0">
                  <input type="hidden" name="_csrf" value={props.csrf ?? ''} />
                  <button type="submit" class="secondary">
                    Sign out
                  </button>
                </form>
              </>
            ) : (
              <a href="/login">Sign in</a>
            )}
          </header>
          <main>{props.children}</main>
        </body>
      </html>
    </>
  );
}

export function CsrfField(props: { csrf: string }) {
  return <input type="hidden" name="_csrf" value={props.csrf} />;
}
