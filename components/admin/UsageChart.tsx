/** A small bar chart of tokens per day, as inline SVG: no script, no island. */
export function UsageChart(
  { bars, label }: { bars: { day: string; tokens: number }[]; label: string },
) {
  const width = 600;
  const height = 140;
  const top = Math.max(1, ...bars.map((b) => b.tokens));
  const slot = width / Math.max(1, bars.length);
  const barWidth = Math.max(2, Math.min(40, slot * 0.7));
  return (
    <figure class="admin-chart">
      <svg
        viewBox={`0 0 ${width} ${height + 20}`}
        role="img"
        aria-label={label}
        xmlns="http://www.w3.org/2000/svg"
      >
        <line x1="0" y1={height} x2={width} y2={height} class="admin-chart-axis" />
        {bars.map((b, i) => {
          const h = Math.round((b.tokens / top) * (height - 10));
          const x = i * slot + (slot - barWidth) / 2;
          return (
            <g key={b.day}>
              <rect x={x} y={height - h} width={barWidth} height={h} class="admin-chart-bar">
                <title>{`${b.day}: ${b.tokens}`}</title>
              </rect>
              {(bars.length <= 10 || i % Math.ceil(bars.length / 10) === 0) && (
                <text x={x + barWidth / 2} y={height + 14} text-anchor="middle">
                  {b.day.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption>{label}</figcaption>
    </figure>
  );
}
