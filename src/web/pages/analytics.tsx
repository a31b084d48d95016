// The console's analytics page: totals, visits and page views per day as an SVG chart drawn on the
// server (no script; a table with the same numbers follows for screen readers and phones), top pages,
// where visitors came from, and the share of visits made through a visitor's AI assistant. Visitor
// paths and referring hosts are the visitor's to choose: shown as escaped text only.
import type { ownerAnalytics } from '../../domain/analytics/summary.js';
import { type ConsoleBase, ConsoleFrame } from './console.js';
import { DataTable } from './table.js';

export const ANALYTICS_DAYS = 30;

type Summary = Awaited<ReturnType<typeof ownerAnalytics>>;

const CSS =
  '.stats{display:flex;flex-wrap:wrap;gap:1rem}.stats div{min-width:8rem}.stats b{display:block;font-size:1.5rem}' +
  'svg.chart{width:100%;height:auto;max-width:48rem}svg.chart .views{fill:#9cc3e6}svg.chart .visits{fill:none;stroke:#1d4f91;stroke-width:2}' +
  'svg.chart text{font-size:10px;fill:currentColor}.legend span{margin-right:1rem}';

const W = 600;
const H = 180;
const PAD = 20;

/** Bars for page views, a line for visits, one bar a day; the scale is the larger of the two. */
function Chart(p: { series: Summary['series'] }) {
  const max = Math.max(1, ...p.series.map((d) => Math.max(d.views, d.visits)));
  const step = (W - PAD) / p.series.length;
  const y = (n: number) => H - PAD - (n / max) * (H - 2 * PAD);
  const points = p.series.map(
    (d, i) => `${(PAD + i * step + step / 2).toFixed(1)},${y(d.visits).toFixed(1)}`,
  );
  return (
    <svg
      class="chart"
      id="daily-chart"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={`Page views (bars) and visits (line) for each of the last ${p.series.length} days; the numbers are in the table below.`}
    >
      <text x="0" y="12">
        {max}
      </text>
      <text x="0" y={H - PAD}>
        0
      </text>
      {p.series.map((d, i) => (
        <rect
          class="views"
          data-day={d.day}
          x={(PAD + i * step + 1).toFixed(1)}
          y={y(d.views).toFixed(1)}
          width={Math.max(1, step - 2).toFixed(1)}
          height={(H - PAD - y(d.views)).toFixed(1)}
        >
          <title>
            {d.day}: {d.views} page views, {d.visits} visits
          </title>
        </rect>
      ))}
      <polyline class="visits" points={points.join(' ')} />
      <text x={PAD} y={H - 4}>
        {p.series[0]?.day}
      </text>
      <text x={W} y={H - 4} text-anchor="end">
        {p.series.at(-1)?.day}
      </text>
    </svg>
  );
}

/** A share to one decimal ('—' without any visit), so a few assistant visits among many still show. */
const percent = (part: number, all: number) => (all ? `${Math.round((part / all) * 1000) / 10}%` : '—');

export function AnalyticsPage(p: ConsoleBase & { summary: Summary }) {
  const s = p.summary;
  return (
    <ConsoleFrame
      {...p}
      title={`Analytics · ${p.siteName}`}
      heading={`Analytics of ${p.siteName}`}
      current="analytics"
      css={CSS}
    >
      <div class="card" id="totals">
        <h2 style="margin-top:0">The last {s.days} days</h2>
        <div class="stats">
          <div>
            <b data-total="visits">{s.uniqueVisitors}</b> visits
          </div>
          <div>
            <b data-total="pageViews">{s.pageViews}</b> page views
          </div>
          <div>
            <b data-total="formSubmissions">{s.formSubmissions}</b> contact-form messages
          </div>
          <div>
            <b data-total="bookings">{s.bookings}</b> booking requests
          </div>
          <div>
            <b data-total="assistantShare">{percent(s.visits.viaAssistant, s.visits.all)}</b> of visits
            through a visitor's AI assistant ({s.assistantCalls} assistant requests)
          </div>
        </div>
        <p class="muted">
          Counted on the server without cookies: a network address counts as one visit a day, so people
          sharing one count once. Bots, previews and your own visits are not counted. Days are UTC days.
        </p>
      </div>
      <div class="card" id="daily">
        <h2 style="margin-top:0">Per day</h2>
        <p class="legend muted">
          <span>Bars: page views</span>
          <span>Line: visits</span>
        </p>
        <Chart series={s.series} />
        <details>
          <summary>The numbers</summary>
          <DataTable
            rows={[...s.series].reverse()}
            columns={[
              { label: 'Day', cell: (d) => d.day },
              { label: 'Visits', cell: (d) => String(d.visits) },
              { label: 'Page views', cell: (d) => String(d.views) },
            ]}
          />
        </details>
      </div>
      <div class="card" id="top-pages">
        <h2 style="margin-top:0">Top pages</h2>
        <DataTable
          rows={s.topPages}
          empty="No page view yet."
          columns={[
            { label: 'Page', cell: (t) => t.path.text },
            { label: 'Page views', cell: (t) => String(t.views) },
          ]}
        />
      </div>
      <div class="card" id="referrers">
        <h2 style="margin-top:0">Where visitors came from</h2>
        <DataTable
          rows={s.referrers}
          empty="No visit came from a link on another site yet (or the browser did not say)."
          columns={[
            { label: 'Site', cell: (r) => r.host.text },
            { label: 'Visits', cell: (r) => String(r.visits) },
          ]}
        />
      </div>
    </ConsoleFrame>
  );
}
