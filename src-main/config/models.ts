import { InvalidInputError } from '../common/errors';
import { defaultModelRouting, modelRoles, type ModelRole, type ModelRouting } from '../api/models';

export { modelRoles, defaultModelRouting, modelRoutingSchema, MODEL_TIERS } from '../api/models';
export type { ModelRole, ModelRouting } from '../api/models';

export function isModelRole(role: string): role is ModelRole {
  return (modelRoles as readonly string[]).includes(role);
}

/** A router for the Model interface; an unknown role is a bug in the caller, not a silent default. */
export function routerFor(routing: Partial<ModelRouting> | (() => Partial<ModelRouting>)): (role: string) => string {
  return (role) => {
    if (!isModelRole(role)) {
      throw new InvalidInputError(`Unknown model role "${role}". Known roles: ${modelRoles.join(', ')}.`);
    }
    const current = typeof routing === 'function' ? routing() : routing;
    return current[role] || defaultModelRouting[role];
  };
}
