// HTML escaping for text put into markup the server writes (published pages, forms, the document
// attachment, the development identity provider's pages). Escape first, then add tags: the five
// characters below are all that can end a text node or a quoted attribute value.
const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESC[c]!);
}
