export { SHARING_SCHEMA } from './schema';
export { DeskSharing, type RecordAccess, type RecordRef, SHAREABLE_CATEGORIES, type Visibility } from './sharing';
export { type ReadableAuditRow, readableAudit } from './audit';
