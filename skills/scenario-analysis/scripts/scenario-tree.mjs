#!/usr/bin/env node
// Expected value and dispersion of a scenario tree. JSON in on stdin, JSON out on stdout.
//
// Input:
//   {"scenarios": [
//      {"name": "soft landing", "probability": 0.5, "value": 2.0},
//      {"name": "recession", "probability": 0.3, "children": [
//          {"name": "Fed cuts early", "probability": 0.6, "value": 4.0},
//          {"name": "Fed behind the curve", "probability": 0.4, "value": 1.0}]},
//      {"name": "reacceleration", "probability": 0.2, "value": -3.0}],
//    "market_value": 0.5}     // optional: what the market prices, to state the edge
// Children's probabilities are conditional on their parent. Every set of siblings must sum to 1 (± 1e-9).
// "value" is whatever the PM measures in that state: P&L in bp of NAV, a yield, an FX level.
import { pathToFileURL } from 'node:url';

export class InputError extends Error {}

const TOLERANCE = 1e-9;
const MAX_LEAVES = 10000;

function walk(nodes, where, parentProb, parentPath, leaves) {
  if (!Array.isArray(nodes) || nodes.length === 0) throw new InputError(`${where} must be a non-empty list of scenarios`);
  let sum = 0;
  nodes.forEach((n, i) => {
    const label = typeof n?.name === 'string' && n.name.trim() ? n.name.trim() : `#${i + 1}`;
    const p = n?.probability;
    if (typeof p !== 'number' || !Number.isFinite(p) || p < 0 || p > 1) {
      throw new InputError(`scenario "${[...parentPath, label].join(' > ')}" needs a probability between 0 and 1`);
    }
    sum += p;
    const path = [...parentPath, label];
    if (Array.isArray(n.children) && n.children.length > 0) {
      walk(n.children, `the branches under "${path.join(' > ')}"`, parentProb * p, path, leaves);
    } else {
      if (typeof n.value !== 'number' || !Number.isFinite(n.value)) {
        throw new InputError(`scenario "${path.join(' > ')}" is a leaf and needs a numeric "value"`);
      }
      if (leaves.length >= MAX_LEAVES) throw new InputError(`the tree has more than ${MAX_LEAVES} leaves`);
      leaves.push({ path: path.join(' > '), probability: parentProb * p, value: n.value });
    }
  });
  if (Math.abs(sum - 1) > TOLERANCE) {
    throw new InputError(`the probabilities of ${where} sum to ${+sum.toPrecision(12)}; they must sum to 1`);
  }
}

export function scenarioTree(input) {
  if (typeof input !== 'object' || input === null) throw new InputError('input must be an object');
  const leaves = [];
  walk(input.scenarios, 'the top-level scenarios', 1, [], leaves);

  const ev = leaves.reduce((s, l) => s + l.probability * l.value, 0);
  const variance = leaves.reduce((s, l) => s + l.probability * (l.value - ev) ** 2, 0);
  const stdev = Math.sqrt(variance);
  const third = leaves.reduce((s, l) => s + l.probability * (l.value - ev) ** 3, 0);
  const byValue = [...leaves].sort((a, b) => a.value - b.value);
  const expectedGain = leaves.reduce((s, l) => s + (l.value > 0 ? l.probability * l.value : 0), 0);
  const expectedLoss = leaves.reduce((s, l) => s + (l.value < 0 ? l.probability * l.value : 0), 0);
  const out = {
    expected_value: ev,
    variance,
    stdev,
    skew: stdev > 0 ? third / stdev ** 3 : null,
    probability_positive: leaves.reduce((s, l) => s + (l.value > 0 ? l.probability : 0), 0),
    probability_negative: leaves.reduce((s, l) => s + (l.value < 0 ? l.probability : 0), 0),
    expected_gain: expectedGain,
    expected_loss: expectedLoss,
    gain_to_loss: expectedLoss < 0 ? expectedGain / -expectedLoss : null,
    worst: byValue[0],
    best: byValue[byValue.length - 1],
    leaves: leaves.map((l) => ({ ...l, contribution: l.probability * l.value })),
  };
  if (input.market_value !== undefined) {
    if (typeof input.market_value !== 'number' || !Number.isFinite(input.market_value)) throw new InputError('"market_value" must be a number');
    out.market_value = input.market_value;
    out.edge_vs_market = ev - input.market_value;
    out.edge_in_stdevs = stdev > 0 ? (ev - input.market_value) / stdev : null;
  }
  return out;
}

async function main() {
  let raw = '';
  for await (const chunk of process.stdin) raw += chunk;
  try {
    let input;
    try {
      input = JSON.parse(raw || 'null');
    } catch {
      throw new InputError('the input is not valid JSON');
    }
    process.stdout.write(JSON.stringify(scenarioTree(input)) + '\n');
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    process.stdout.write(JSON.stringify({ error: e.message }) + '\n');
    process.exitCode = 2;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
