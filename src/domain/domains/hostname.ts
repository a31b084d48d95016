// Hostname validation and normalisation for connect_domain / set_primary_domain (R-DOM-1): a bare
// DNS name the business owns — lower-case, IDN converted to punycode (WHATWG domainToASCII), no
// trailing dot, no IP address, no port, no path, no credentials, at least two labels.
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { invalidInput } from '../../kernel/errors.js';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export function normaliseHostname(raw: string): string {
  const input = raw.trim();
  const bad = (why: string) =>
    invalidInput(
      `"${input.slice(0, 80)}" is not a hostname: ${why}.`,
      'Pass the bare address only, such as www.example.com (no https://, port or path).',
    );
  if (!input) throw bad('it is empty');
  if (/[/\\?#@\s:]/.test(input)) throw bad('it contains a scheme, port, path or other non-hostname part');
  const bare = input.replace(/\.$/, '');
  if (isIP(bare) || isIP(bare.replace(/^\[|\]$/g, ''))) throw bad('IP addresses cannot be connected');
  const ascii = domainToASCII(bare.toLowerCase());
  if (!ascii) throw bad('it is not a valid domain name');
  if (ascii.length > 253) throw bad('it is longer than 253 characters');
  const labels = ascii.split('.');
  if (labels.length < 2) throw bad('it needs at least a name and a top-level domain');
  if (!labels.every((l) => LABEL.test(l))) throw bad('a part of it is empty or has invalid characters');
  if (/^[0-9]+$/.test(labels[labels.length - 1]!)) throw bad('the top-level domain cannot be numeric');
  if (isIP(ascii)) throw bad('IP addresses cannot be connected');
  return ascii;
}
