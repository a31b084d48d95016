// PortableSiteV1 page slugs are the addresses the app makes: a blog post lives under
// "blog/", as create_blog_post makes it, so an exported site with posts imports again and a migrated
// post keeps the address its blog index links to. Anything else about a slug is still refused.
import { describe, expect, it } from 'vitest';
import { parsePortable } from '../../src/portable/prepare.js';

const site = (slug: string) => ({
  version: 1,
  name: 'Harbor',
  businessName: 'Harbor',
  pages: [
    { slug: 'home', title: 'Home', sections: [] },
    { slug, title: 'Post', kind: 'post', sections: [] },
  ],
});

describe('page slugs', () => {
  it('accepts a post under blog/', () => {
    expect(parsePortable(site('blog/new-sourdough')).pages[1]!.slug).toBe('blog/new-sourdough');
  });

  it('refuses empty segments, leading or trailing slashes, capitals and dots', () => {
    for (const bad of ['blog//x', '/blog/x', 'blog/x/', 'Blog/x', 'blog/../x', 'blog/x.html']) {
      expect(() => parsePortable(site(bad)), bad).toThrow(/slug/i);
    }
  });
});
