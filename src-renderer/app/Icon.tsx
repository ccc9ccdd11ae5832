import type { Screen } from './routes';

/** Stroke icons drawn for Forge (24×24 grid), so no icon font or external asset is needed. */
const paths: Record<Screen | 'search' | 'history' | 'close', string> = {
  home: 'M3 11l9-7 9 7 M5 9.5V20h5v-6h4v6h5V9.5',
  chat: 'M4 5h16v11H9l-5 4z',
  views: 'M3 12s3.5-6 9-6 9 6 9 6-3.5 6-9 6-9-6-9-6z M12 9.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5z',
  expressions: 'M4 17l5-5 4 4 7-8 M15 8h5v5',
  tasks: 'M9 6h11 M9 12h11 M9 18h11 M4 6l1 1 2-2 M4 12l1 1 2-2 M4 18l1 1 2-2',
  proposals: 'M6 3v12 M6 15a3 3 0 1 0 0 6 3 3 0 0 0 0-6z M18 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6z M18 9c0 5-6 4-12 9',
  calibration: 'M4 20L20 4 M4 20V4h16v16z M8 15.5a1 1 0 1 0 0 .01 M11 10.5a1 1 0 1 0 0 .01 M16 9a1 1 0 1 0 0 .01',
  schedule: 'M12 4a8 8 0 1 0 0 16 8 8 0 0 0 0-16z M12 8v4l3 2',
  builds: 'M3 20h18 M5 20V10l4-3v13 M11 20V6l4-3v17 M17 20v-8l3-2v10',
  contracts: 'M7 3h8l4 4v14H7z M15 3v4h4 M10 12h6 M10 16h6',
  skills: 'M12 3l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.4 6.8 19.1l1-5.8L3.5 9.2l5.9-.9z',
  portfolio: 'M4 20V10 M10 20V4 M16 20v-7 M22 20H2',
  data: 'M4 6c0-1.7 3.6-3 8-3s8 1.3 8 3-3.6 3-8 3-8-1.3-8-3z M4 6v12c0 1.7 3.6 3 8 3s8-1.3 8-3V6 M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3',
  desk: 'M3 20h18 M5 20v-6h14v6 M8 11a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z M16 11a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z',
  mcp: 'M9 7V3 M15 7V3 M6 7h12v4a6 6 0 0 1-12 0z M12 17v4',
  settings:
    'M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6z M19.4 13.5l1.6 1.2-2 3.4-1.9-.7a7 7 0 0 1-2.2 1.3L14.5 21h-5l-.4-2.3a7 7 0 0 1-2.2-1.3l-1.9.7-2-3.4 1.6-1.2a7 7 0 0 1 0-3l-1.6-1.2 2-3.4 1.9.7a7 7 0 0 1 2.2-1.3L9.5 3h5l.4 2.3a7 7 0 0 1 2.2 1.3l1.9-.7 2 3.4-1.6 1.2a7 7 0 0 1 0 3z',
  search: 'M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14z M20 20l-4-4',
  history: 'M4 12a8 8 0 1 0 2.3-5.6 M4 4v4h4 M12 8v4l3 2',
  close: 'M6 6l12 12 M18 6L6 18',
};

export function Icon(props: { name: keyof typeof paths; size?: number }) {
  const size = props.size ?? 18;
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.7}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={paths[props.name]} />
    </svg>
  );
}
