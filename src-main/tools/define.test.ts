import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, runTool, toAnthropicTool } from './define';
import { InvalidInputError } from '../common/errors';

const echo = defineTool({
  name: 'echo_view',
  description: 'Echo a View id back. Use it to test the loop.',
  input: z.object({ id: z.string().regex(/^V-\d{3}$/), depth: z.enum(['header', 'full']).default('header') }).strict(),
  annotations: { readOnlyHint: true },
  run: (input) => ({ content: `${input.id}@${input.depth}` }),
});
const thrower = defineTool({
  name: 'always_fails',
  description: 'Throws, as a broken handler would.',
  input: z.object({}),
  annotations: {},
  run: () => {
    throw new InvalidInputError('path escapes /memory/');
  },
});

describe('defineTool', () => {
  it('refuses names the model API or MCP would reject', () => {
    expect(() => defineTool({ ...echo, name: 'memory.read' })).toThrow(/snake_case/);
    expect(() => defineTool({ ...echo, name: 'x'.repeat(65) })).toThrow(/64/);
  });

  it('turns the zod input into the JSON schema the model sees', () => {
    const t = toAnthropicTool(echo);
    expect(t.name).toBe('echo_view');
    expect(t.input_schema).toMatchObject({
      type: 'object',
      properties: { id: { type: 'string' }, depth: { enum: ['header', 'full'] } },
      required: ['id'],
      additionalProperties: false,
    });
  });

  it('applies defaults and runs the handler on valid input', async () => {
    expect(await runTool([echo], 'echo_view', { id: 'V-001' }, {})).toEqual({ content: 'V-001@header' });
  });

  it('returns the zod issues to the model on invalid arguments instead of throwing', async () => {
    const r = await runTool([echo], 'echo_view', { id: 'view one', extra: 1 }, {});
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/Invalid arguments for echo_view: id: /);
    expect(r.content).toMatch(/extra/);
  });

  it('turns an unknown tool and a thrown handler into error results the loop survives', async () => {
    expect(await runTool([echo], 'delete_everything', {}, {})).toMatchObject({ isError: true, content: expect.stringMatching(/Unknown tool.*echo_view/) });
    expect(await runTool([thrower], 'always_fails', {}, {})).toEqual({ isError: true, content: 'always_fails failed [invalid_input]: path escapes /memory/' });
  });
});
