/** The memory categories, their id prefixes, and how their listings describe a record (seed §9). */
export interface CategoryInfo {
  readonly name: string;
  /** Id prefix (`V` for V-001); null for calibration, whose files are named (macro_regime.md). */
  readonly prefix: string | null;
  /** What the PM calls one record of this category. */
  readonly noun: string;
  /** Writing an existing record archives its previous version first. */
  readonly versioned: boolean;
}

export const CATEGORIES: readonly CategoryInfo[] = [
  { name: 'views', prefix: 'V', noun: 'View', versioned: true },
  { name: 'expressions', prefix: 'E', noun: 'Expression', versioned: true },
  { name: 'observations', prefix: 'O', noun: 'Observation', versioned: false },
  { name: 'linkages', prefix: 'L', noun: 'Linkage', versioned: false },
  { name: 'pk', prefix: 'PK', noun: 'Process Knowledge entry', versioned: false },
  { name: 'outcomes', prefix: 'OUT', noun: 'Outcome', versioned: false },
  { name: 'counterfactuals', prefix: 'CF', noun: 'Counterfactual', versioned: false },
  { name: 'calibration', prefix: null, noun: 'calibration file', versioned: false },
  { name: 'proposals', prefix: 'SEP', noun: 'skill-edit proposal', versioned: false },
];

const BY_NAME = new Map(CATEGORIES.map((c) => [c.name, c]));

export function categoryInfo(name: string): CategoryInfo | undefined {
  return BY_NAME.get(name);
}

export function formatId(prefix: string, n: number): string {
  return `${prefix}-${String(n).padStart(3, '0')}`;
}

const show = (v: unknown) => (v === undefined || v === null ? '' : Array.isArray(v) ? `[${v.join(', ')}]` : String(v));

/** The one-line description a listing shows next to each file, exactly as in the seed. */
export function listingMeta(category: string, header: Record<string, unknown>): string {
  switch (category) {
    case 'views':
      return `${show(header.scope)} | conf:${show(header.confidence)} | ${show(header.status)}`;
    case 'pk':
      return `w:${show(header.weight)} | ${show(header.category)}`;
    case 'expressions':
      return `view:${show(header.view_id ?? header.view)} | ${show(header.status)}`;
    case 'counterfactuals':
      return `${show(header.decision_type)} | ${show(header.status)}`;
    default:
      return '';
  }
}
