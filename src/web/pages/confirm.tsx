// The owner pages' one confirmation step: a page that says what an action will do, with the form that
// does it (CSRF field, hidden fields, one submit button) and a way back that does nothing. A flash after
// a redirect (`?done=…`) is shown by `Flash`.
import type { Child } from 'hono/jsx';
import type { SessionUser } from '../session.js';
import { CsrfField, Layout } from './layout.js';

/** The submit form and the Cancel link of a confirmation. */
export function ConfirmActions(p: {
  csrf: string;
  action: string;
  hidden?: Record<string, string>;
  /** The submit button's id (tests and people's scripts find it by that) and its words. */
  button: { id: string; label: Child; class?: string };
  cancel?: string;
  /** More fields the owner fills in before confirming. */
  children?: Child;
}) {
  return (
    <div class="actions">
      <form method="post" action={p.action}>
        <CsrfField csrf={p.csrf} />
        {Object.entries(p.hidden ?? {}).map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
        {p.children}
        <button type="submit" id={p.button.id} class={p.button.class}>
          {p.button.label}
        </button>
      </form>
      {p.cancel ? (
        <a class="btn secondary" href={p.cancel}>
          Cancel
        </a>
      ) : null}
    </div>
  );
}

/** A whole confirmation page: back link, a card with the question, what happens, and the actions. */
export function ConfirmStep(p: {
  user: SessionUser;
  csrf: string;
  title: string;
  css?: string;
  back: { href: string; label: Child };
  heading: Child;
  danger?: boolean;
  action: string;
  hidden?: Record<string, string>;
  button: { id: string; label: Child };
  /** Fields inside the form, before the button. */
  fields?: Child;
  /** What the action does, in sentences. */
  children?: Child;
}) {
  return (
    <Layout title={p.title} user={p.user} csrf={p.csrf} css={p.css}>
      <p>
        <a href={p.back.href}>← {p.back.label}</a>
      </p>
      <div class={p.danger ? 'card danger' : 'card'}>
        <h1>{p.heading}</h1>
        {p.children}
        <ConfirmActions
          csrf={p.csrf}
          action={p.action}
          hidden={p.hidden}
          button={p.button}
          cancel={p.back.href}
        >
          {p.fields}
        </ConfirmActions>
      </div>
    </Layout>
  );
}

/** The message of a `?done=` key after an action's redirect, when the page knows that key. */
export function Flash(p: { messages: Record<string, string>; done?: string; id?: string }) {
  const text = p.done && Object.hasOwn(p.messages, p.done) ? p.messages[p.done] : undefined;
  if (!text) return null;
  return (
    <p class="ok" role="status" id={p.id ?? 'done'}>
      {text}
    </p>
  );
}
