// Which Host headers may name a customer's domain: any name but the service's own (BASE_URL's, or the
// development identity provider's issuer), loopback names and IP literals, which no tenant can own.
// The web app answers such a host only as a published site (src/web/routes/site.ts); the identity
// provider not at all.

/** The request's hostname when it may be a customer's domain: not the service's own, not loopback or an IP. */
export function customHost(header: string | undefined, own: string): string | null {
  const host = hostOnly(header ?? '');
  if (!host || host === own || host === 'localhost' || !host.includes('.') || /^[\d.]+$/.test(host))
    return null;
  return host;
}

function hostOnly(header: string): string {
  const h = header.trim().toLowerCase();
  if (h.startsWith('[')) return '';
  return h.replace(/:\d+$/, '').replace(/\.$/, '');
}
