// A promise the test resolves by hand: the task awaiting `done` runs until `release()` is called.
// (Promise.withResolvers does the same from Node 22; the suite also runs on Node 20.)
export function gate(): { done: Promise<void>; release: () => void } {
  let release!: () => void;
  const done = new Promise<void>((r) => {
    release = r;
  });
  return { done, release };
}
