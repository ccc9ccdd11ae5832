export { DeskBooks } from './books';
export type { HaltResult } from './books';
export { approveOnDesk, DESK_BOOKS_LOCK } from './approve';
export type { DeskApproval } from './approve';
export type { BookLimits, DeskBookView, HaltInfo } from './book';
export { requireDeskPermission } from './roles';
export { BOOKS_SCHEMA } from './schema';
