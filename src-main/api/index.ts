export { ok, fail, errorCodes } from './envelope';
export type { Envelope, ErrorCode, ApiErrorBody } from './envelope';
export {
  procedures,
  procedureNames,
  isProcedureName,
  settings,
  settingsPatch,
  settingsView,
  appInfo,
  appHealth,
  secretName,
  themeSetting,
} from './procedures';
export type { Procedures, ProcedureName, ProcedureInput, ProcedureOutput, Settings } from './procedures';
export { events, eventNames, isEventName } from './events';
export type { Events, EventName, EventPayload, EventMessage } from './events';
export { modelRoles, defaultModelRouting, modelRoutingSchema } from './models';
export type { ModelRole, ModelRouting } from './models';
