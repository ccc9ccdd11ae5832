export { ViewPage } from './ViewPage';
export { ExpressionPage } from './ExpressionPage';
export { recordPageOf } from './route';
