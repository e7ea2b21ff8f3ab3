/**
 * A line icon on the 24×24 grid: one stroked path in the text colour,
 * decorative (the control around it carries the label).
 */
export function Icon({ d, size = 16, weight = 1.8 }: {
  /** The path data. */
  d: string;
  /** Width and height in px. */
  size?: number;
  /** Stroke width. */
  weight?: number;
}) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true">
      <path
        d={d}
        fill="none"
        stroke="currentColor"
        stroke-width={weight}
        stroke-linecap="round"
        stroke-linejoin="round"
      />
    </svg>
  );
}
