// The local image provider's composer (R-IMG-1): an abstract, brand-consistent
// picture built only from the brand's palette, style words and font character (serif/script means
// organic shapes), varied by the prompt and Company Memory (as a seed), rendered from SVG to PNG
// with @resvg/resvg-js. No text is drawn (so no font files are needed and nothing is invented
// about the business); only validated hex colours reach the SVG, so brand fields cannot inject markup.
import { createHash } from 'node:crypto';
import { Resvg } from '@resvg/resvg-js';

export type Aspect = 'square' | 'landscape' | 'portrait';
export const SIZES: Record<Aspect, { width: number; height: number }> = {
  square: { width: 1024, height: 1024 },
  landscape: { width: 1344, height: 768 },
  portrait: { width: 768, height: 1344 },
};

export type BrandInput = {
  palette: Record<string, string>;
  fonts: { heading?: string; body?: string };
  style: string;
  memory: string[];
};

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const DEFAULTS = ['#2f6f5e', '#f3e3c3', '#8a4b2a', '#fffaf2'];

/** Brand colours in a stable order: background first, then primary, accent, secondary, the rest. */
export function brandColours(palette: Record<string, string>): { background: string; inks: string[] } {
  const ok = (k: string) => (HEX.test(palette[k] ?? '') ? palette[k]!.toLowerCase() : null);
  const background = ok('background') ?? ok('secondary') ?? DEFAULTS[3]!;
  const named = ['primary', 'accent', 'secondary', 'text'].map(ok).filter((c): c is string => !!c);
  const rest = Object.keys(palette)
    .sort()
    .map(ok)
    .filter((c): c is string => !!c && !named.includes(c) && c !== background);
  const inks = [...named, ...rest].filter((c) => c !== background);
  return { background, inks: inks.length ? inks : DEFAULTS.slice(0, 3) };
}

/** A deterministic pseudo-random stream from a seed (sha256 in counter mode). */
function stream(seed: string): () => number {
  let counter = 0;
  let buf = Buffer.alloc(0);
  let pos = 0;
  return () => {
    if (pos + 4 > buf.length) {
      buf = createHash('sha256').update(`${seed}:${counter++}`).digest();
      pos = 0;
    }
    const v = buf.readUInt32BE(pos) / 0x1_0000_0000;
    pos += 4;
    return v;
  };
}

export function composeSvg(prompt: string, aspect: Aspect, brand: BrandInput): string {
  const { width: w, height: h } = SIZES[aspect];
  const { background, inks } = brandColours(brand.palette);
  const fonts = `${brand.fonts.heading ?? ''} ${brand.fonts.body ?? ''}`;
  const rnd = stream(`${prompt}\n${brand.style}\n${fonts}\n${brand.memory.join('\n')}`);
  const style = brand.style.toLowerCase();
  const calm = /minimal|clean|simple|calm/.test(style);
  // A serif or script heading font reads as hand-made: softer, organic shapes.
  const serif = /fraunces|serif|georgia|garamond|playfair|merriweather|lora|script|hand/i.test(fonts);
  const organic = serif || /warm|rustic|natural|organic|hand|soft/.test(style);
  const count = calm ? 4 : 9;
  const shapes: string[] = [];
  for (let i = 0; i < count; i++) {
    const fill = inks[i % inks.length]!;
    const opacity = (calm ? 0.85 : 0.55 + rnd() * 0.4).toFixed(2);
    const cx = Math.round(rnd() * w);
    const cy = Math.round(rnd() * h);
    const r = Math.round((0.12 + rnd() * (calm ? 0.25 : 0.35)) * Math.min(w, h));
    if (organic) {
      shapes.push(
        `<ellipse cx="${cx}" cy="${cy}" rx="${r}" ry="${Math.round(r * (0.6 + rnd() * 0.5))}" transform="rotate(${Math.round(rnd() * 180)} ${cx} ${cy})" fill="${fill}" fill-opacity="${opacity}"/>`,
      );
    } else if (calm) {
      shapes.push(
        `<rect x="${cx - r}" y="${cy - r / 2}" width="${2 * r}" height="${r}" rx="${Math.round(r / 8)}" fill="${fill}" fill-opacity="${opacity}"/>`,
      );
    } else {
      shapes.push(`<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}" fill-opacity="${opacity}"/>`);
    }
  }
  const band = inks[0]!;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">`,
    `<rect width="${w}" height="${h}" fill="${background}"/>`,
    ...shapes,
    `<rect y="${Math.round(h * 0.92)}" width="${w}" height="${Math.round(h * 0.08)}" fill="${band}"/>`,
    '</svg>',
  ].join('');
}

export function renderPng(svg: string): Uint8Array {
  const r = new Resvg(svg, { font: { loadSystemFonts: false }, background: 'rgba(0,0,0,0)' });
  return r.render().asPng();
}
