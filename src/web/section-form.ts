// The owner's section edit form, derived from the section type's own schema (SECTION_SCHEMAS, the one
// the tools validate against): `sectionFields` describes the fields to draw, `contentFromForm` reads a
// posted form back into content. Neither decides what is valid: the save goes through the domain's
// replaceSectionContent, which validates the content exactly as it does for an agent.
// Field names are the content paths with list positions, prefixed `c.` ("c.items.2.title").
import type { z } from 'zod';
import { SECTION_SCHEMAS, type SectionType, fieldFormat } from '../domain/sections/types.js';

type Form = Record<string, unknown>;

export type Field =
  | {
      kind: 'text' | 'textarea' | 'markdown' | 'image' | 'email';
      name: string;
      label: string;
      value: string;
      required: boolean;
      max?: number;
      /** 'markdown' | 'inline' for a field the site renders as Markdown. */
      format?: 'markdown' | 'inline';
    }
  | { kind: 'lines'; name: string; label: string; value: string; max?: number }
  | { kind: 'yesno'; name: string; label: string; value: boolean }
  | { kind: 'list'; name: string; label: string; items: Field[][]; max: number };

type Node = z.ZodType & {
  def: { type: string; innerType?: Node; element?: Node };
  shape?: Record<string, Node>;
};

/** The schema under optional/default, and whether it may be left out. */
function unwrap(n: Node): { node: Node; optional: boolean } {
  let node = n;
  let optional = false;
  while (node.def.type === 'optional' || node.def.type === 'default') {
    optional = true;
    node = node.def.innerType!;
  }
  return { node, optional };
}

/** Key words people read instead of the content's keys. */
const LABELS: Record<string, string> = {
  heading: 'Heading',
  subheading: 'Subheading',
  body: 'Text',
  buttonLabel: 'Button label',
  buttonUrl: 'Button link',
  imageUrl: 'Image',
  alt: 'Image description (read out to people who cannot see it)',
  caption: 'Caption',
  images: 'Images',
  items: 'Items',
  title: 'Title',
  url: 'Link',
  quote: 'Quote',
  author: 'Who said it',
  plans: 'Plans',
  name: 'Name',
  price: 'Price',
  features: 'What it includes (one per line)',
  question: 'Question',
  answer: 'Answer',
  email: 'Email address',
  phone: 'Phone',
  address: 'Address',
  showForm: 'Show the contact form',
};

const label = (key: string) =>
  LABELS[key] ?? key.replace(/([A-Z])/g, ' $1').replace(/^./, (c) => c.toUpperCase());

/** Fields holding an image: chosen from the library (or an address kept as it is). */
function isImage(type: SectionType, path: string): boolean {
  return path.endsWith('imageUrl') || ((type === 'image' || type === 'gallery') && path.endsWith('url'));
}

/** The fields of a section of `type` holding `content`; lists get one empty row to add an item. */
export function sectionFields(type: SectionType, content: Record<string, unknown>): Field[] {
  return objectFields(type, SECTION_SCHEMAS[type] as unknown as Node, content, 'c', '');
}

function objectFields(type: SectionType, schema: Node, value: unknown, name: string, path: string): Field[] {
  const v = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  return Object.entries(schema.shape ?? {}).map(([key, child]) =>
    field(type, child, v[key], `${name}.${key}`, path ? `${path}.${key}` : key, key),
  );
}

function field(type: SectionType, n: Node, value: unknown, name: string, path: string, key: string): Field {
  const { node, optional } = unwrap(n);
  const t = node.def.type;
  if (t === 'boolean') return { kind: 'yesno', name, label: label(key), value: value !== false };
  if (t === 'array') {
    const element = unwrap(node.def.element!).node;
    const max = (node as unknown as { def: { checks?: Array<{ _zod: { def: { maximum?: number } } }> } }).def
      .checks?.[0]?._zod.def.maximum;
    if (element.def.type === 'string') {
      return {
        kind: 'lines',
        name,
        label: label(key),
        value: Array.isArray(value) ? value.join('\n') : '',
        max,
      };
    }
    const items = Array.isArray(value) ? value : [];
    const rows = items.length < (max ?? 50) ? [...items, {}] : items;
    return {
      kind: 'list',
      name,
      label: label(key),
      max: max ?? 50,
      items: rows.map((item, i) => objectFields(type, element, item, `${name}.${i}`, path)),
    };
  }
  const max = (node as unknown as { maxLength?: number | null }).maxLength ?? undefined;
  const format = fieldFormat(type, path);
  const kind = isImage(type, path)
    ? 'image'
    : (node as unknown as { format?: string }).format === 'email'
      ? 'email'
      : format === 'markdown'
        ? 'markdown'
        : (max ?? 0) > 300 && !/url$/i.test(key)
          ? 'textarea'
          : 'text';
  return {
    kind,
    name,
    label: label(key),
    value: typeof value === 'string' ? value : '',
    required: !optional,
    max,
    format: format === 'text' ? undefined : format,
  };
}

/**
 * The content a posted form holds, shaped by the type's schema: an empty optional field is left out, a
 * list row whose fields are all empty (the row for a new item) or marked for removal is dropped, a
 * list of lines is split at line breaks.
 */
export function contentFromForm(type: SectionType, form: Form): Record<string, unknown> {
  return readObject(SECTION_SCHEMAS[type] as unknown as Node, form, 'c');
}

const text = (form: Form, name: string) => {
  const v = form[name];
  return typeof v === 'string' ? v.replace(/\r\n/g, '\n').replace(/\s+$/, '') : '';
};

function readObject(schema: Node, form: Form, name: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(schema.shape ?? {})) {
    const { node, optional } = unwrap(child);
    const at = `${name}.${key}`;
    const t = node.def.type;
    if (t === 'boolean') out[key] = text(form, at) === 'yes';
    else if (t === 'array') {
      const element = unwrap(node.def.element!).node;
      if (element.def.type === 'string') {
        out[key] = text(form, at)
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean);
      } else {
        const rows = Math.min(Number(text(form, `${at}._rows`)) || 0, 100);
        const list: Record<string, unknown>[] = [];
        for (let i = 0; i < rows; i++) {
          if (text(form, `${at}.${i}._remove`) === 'yes') continue;
          const item = readObject(element, form, `${at}.${i}`);
          if (Object.values(item).some((v) => v !== undefined && v !== '')) list.push(item);
        }
        out[key] = list;
      }
    } else {
      const v = text(form, at);
      if (v !== '' || !optional) out[key] = v;
    }
  }
  return out;
}
