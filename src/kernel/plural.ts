// A count with its noun in the right number, for text a person reads: "1 page", "2 pages".
// `many` is the plural where adding "s" is wrong ("address" → "addresses").
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
