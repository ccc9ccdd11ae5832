/**
 * How a broker-note passage is cited wherever it is shown: the research provider's fetch results
 * and the search tool's research hits print the same `[note.pdf p.3]`, so the analyst can quote
 * one citation whichever way it found the passage.
 */
export interface PassageRef {
  /** Path inside the research folder. */
  note: string;
  /** 1-based PDF page, or null. */
  page: number | null;
  /** The markdown heading the passage sits under ('' when none). */
  section: string;
  /** 1-based passage number within the note. */
  ordinal: number;
}

/** `[note.pdf p.3]`, `[note.md § Rates outlook]`, `[note.txt part 2]`. */
export function citation(ref: PassageRef): string {
  if (ref.page !== null) return `[${ref.note} p.${ref.page}]`;
  if (ref.section) return `[${ref.note} § ${ref.section}]`;
  return `[${ref.note} part ${ref.ordinal}]`;
}
