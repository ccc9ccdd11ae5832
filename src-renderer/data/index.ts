export { DataScreen } from './DataScreen';
export { activeFields, buildParams, formOf, parseField, parseJsonParams, parseNumber } from './schema-form';
export type { FieldKind, FormField, ParamsForm } from './schema-form';
export { checkFeeds, feedErrorsFromServer } from './feeds';
export { healthLine, keyLabel } from './model';
