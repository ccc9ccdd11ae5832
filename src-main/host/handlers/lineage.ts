import type { ForgeFS } from '../../fs';
import { buildLineage, lineageMarkdown, skillVersionLookup } from '../../lineage';
import type { SkillLoader } from '../../skills';
import type { PartialHandlerMap } from './types';

/** The Lineage page: one Expression traced from what is stored (src-main/lineage), and its Markdown export. */
export function lineageHandlers(deps: { fs: () => ForgeFS; skills: () => Pick<SkillLoader, 'find'> }): PartialHandlerMap {
  const build = (id: string) => buildLineage(deps.fs(), id, { skillVersion: skillVersionLookup((name) => deps.skills().find(name)?.dir ?? null) });
  return {
    'lineage/expression': async (input, ctx) => {
      await ctx.memory.ready;
      return build(input.id);
    },
    'lineage/export': async (input, ctx) => {
      await ctx.memory.ready;
      const view = build(input.id);
      return { id: view.id, fileName: `lineage-${view.id}.md`, markdown: lineageMarkdown(view, new Date().toISOString()) };
    },
  };
}
