import type { QuestionItem, QuestionStats } from '@hunch/contract';
import {
  Bar,
  BarChart,
  type BarShapeProps,
  LabelList,
  Rectangle,
  ReferenceLine,
  ResponsiveContainer,
  XAxis,
  YAxis,
} from 'recharts';

const BAR = '#8b80ea';
const CORRECT = '#2f9e55';
const TRUTH = '#c2185b';
const AXIS = { fontSize: 12, fill: '#62667c' };

const pct = (n: number) => `${n.toLocaleString('en-US', { maximumFractionDigits: 1 })}%`;

interface ChoiceDatum {
  name: string;
  per: number;
  ct: number;
  correct: boolean;
}

/** Choice percentages as horizontal bars; the correct (or favourite) choices in green, with a text marker. */
export function ChoiceChart({
  question,
  stats,
  filtered,
}: {
  question: QuestionItem;
  stats: QuestionStats;
  /** A group filter is on: the marked favourite is still everyone's, which the label says. */
  filtered: boolean;
}) {
  const correct = new Set(stats.correct_choices);
  const known = question.question.choices.map((c) => c.text);
  // Choices as the question lists them, then any the statistics name that the question does not.
  const names = [...known, ...Object.keys(stats.choices).filter((t) => !known.includes(t))];
  const data: ChoiceDatum[] = names.map((name) => ({
    name,
    per: stats.choices[name]?.per ?? 0,
    ct: stats.choices[name]?.ct ?? 0,
    correct: correct.has(name),
  }));
  const height = Math.max(120, data.length * 44 + 16);
  return (
    <div className="chart-block">
      <div className="chart" aria-hidden="true" style={{ height }}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} layout="vertical" margin={{ top: 4, right: 52, bottom: 4, left: 4 }}>
            <XAxis type="number" domain={[0, 100]} hide />
            <YAxis
              type="category"
              dataKey="name"
              width={112}
              tick={AXIS}
              tickLine={false}
              axisLine={false}
              interval={0}
            />
            <Bar
              dataKey="per"
              isAnimationActive={false}
              radius={[0, 6, 6, 0]}
              barSize={26}
              background={{ fill: '#f0f0f7', radius: 6 }}
              shape={(p: BarShapeProps) => (
                <Rectangle
                  x={p.x}
                  y={p.y}
                  width={p.width}
                  height={p.height}
                  radius={[0, 6, 6, 0]}
                  fill={data[p.index]?.correct ? CORRECT : BAR}
                />
              )}
            >
              <LabelList dataKey="per" position="right" formatter={(v) => pct(Number(v))} style={AXIS} />
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </div>
      <ul className="choice-legend">
        {data.map((d) => (
          <li key={d.name} className={d.correct ? 'is-correct' : undefined}>
            <span className="choice-legend-name">{d.name}</span>
            <span className="choice-legend-value">
              {pct(d.per)} <span className="note">({d.ct.toLocaleString('en-US')})</span>
            </span>
            {/* A vote has no right answer (DESIGN §2): its winner is the crowd's favourite. */}
            {d.correct && question.type !== 'vote' && <span className="correct-mark">✓ correct</span>}
            {d.correct && question.type === 'vote' && (
              <span className="correct-mark">{filtered ? '★ overall favourite' : '★ crowd favourite'}</span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function fmt(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

/** The 10-bucket histogram of numeric answers, with the truth drawn as a line and stated in text. */
export function HistogramChart({ question, stats }: { question: QuestionItem; stats: QuestionStats }) {
  const unit = question.question.slider?.unit ?? '';
  const data = stats.ranges.map((b) => ({ ...b, label: `${fmt(b.min)}–${fmt(b.max)}` }));
  const bucketOf = (x: number) => {
    const i = data.findIndex((b, k) => x < b.max || k === data.length - 1);
    return data[Math.max(0, i)]?.label;
  };
  const truths = stats.correct_numbers;
  const truthText = truths.map((t) => `${fmt(t)}${unit ? ` ${unit}` : ''}`).join(', ');
  return (
    <div className="chart-block">
      <figure className="chart histogram" style={{ height: 220 }}>
        <div aria-hidden="true" style={{ height: '100%' }}>
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={data} margin={{ top: 24, right: 8, bottom: 4, left: -18 }}>
              <XAxis
                dataKey="label"
                tick={AXIS}
                tickLine={false}
                interval="preserveStartEnd"
                minTickGap={4}
              />
              <YAxis tick={AXIS} tickLine={false} axisLine={false} unit="%" width={52} />
              <Bar dataKey="per" fill={BAR} radius={[4, 4, 0, 0]} isAnimationActive={false} />
              {truths.map((t) => (
                <ReferenceLine
                  key={t}
                  x={bucketOf(t)}
                  stroke={TRUTH}
                  strokeWidth={2}
                  strokeDasharray="4 3"
                  label={{
                    value: `✓ ${fmt(t)}`,
                    position: 'top',
                    fill: TRUTH,
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
          {data.map((b) => `${b.label}: ${pct(b.per)}`).join('; ')}
        </figcaption>
      </figure>
      <p className="truth-text">
        {truths.length === 0 ? (
          <span className="note">The answer has not been announced.</span>
        ) : (
          <>
            <span className="correct-mark">✓ correct</span> The answer: <strong>{truthText}</strong>
          </>
        )}
      </p>
    </div>
  );
}
