import type { ProcedureName, ProcedureOutput, Procedures } from '../../api/procedures';
import type { z } from 'zod';
import type { CoreContext } from '../context';

/** A handler receives input already validated by the procedure's zod schema. */
export type Handler<N extends ProcedureName> = (input: z.output<Procedures[N]['input']>, ctx: CoreContext) => ProcedureOutput<N> | Promise<ProcedureOutput<N>>;

export type HandlerMap = { [N in ProcedureName]: Handler<N> };
export type PartialHandlerMap = { [N in ProcedureName]?: Handler<N> };
