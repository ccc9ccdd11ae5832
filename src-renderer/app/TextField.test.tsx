import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { counterText, overLimitMessage, TextArea, TextInput } from './TextField';

describe('text fields with a limit', () => {
  it('counts characters against the limit with thousands separators', () => {
    expect(counterText(1840, 2000)).toBe('1,840 / 2,000');
  });

  it('says in plain words that the text is too long and by how much, with the same sentence as the server error', () => {
    expect(overLimitMessage(2000, 2000, 'The filter')).toBeNull();
    expect(overLimitMessage(2010, 2000, 'The filter')).toBe('The filter can be at most 2,000 characters (10 over)');
  });

  it('keeps every character typed past the limit (no native maxLength) and marks the field invalid', () => {
    const long = 'x'.repeat(2005);
    const html = renderToStaticMarkup(<TextInput id="q" label="The filter" limit={2000} value={long} onChange={() => {}} />);
    expect(html).not.toContain('maxLength');
    expect(html).not.toContain('maxlength');
    expect(html).toContain(`value="${long}"`);
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('aria-describedby="q-count q-limit-error"');
    expect(html).toContain('2,005 / 2,000');
    expect(html).toContain('The filter can be at most 2,000 characters (5 over)');
  });

  it('shows a short field’s counter only once it is half full, and a long-form field’s always', () => {
    const empty = renderToStaticMarkup(<TextInput id="n" label="Display name" limit={80} value="Ann" onChange={() => {}} />);
    expect(empty).not.toContain('/ 80');
    const area = renderToStaticMarkup(<TextArea id="m" label="Your message" limit={20_000} value="hello" onChange={() => {}} />);
    expect(area).toContain('5 / 20,000');
    expect(area).not.toContain('aria-invalid');
  });
});
