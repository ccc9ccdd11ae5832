export { guardrailLimits, defaultGuardrailLimits } from './limits';
export type { GuardrailLimits } from './limits';
export { checkExpression, formatViolations } from './check';
export type { Violation, PortfolioExposure, ExpressionRisk, CheckContext } from './check';
