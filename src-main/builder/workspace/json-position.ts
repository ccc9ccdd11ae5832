/**
 * Where JSON goes wrong. JSON.parse decides whether a file is valid, but V8's messages give a
 * position only for some errors ("Unexpected token '}', … is not valid JSON" has none), and a
 * builder needs line:column to fix the file. This is a strict RFC 8259 scanner that stops at the
 * first error.
 */

export interface JsonErrorAt {
  offset: number;
  message: string;
}

class Stop extends Error {
  constructor(
    readonly at: number,
    message: string,
  ) {
    super(message);
  }
}

/** The first error in `text` as strict JSON, or null when it is valid. */
export function findJsonError(text: string): JsonErrorAt | null {
  let i = 0;
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const describe = () => (i >= text.length ? 'the file ends' : `found ${JSON.stringify(text[i])}`);
  const expect = (what: string): never => {
    throw new Stop(i, `expected ${what} but ${describe()}`);
  };
  const string = () => {
    i++; // opening quote
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) throw new Stop(i, 'a line break or control character inside a string (write it as \\n or \\u00XX)');
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) throw new Stop(i, 'a \\u escape needs four hex digits');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else throw new Stop(i, `an invalid escape \\${e ?? ''} in a string`);
      } else i++;
    }
    throw new Stop(i, 'a string that is never closed');
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') expect(text[i] === '}' ? 'another property (no trailing comma in JSON)' : 'a property name in double quotes');
        string();
        ws();
        if (text[i] !== ':') expect('":" after the property name');
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return;
        } else expect('"," or "}"');
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] === ']') expect('another value (no trailing comma in JSON)');
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return;
        } else expect('"," or "]"');
      }
    }
    if (c === '"') {
      string();
      return;
    }
    const num = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (num && num[0] !== '-' && num[0].length > 0) {
      i += num[0].length;
      return;
    }
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    expect('a value (string, number, object, array, true, false or null)');
  };
  try {
    value();
    ws();
    if (i < text.length) expect('the end of the file after the value');
    return null;
  } catch (e) {
    if (e instanceof Stop) return { offset: e.at, message: e.message };
    if (e instanceof RangeError) return null; // nested past the stack: the caller falls back to V8's message
    throw e;
  }
}

/** 1-based line and column of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let k = 0; k < offset && k < text.length; k++) {
    if (text.charCodeAt(k) === 10) {
      line++;
      lineStart = k + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
