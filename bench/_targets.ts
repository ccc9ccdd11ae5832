/**
 * Every benchmark figure that has a target, as the issues state it. `npm run bench -- all` checks the
 * last-line JSON of each bench against this table; a figure a bench does not print shows as missing.
 */
export interface Target {
  bench: string;
  figure: string;
  op: '<=' | '<' | '>=' | '==';
  value: number;
}

export const targets: Target[] = [
  { bench: 'memory', figure: 'list_p50_ms', op: '<=', value: 5 },
  { bench: 'memory', figure: 'ratio', op: '>=', value: 20 },
  { bench: 'memory', figure: 'writes_per_s', op: '>=', value: 2000 },
  // Issue #31 §2: a single indexed memory write, and an import through the write path (embedding excluded).
  { bench: 'memory', figure: 'write_p50_ms', op: '<=', value: 3 },
  { bench: 'memory', figure: 'import_notes_per_s', op: '>=', value: 3000 },
  // Issue #31 §1: exact keyword ranking with no C; hybrid p50 ≤ 8 ms and keyword p50 ≤ 3 ms at 100,000 notes on both corpora.
  { bench: 'search', figure: 'p50_ms', op: '<=', value: 8 },
  { bench: 'search', figure: 'pm_p50_ms', op: '<=', value: 8 },
  { bench: 'search', figure: 'keyword_top10_vs_exact', op: '>=', value: 1 },
  { bench: 'search', figure: 'keyword_max_score_diff', op: '<=', value: 1e-9 },
  { bench: 'search', figure: 'p95_ms', op: '<=', value: 40 },
  { bench: 'search', figure: 'ratio', op: '>=', value: 4 },
  { bench: 'search', figure: 'recall_at_10', op: '>=', value: 0.95 },
  { bench: 'search', figure: 'cold_first_query_ms', op: '<=', value: 300 },
  { bench: 'search', figure: 'bytes_per_note', op: '<=', value: 1200 },
  { bench: 'search', figure: 'recall_at_10_unscoped', op: '>=', value: 0.95 },
  { bench: 'search', figure: 'recall_at_10_scoped', op: '>=', value: 0.95 },
  { bench: 'search', figure: 'keyword_p50_ms_unscoped', op: '<=', value: 3 },
  { bench: 'search', figure: 'build_notes_per_s', op: '>=', value: 3000 },
  { bench: 'search-quality', figure: 'ratio', op: '>=', value: 1 },
  { bench: 'agent', figure: 'fixed_context_tokens', op: '<=', value: 3000 },
  { bench: 'agent', figure: 'cache_read_share', op: '>=', value: 0.9 },
  { bench: 'agent', figure: 'round_overhead_p50_ms', op: '<=', value: 5 },
  { bench: 'executor', figure: 'speedup', op: '>=', value: 6 },
  { bench: 'executor', figure: 'diamond_ratio', op: '<=', value: 1.1 },
  { bench: 'executor', figure: 'overhead_p50_ms', op: '<=', value: 2 },
  { bench: 'executor', figure: 'cancel_ms', op: '<=', value: 200 },
  { bench: 'mcp', figure: 'ratio', op: '<=', value: 1.3 },
  { bench: 'mcp', figure: 'http_p50_ms', op: '<=', value: 3 },
  { bench: 'mcp', figure: 'concurrent_errors', op: '==', value: 0 },
  { bench: 'mcp', figure: 'cold_start_ms', op: '<=', value: 500 },
  { bench: 'analytics', figure: 'iv_solves_per_s', op: '>=', value: 1_000_000 },
  { bench: 'analytics', figure: 'ratio', op: '>=', value: 8 },
  { bench: 'analytics', figure: 'iv_failures', op: '==', value: 0 },
  { bench: 'analytics', figure: 'curve_p50_ms', op: '<=', value: 5 },
  { bench: 'builder', figure: 'mcp_fixed_tokens', op: '<=', value: 3000 },
  { bench: 'builder', figure: 'window_tokens', op: '<=', value: 2000 },
  { bench: 'builder', figure: 'large_dump_tokens', op: '>=', value: 25_000 },
  { bench: 'builder', figure: 'ratio', op: '>=', value: 5 },
  { bench: 'calibration', figure: 'p50_ms', op: '<=', value: 200 },
  { bench: 'ui', figure: 'cold_start_ms', op: '<=', value: 1500 },
  { bench: 'ui', figure: 'list_dom_nodes', op: '<', value: 300 },
  { bench: 'ui', figure: 'frame_p95_ms', op: '<', value: 50 },
  { bench: 'ui', figure: 'initial_js_bytes', op: '<=', value: 1_500_000 },
  { bench: 'soak', figure: 'errors', op: '==', value: 0 },
  { bench: 'soak', figure: 'heap_growth', op: '<', value: 0.1 },
];

export function meets(value: number, op: Target['op'], target: number): boolean {
  if (!Number.isFinite(value)) return false;
  if (op === '<=') return value <= target;
  if (op === '<') return value < target;
  if (op === '>=') return value >= target;
  return value === target;
}
