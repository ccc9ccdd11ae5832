export { actingAs } from './acting-as';
export { type ActingPerson, actingPerson, asPerson, outsideAnyCall } from './acting-person';
export { SIGN_IN_REFUSED, TOKEN_REFUSED, UnauthorizedError } from './errors';
export { checkPasswordPolicy, DEFAULT_SCRYPT, hashPassword, MIN_PASSWORD_LENGTH, needsRehash, type ScryptParams, verifyPassword } from './password';
export { DeskPeople } from './people';
export type { NewUser, TokenInfo } from './rows';
export { type Acting, DESK_ACTIONS, DESK_ROLES, type DeskAction, type DeskRole, type DeskUser, may, requirePermission } from './permissions';
export { PEOPLE_SCHEMA } from './schema';
