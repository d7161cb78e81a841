// Line icons for buttons, drawn like NavIcon's (24×24, currentColor
// strokes) so they follow the theme and need no emoji font. Decorative: the
// button they sit in carries the label.
const PATHS = {
  copy: 'M9 9h10v11H9zM5 15V4h10',
  check: 'M5 12.5l4.5 4.5L19 7.5',
  edit: 'M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4',
  retry: 'M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7',
  stop: 'M7 7h10v10H7z',
} as const;

export type LineIconName = keyof typeof PATHS;

export function LineIcon({ name, size = 16 }: { name: LineIconName; size?: number }) {
  return (
    <svg className="line-icon" viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
