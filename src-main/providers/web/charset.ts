/**
 * Bytes to text by a declared charset label. WHATWG maps the labels latin1, iso-8859-1, ascii and
 * windows-1252 all to windows-1252, where 0x80–0x9F are curly quotes, dashes and the euro sign;
 * Node's TextDecoder decodes them as C1 control characters instead, so those 32 are remapped here.
 */
const WINDOWS_1252_C1 = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d,
  0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];
const WINDOWS_1252_LABELS = new Set([
  'windows-1252',
  'cp1252',
  'x-cp1252',
  'latin1',
  'l1',
  'iso-8859-1',
  'iso8859-1',
  'iso_8859-1',
  'ascii',
  'us-ascii',
  'iso-ir-100',
  'cp819',
  'ibm819',
]);

export function decodeBytes(bytes: Uint8Array, label: string | undefined): string {
  const name = (label ?? 'utf-8').trim().toLowerCase();
  if (WINDOWS_1252_LABELS.has(name)) {
    let out = '';
    // Chunked so a multi-megabyte page does not build one giant argument list.
    for (let i = 0; i < bytes.length; i += 8192) {
      const chunk = Array.from(bytes.subarray(i, i + 8192), (b) => (b >= 0x80 && b <= 0x9f ? WINDOWS_1252_C1[b - 0x80]! : b));
      out += String.fromCharCode(...chunk);
    }
    return out;
  }
  try {
    return new TextDecoder(name).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    // An unknown label: UTF-8 is what the web almost always means.
    return new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
  }
}
