/**
 * How a guardrail figure is printed, in one place, so a message never says 31.893688%.
 * One decimal for percentages of NAV; more only where one decimal would hide the breach
 * ("2.0% exceeds the 2% limit" reads as a contradiction when the figure is 2.04).
 */
export function shownFigure(x: number, limit?: number, decimals = 1): string {
  for (let d = decimals; d <= 6; d++) {
    const f = 10 ** d;
    const r = Math.round(x * f) / f;
    // Stop at the first precision that keeps a breach visibly different from its limit.
    if (limit === undefined || x === limit || Math.abs(r) !== Math.abs(limit)) return String(r);
  }
  return String(x);
}
