import type { ConstraintType, InvariantGate, Invariants } from './source';

/**
 * Forge's invariant gates: numbers measured at every phase sign-off that must hold against the
 * previous phase (monotonic) or against a fixed bound. A contracts folder may override them with
 * an `invariants.json` holding `{ "gates": [...] }`.
 */

export const CONSTRAINT_TYPES: Record<ConstraintType, string> = {
  monotonic_up: 'May never decrease from one phase to the next (e.g. the number of tests).',
  monotonic_down: 'May never increase from one phase to the next (e.g. known warnings).',
  equal: 'Must equal the default exactly at every sign-off.',
  gte: 'Must be at least the default.',
  lte: 'Must be at most the default.',
};

export const DEFAULT_GATES: InvariantGate[] = [
  {
    name: 'test_count',
    constraint: 'monotonic_up',
    default: 0,
    description: 'Tests are never deleted to make a phase pass.',
    measuredBy: 'npx vitest run --reporter=json (numTotalTests)',
  },
  {
    name: 'test_failures',
    constraint: 'equal',
    default: 0,
    description: 'Every test passes at sign-off.',
    measuredBy: 'npx vitest run --reporter=json (numFailedTests)',
  },
  { name: 'typecheck_errors', constraint: 'equal', default: 0, description: 'Main and renderer type-check cleanly.', measuredBy: 'npm run typecheck' },
  {
    name: 'boundary_violations',
    constraint: 'equal',
    default: 0,
    description: 'No import breaks contracts/boundaries.json.',
    measuredBy: 'npx vitest run scripts/boundaries.test.ts',
  },
  {
    name: 'undocumented_procedures',
    constraint: 'equal',
    default: 0,
    description: 'Every API procedure appears in physics.yaml.',
    measuredBy: 'npx vitest run src-main/mcp/contracts.test.ts',
  },
  {
    name: 'schema_version',
    constraint: 'monotonic_up',
    default: 1,
    description: 'Migrations are only ever added, never edited or removed.',
    measuredBy: 'PRAGMA user_version of a fresh workspace',
  },
];

const constraintNames = Object.keys(CONSTRAINT_TYPES);

/** Validates an override file's gates; a malformed entry is reported by index and field. */
export function parseGates(raw: unknown, file: string): InvariantGate[] {
  const gates = (raw as { gates?: unknown })?.gates;
  if (!Array.isArray(gates)) throw new Error(`${file} must hold an object with a "gates" array.`);
  return gates.map((g, i) => {
    const o = g as Partial<InvariantGate>;
    if (typeof o?.name !== 'string' || !o.name) throw new Error(`${file}: gate ${i} needs a "name".`);
    if (!constraintNames.includes(String(o.constraint)))
      throw new Error(`${file}: gate "${o.name}" has constraint "${String(o.constraint)}"; use one of ${constraintNames.join(', ')}.`);
    if (typeof o.default !== 'number') throw new Error(`${file}: gate "${o.name}" needs a numeric "default".`);
    return {
      name: o.name,
      constraint: o.constraint as ConstraintType,
      default: o.default,
      description: String(o.description ?? ''),
      measuredBy: String(o.measuredBy ?? ''),
    };
  });
}

export function invariantsOf(gates: InvariantGate[], source: string): Invariants {
  return { constraint_types: CONSTRAINT_TYPES, gates, source };
}
