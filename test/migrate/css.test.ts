// Background images from CSS ("parse CSS with a real parser … for background-image on the
// elements you convert"): css-tree reads url() from shorthands and gradients, rules cascade in source
// order, a style attribute wins, states a visitor does not see at rest (:hover) do not count.
import * as cheerio from 'cheerio';
import { describe, expect, it } from 'vitest';
import { backgroundImages } from '../../src/migrate/css.js';

const page = new URL('https://shop.example.com/about/');
const sheet = (css: string, at = 'https://shop.example.com/css/site.css') => ({ css, base: new URL(at) });

function bgs(html: string, sheets: Array<{ css: string; base: URL }>) {
  const $ = cheerio.load(html);
  const map = backgroundImages($, sheets, page);
  return Object.fromEntries([...map].map(([el, url]) => [$(el).attr('id') ?? '?', url]));
}

describe('background images', () => {
  it('reads url() from a shorthand with a gradient, relative to the stylesheet', () => {
    const out = bgs('<header id="h" class="hero"></header>', [
      sheet(
        '.hero { background: linear-gradient(rgba(0,0,0,.4), rgba(0,0,0,.4)), url(../img/dock.jpg) center / cover; }',
      ),
    ]);
    expect(out).toEqual({ h: 'https://shop.example.com/img/dock.jpg' });
  });

  it('applies ::before backgrounds and @media rules, and ignores :hover', () => {
    const out = bgs('<header id="a" class="m"></header><div id="b" class="card"></div>', [
      sheet(
        '.m::before { background-image: url("/a.png"); } .card:hover { background-image: url(/hover.png); }',
      ),
      sheet('@media (min-width: 768px) { #b { background-image: url(/wide.png) } }'),
    ]);
    expect(out).toEqual({ a: 'https://shop.example.com/a.png', b: 'https://shop.example.com/wide.png' });
  });

  it('cascades: a later rule clears, a style attribute wins, data: URLs and bad selectors are ignored', () => {
    const html = `<div id="x" class="one two"></div><div id="y" class="one" style="background-image: url(&quot;/inline.jpg&quot;)"></div><div id="z" class="d"></div>`;
    const out = bgs(html, [
      sheet(
        '.one { background-image: url(/one.jpg) } .two { background: #fff } .d { background: url(data:image/png;base64,AAAA) } ::-webkit-x:nth-foo(( { background: url(/bad.png) }',
      ),
    ]);
    expect(out).toEqual({ y: 'https://shop.example.com/inline.jpg' });
  });

  it('resolves a style attribute against the page', () => {
    expect(bgs(`<section id="s" style="background:url('img/p.png') no-repeat"></section>`, [])).toEqual({
      s: 'https://shop.example.com/about/img/p.png',
    });
  });
});
