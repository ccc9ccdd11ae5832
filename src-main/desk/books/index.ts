export { DeskBooks } from './books';
export type { HaltResult } from './books';
export { approveOnDesk, DESK_BOOKS_LOCK } from './approve';
export type { DeskApproval } from './approve';
export type { BookLimits, DeskBookView, HaltInfo } from './book';
export { requireRole } from './roles';
export type { DeskRole } from './roles';
export { BOOKS_SCHEMA } from './schema';
