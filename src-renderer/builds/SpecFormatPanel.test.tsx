import { QueryClient } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SpecInspection } from '../../src-main/api/builds';
import type { ForgeClient } from '../api/client';
import { ApiError } from '../api/errors';
import { ForgeProvider, procedureKey } from '../api/hooks';
import { isFullPath, SpecFormatPanel, SpecInspectionView } from './SpecFormatPanel';

/**
 * The start form's format panel: once a folder's full path is entered it shows what builds/inspect
 * found there — format and why, the feature read and the others, documents with tokens, phases by
 * the plan's own ids with task counts, what was not understood. If it failed, a PM would start a
 * build on a folder Forge read differently from what they meant (or found no phases in) and learn
 * it only from a failed build.
 */

const DIR = '/home/ana/shortener';
const SPEC_KIT: SpecInspection = {
  dir: DIR,
  format: 'spec-kit',
  feature: '002-link-shortener',
  features: ['001-team-accounts', '002-link-shortener'],
  why: 'Found specs/<feature>/tasks.md (GitHub spec-kit).',
  documents: [
    { id: 'specs/002-link-shortener/spec.md', kind: 'spec', title: 'Feature Specification: Link shortener', tokens: 410 },
    { id: 'specs/002-link-shortener/tasks.md', kind: 'tasks', title: 'Tasks: Link shortener', tokens: 1200 },
  ],
  totalTokens: 1610,
  phases: [
    { id: '3.1', name: 'Setup', tasks: 3, source: 'specs/002-link-shortener/tasks.md' },
    { id: '3.2', name: 'Tests First', tasks: 1, source: 'specs/002-link-shortener/tasks.md' },
  ],
  preambleLines: 4,
  notUnderstood: ['notes.txt is not Markdown; it was left out.'],
  text: 'Format: spec-kit',
};

/** A fake client that answers builds/inspect and records what it was asked. */
function fakeClient(answer: (input: { dir: string }) => Promise<unknown>) {
  const calls: { name: string; input: unknown }[] = [];
  const client = {
    transport: 'http',
    token: null,
    call: async (name: string, input: { dir: string }) => {
      calls.push({ name, input });
      return answer(input);
    },
  } as unknown as ForgeClient;
  return { client, calls };
}

/** Renders the panel after the client's answer (or refusal) for `dir` is in the query cache, as it is once the request returns. */
async function renderWith(dir: string, answer: (input: { dir: string }) => Promise<unknown>, feature?: string) {
  const { client, calls } = fakeClient(answer);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, retryOnMount: false } } });
  const input = feature ? { dir, feature } : { dir };
  if (isFullPath(dir))
    await queryClient
      .fetchQuery({ queryKey: procedureKey('builds/inspect', input), queryFn: () => client.call('builds/inspect', input) })
      .catch(() => undefined);
  const html = renderToStaticMarkup(
    <ForgeProvider client={client} queryClient={queryClient}>
      {feature ? <SpecFormatPanel dir={`  ${dir} `} feature={feature} onFeature={() => undefined} /> : <SpecFormatPanel dir={`  ${dir} `} />}
    </ForgeProvider>,
  );
  return { html, calls };
}

describe('the format panel on the start form', () => {
  it('shows the format, why, the other features, documents with tokens, phases 3.1 and 3.2 with task counts, and what was not understood', async () => {
    const { html, calls } = await renderWith(DIR, async () => SPEC_KIT);
    expect(calls).toEqual([{ name: 'builds/inspect', input: { dir: DIR } }]);
    expect(html).toContain('Format: spec-kit');
    expect(html).toContain('<code>002-link-shortener</code>');
    expect(html).toContain('Found specs/&lt;feature&gt;/tasks.md (GitHub spec-kit).');
    expect(html).toContain('Also in this folder: 001-team-accounts.');
    expect(html).toContain('2 documents, 1,610 tokens');
    expect(html).toContain('specs/002-link-shortener/tasks.md</code> — Tasks: Link shortener (tasks, 1,200 tokens)');
    expect(html).toContain('Phase 3.1 — Setup: 3 tasks');
    expect(html).toContain('Phase 3.2 — Tests First: 1 task<');
    expect(html).toContain('4 lines before the first phase are carried with every phase.');
    expect(html).toContain('notes.txt is not Markdown; it was left out.');
  });

  it("offers a chooser of the folder's features, on inspect's pick, and reads the one chosen", async () => {
    // Without a chooser (no onFeature) the others are only named.
    const plain = renderToStaticMarkup(<SpecInspectionView inspection={SPEC_KIT} />);
    expect(plain).not.toContain('build-feature');
    const { html, calls } = await renderWith(DIR, async () => ({ ...SPEC_KIT, feature: '001-team-accounts' }), '001-team-accounts');
    expect(calls).toEqual([{ name: 'builds/inspect', input: { dir: DIR, feature: '001-team-accounts' } }]);
    expect(html).toContain('data-testid="build-feature"');
    expect(html).toContain('Feature to build');
    expect(html).toMatch(/<option value="001-team-accounts" selected="">001-team-accounts<\/option><option value="002-link-shortener">/);
    // A folder with one feature has nothing to choose.
    const one = renderToStaticMarkup(<SpecInspectionView inspection={{ ...SPEC_KIT, features: ['002-link-shortener'] }} onFeature={() => undefined} />);
    expect(one).not.toContain('build-feature');
  });

  it('warns when the folder holds no phases a build could follow', async () => {
    const { html } = await renderWith(DIR, async () => ({ ...SPEC_KIT, phases: [], notUnderstood: [] }));
    expect(html).toContain('data-testid="build-inspect-no-phases"');
    expect(html).not.toContain('build-inspect-not-understood');
  });

  it("shows the API's sentence when the folder cannot be read", async () => {
    const { html } = await renderWith('/home/ana/nope', async () => {
      // As the real client throws the core's typed refusal.
      throw new ApiError({ code: 'not_found', message: 'There is no folder at /home/ana/nope; give the folder that holds your specs.' });
    });
    expect(html).toContain('data-testid="build-inspect-error"');
    expect(html).toContain('There is no folder at /home/ana/nope');
  });

  it('asks nothing and shows nothing for an empty or relative path', async () => {
    for (const dir of ['', 'projects/todo']) {
      const { html, calls } = await renderWith(dir, async () => SPEC_KIT);
      expect(html).toBe('');
      expect(calls).toEqual([]);
    }
    expect(['C:\\\\work\\\\app', '/srv/app', 'C:/app'].map(isFullPath)).toEqual([true, true, true]);
  });
});
