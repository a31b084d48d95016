import { CsrfField, Layout } from './layout.js';

export function LoginPage(props: { csrf: string; next: string; error?: string; email?: string }) {
  return (
    <Layout title="Sign in" csrf={props.csrf}>
      <div class="card" style="max-width:420px;margin:auto">
        <h1>Sign in</h1>
        {props.error ? <p class="error">{props.error}</p> : null}
        <form method="post" action="/login">
          <CsrfField csrf={props.csrf} />
          <input type="hidden" name="next" value={props.next} />
          <label>
            Email
            <input type="email" name="email" required autocomplete="username" value={props.email ?? ''} />
          </label>
          <label>
            Password
            <input type="password" name="password" required autocomplete="current-password" />
          </label>
          <button type="submit">Sign in</button>
        </form>
      </div>
    </Layout>
  );
}
