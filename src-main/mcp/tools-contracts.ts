import { z } from 'zod';
import { READ } from './define';
import { packageDocument, packageListing, packageSummary } from './spec-package';
import { contractNamed, documentName, empty, loadContract, packageOf, type Tool, tool } from './tool-kit';

/**
 * The registry tools: the governance gate, the overview, one document, the list of documents and
 * the invariants. They read the spec package of a build or project when there is one, else the
 * governance contracts folder. forge_summary lists every tool's name, so tools.ts passes the full
 * list in (this file cannot import tools.ts: tools.ts assembles this file).
 */
export function contractTools(toolNames: () => string[]): Tool[] {
  return [
    tool({
      name: 'forge_get_governance',
      description:
        'Read the governance gate in one call: the builder contract, the layer boundaries, the stack and the invariant gates. Call it before changing code you have not worked on yet.',
      input: empty,
      annotations: READ,
      run: async (_i, ctx) => ({ ...(await ctx.source.getGovernance()) }),
    }),
    tool({
      name: 'forge_summary',
      description:
        'Overview of the governance framework: every contract with a one-line brief and whether it exists, the layers, the invariant names, the API endpoints and the tools. A good first call.',
      input: empty,
      annotations: READ,
      run: async (_i, ctx) => {
        const pkg = await packageOf(ctx);
        if (pkg) return packageSummary(pkg, toolNames());
        return { ...(await ctx.source.getSummary(toolNames())) };
      },
    }),
    tool({
      name: 'forge_get_contract',
      description:
        'Read one document in full by its id from forge_list_contracts (JSON and YAML contracts come back parsed). For the plan use forge_get_phase_window.',
      input: z.object({ name: documentName }).strict(),
      annotations: READ,
      run: async (i, ctx) => {
        const pkg = await packageOf(ctx);
        if (pkg) return packageDocument(pkg, i.name);
        return loadContract(ctx, contractNamed(i.name));
      },
    }),
    tool({
      name: 'forge_list_contracts',
      description: "List the project's documents: id, title, a brief taken from the document, and its size in tokens.",
      input: empty,
      annotations: READ,
      run: async (_i, ctx) => {
        const pkg = await packageOf(ctx);
        if (pkg) return packageListing(pkg);
        return { contracts: await ctx.source.listContracts() };
      },
    }),
    tool({
      name: 'forge_get_invariants',
      description: 'The invariant gates checked at every phase sign-off: each gate, its constraint type (monotonic_up, equal, ...) and default value.',
      input: empty,
      annotations: READ,
      run: async (_i, ctx) => ({ ...(await ctx.source.getInvariants()) }),
    }),
  ];
}
