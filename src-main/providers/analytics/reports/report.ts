/** What each calculation hands the provider: a header label, ~100 tokens of summary, and the full markdown body. */
export interface Report {
  label: string;
  summary: string;
  body: string;
}
