import { fail, showSum } from '../numeric/validate';

/**
 * A scenario tree: branches with conditional probabilities, leaves with values (a P&L, a yield, a
 * price). Sibling probabilities must be non-negative and sum to 1 within 1e-9; a leaf's
 * probability is the product along its path. From the leaves: expectation, variance and
 * probability-weighted percentiles (the smallest value whose cumulative probability reaches p).
 */

export interface ScenarioNode {
  name: string;
  /** Conditional on the parent branch. */
  probability: number;
  /** Leaves carry a value... */
  value?: number;
  /** ...branches carry children. */
  children?: ScenarioNode[];
}

export interface ScenarioLeaf {
  path: string;
  probability: number;
  value: number;
}

export interface ScenarioStats {
  leaves: ScenarioLeaf[];
  expected: number;
  variance: number;
  stdev: number;
  /** Probability of a value below zero. */
  probabilityNegative: number;
  percentiles: { p: number; value: number }[];
  worst: ScenarioLeaf;
  best: ScenarioLeaf;
}

const TOLERANCE = 1e-9;
const MAX_DEPTH = 8;
const MAX_LEAVES = 10_000;

/** Flattens and validates a tree given as untrusted JSON. */
export function scenarioLeaves(scenarios: unknown): ScenarioLeaf[] {
  const leaves: ScenarioLeaf[] = [];
  const walk = (nodes: unknown, parentPath: string, parentP: number, depth: number) => {
    const where = parentPath ? `the branches under "${parentPath}"` : 'the top-level scenarios';
    if (!Array.isArray(nodes) || nodes.length === 0) fail(`${where} must be a non-empty list.`);
    if (depth > MAX_DEPTH) fail(`the tree is deeper than ${MAX_DEPTH} levels at "${parentPath}".`);
    let sum = 0;
    for (const [i, raw] of nodes.entries()) {
      const node = raw as Partial<ScenarioNode> | null;
      if (typeof node !== 'object' || node === null) fail(`${where}: item ${i} is not an object.`);
      const name = typeof node.name === 'string' && node.name.trim() ? node.name.trim() : `#${i + 1}`;
      const path = parentPath ? `${parentPath} > ${name}` : name;
      const p = node.probability;
      if (typeof p !== 'number' || !Number.isFinite(p)) fail(`"${path}" needs a probability (a number between 0 and 1).`);
      if (p < 0 || p > 1) fail(`"${path}" has probability ${p}; probabilities lie between 0 and 1.`);
      sum += p;
      const hasChildren = node.children !== undefined;
      if (hasChildren === (node.value !== undefined))
        fail(`"${path}" must have either a value (a leaf) or children (a branch), not ${hasChildren ? 'both' : 'neither'}.`);
      if (hasChildren) walk(node.children, path, parentP * p, depth + 1);
      else {
        if (typeof node.value !== 'number' || !Number.isFinite(node.value)) fail(`"${path}" has a value that is not a finite number.`);
        leaves.push({ path, probability: parentP * p, value: node.value });
        if (leaves.length > MAX_LEAVES) fail(`the tree has more than ${MAX_LEAVES} leaves.`);
      }
    }
    if (Math.abs(sum - 1) > TOLERANCE) fail(`${where} have probabilities that sum to ${showSum(sum)}; they must sum to 1.`);
  };
  walk(scenarios, '', 1, 1);
  return leaves;
}

export function scenarioStats(scenarios: unknown, percentiles: readonly number[] = [5, 25, 50, 75, 95]): ScenarioStats {
  for (const p of percentiles) if (typeof p !== 'number' || !(p > 0 && p < 100)) fail(`percentiles must lie strictly between 0 and 100 (got ${p}).`);
  const leaves = scenarioLeaves(scenarios);
  let expected = 0;
  for (const l of leaves) expected += l.probability * l.value;
  let variance = 0;
  for (const l of leaves) variance += l.probability * (l.value - expected) ** 2;
  const sorted = [...leaves].sort((a, b) => a.value - b.value);
  const quantile = (q: number): number => {
    let cum = 0;
    for (const l of sorted) {
      cum += l.probability;
      // The tolerance keeps 0.1 + 0.2 + ... from missing a cumulative probability it reaches exactly.
      if (cum >= q - 1e-12) return l.value;
    }
    return sorted[sorted.length - 1]!.value;
  };
  const withMass = sorted.filter((l) => l.probability > 0);
  return {
    leaves,
    expected,
    variance,
    stdev: Math.sqrt(variance),
    probabilityNegative: leaves.reduce((s, l) => s + (l.value < 0 ? l.probability : 0), 0),
    percentiles: percentiles.map((p) => ({ p, value: quantile(p / 100) })),
    worst: withMass[0] ?? sorted[0]!,
    best: withMass[withMass.length - 1] ?? sorted[sorted.length - 1]!,
  };
}
