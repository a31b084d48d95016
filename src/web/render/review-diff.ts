// A changed Markdown field as the owner reviews it: both versions rendered by the site's own renderer
// (so the approval page shows what visitors will read, not Markdown syntax), with the words that
// differ marked <del> in the live version and <ins> in the draft. The diff runs over the rendered
// words (each with the blocks and formatting it sits in, from renderedWords), and the renderer puts
// the marks around escaped text, so no written text ever becomes markup.
import { diffArrays } from 'diff';
import { type UrlResolver, inline, markdown, renderedWords } from './markdown.js';

export type FieldFormat = 'markdown' | 'inline';

function render(
  text: string,
  format: FieldFormat,
  resolve: UrlResolver,
  tag?: 'ins' | 'del',
  changed?: Set<number>,
) {
  const marks = tag && changed ? { tag, changed, next: 0 } : undefined;
  return format === 'markdown' ? markdown(text, resolve, marks) : inline(text, resolve, marks);
}

/** Both versions as safe HTML; marks only when both exist (a new or removed field is all new or gone). */
export function renderedDiff(
  before: string | null,
  after: string | null,
  format: FieldFormat,
  resolve: UrlResolver,
): { before: string | null; after: string | null } {
  if (before === null || after === null) {
    return {
      before: before === null ? null : render(before, format, resolve),
      after: after === null ? null : render(after, format, resolve),
    };
  }
  const removed = new Set<number>();
  const added = new Set<number>();
  let i = 0;
  let j = 0;
  for (const part of diffArrays(renderedWords(before, format), renderedWords(after, format))) {
    const n = part.count ?? part.value.length;
    for (let k = 0; k < n; k++) {
      if (part.removed) removed.add(i++);
      else if (part.added) added.add(j++);
      else {
        i++;
        j++;
      }
    }
  }
  return {
    before: render(before, format, resolve, 'del', removed),
    after: render(after, format, resolve, 'ins', added),
  };
}
