// Form fields shared by every place an owner grants access (Developers settings, connect page):
// the website, the reach (this website by default, or the whole workspace) and scope checkboxes.
import type { OwnedWebsite } from '../../auth/owner.js';
import { ALWAYS_ON, SCOPE_LABELS, type Scope } from '../../kernel/scopes.js';

export function SiteAndReach(props: { sites: OwnedWebsite[]; selected?: string }) {
  return (
    <>
      <label>
        Website
        <select name="websiteId">
          {props.sites.map((s) => (
            <option value={s.id} selected={s.id === props.selected}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
      <fieldset>
        <legend>Reach</legend>
        <label>
          <input type="radio" name="reach" value="website" checked style="width:auto" /> This website only
        </label>
        <label>
          <input type="radio" name="reach" value="workspace" style="width:auto" /> The whole workspace (every
          site; calls name a websiteId)
        </label>
      </fieldset>
    </>
  );
}

/** One checkbox per scope offered; `checked` are ticked. site:read is always on and cannot be unticked. */
export function ScopeBoxes(props: { offered: readonly Scope[]; checked: readonly Scope[] }) {
  return (
    <fieldset>
      <legend>Scopes</legend>
      {props.offered.map((s) => (
        <label>
          <input
            type="checkbox"
            name="scopes"
            value={s}
            checked={s === ALWAYS_ON || props.checked.includes(s)}
            disabled={s === ALWAYS_ON}
            style="width:auto"
          />{' '}
          <code>{s}</code> — {SCOPE_LABELS[s]}
        </label>
      ))}
    </fieldset>
  );
}

/** The ticked scopes of a posted form (`scopes` may repeat). */
export function postedScopes(form: Record<string, string | File | (string | File)[]>): string[] {
  const v = form.scopes ?? form['scopes[]'];
  const list = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return list.filter((x): x is string => typeof x === 'string');
}
