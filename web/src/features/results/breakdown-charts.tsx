import type { QuestionItem, QuestionStats } from '@hunch/contract';
import { Bar, BarChart, ReferenceLine, ResponsiveContainer, XAxis, YAxis } from 'recharts';
import { bucketIndex, chartNumber, raiseYourLabel, rangeLabels } from './histogram-labels';
import { formatPercent } from './number-format';

// Colours chosen for at least 4.5:1 on the card's white (axe colour-contrast).
const BAR = '#7f73e6';
const TRUTH = '#a3154b';
const YOURS = '#4536b8';
const AXIS = { fontSize: 12, fill: '#585c70' };

/**
 * The 10-bucket histogram of numeric answers, the truth and the viewer's own answer drawn as
 * lines. The picture is hidden from screen readers, which read the figure's caption: the same
 * shares in words. recharts' keyboard layer is off: nothing inside a hidden picture may take focus
 * (axe aria-hidden-focus), and the caption already says what the bars show.
 */
export function HistogramChart({
  question,
  stats,
  yours,
}: {
  question: QuestionItem;
  stats: QuestionStats;
  /** The viewer's number, if they answered. */
  yours: number | null;
}) {
  const unit = question.question.slider?.unit ?? '';
  const labels = rangeLabels(stats.ranges, question.question.slider);
  const data = stats.ranges.map((b, k) => ({ ...b, label: labels[k]! }));
  const bucketOf = (x: number) => data[bucketIndex(stats.ranges, x)]?.label;
  const lines = [
    ...stats.correct_numbers.map((t) => ({
      key: `truth-${t}`,
      x: bucketOf(t),
      text: `✓ ${chartNumber(t)}`,
      color: TRUTH,
    })),
    ...(yours === null ? [] : [{ key: 'yours', x: bucketOf(yours), text: 'You', color: YOURS }]),
  ];
  // Every label above the bars, on the card's white (inside the plot, 'You' sat on a bar in a colour
  // close to it); 'You' a line higher when the truth's label is near.
  const stacked = raiseYourLabel(stats.ranges, stats.correct_numbers, yours);
  return (
    <figure className="chart histogram" style={{ height: 220 }}>
      <div aria-hidden="true" style={{ height: '100%' }}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart
            data={data}
            margin={{ top: stacked ? 40 : 24, right: 8, bottom: 4, left: -18 }}
            accessibilityLayer={false}
          >
            <XAxis
              dataKey="label"
              tick={AXIS}
              tickLine={false}
              interval="equidistantPreserveStart"
              minTickGap={4}
            />
            <YAxis tick={AXIS} tickLine={false} axisLine={false} unit="%" width={52} />
            <Bar dataKey="per" fill={BAR} radius={[4, 4, 0, 0]} isAnimationActive={false} />
            {lines.map((l) => (
              <ReferenceLine
                key={l.key}
                x={l.x}
                stroke={l.color}
                strokeWidth={2}
                strokeDasharray={l.key === 'yours' ? undefined : '4 3'}
                label={{
                  value: l.text,
                  position: 'top',
                  offset: l.key === 'yours' && stacked ? 21 : 5,
                  fill: l.color,
                  fontSize: 12,
                  fontWeight: 700,
                }}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="visually-hidden">
        {`Share of answers per range${unit ? ` (${unit})` : ''}: `}
        {data.map((b) => `${b.label}: ${formatPercent(b.per)}`).join('; ')}
      </figcaption>
    </figure>
  );
}
