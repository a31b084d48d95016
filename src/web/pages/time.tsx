// Times as people read them (R-WEB-5): in the workspace's time zone, never raw ISO.
const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    formats.set(timeZone, f);
  }
  return f;
}

/** "23 Nov 2026, 08:12 CET". */
export function formatTime(at: Date | string, timeZone: string): string {
  return formatOf(timeZone).format(typeof at === 'string' ? new Date(at) : at);
}

export function Time(props: { at: Date | string; tz: string }) {
  const d = typeof props.at === 'string' ? new Date(props.at) : props.at;
  return <time datetime={d.toISOString()}>{formatTime(d, props.tz)}</time>;
}
