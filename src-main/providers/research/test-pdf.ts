/**
 * Writes a small, valid PDF by hand for tests: one Helvetica text object per page, a correct
 * cross-reference table, and an Info dictionary (title, creation date) — the structure pdf.js reads
 * from real broker PDFs, without a PDF library. Each line is one `Tj`; a blank line is an empty one.
 */
export function makePdf(pages: string[][], info: { title?: string; date?: string; encrypt?: boolean } = {}): Buffer {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const objects: string[] = ['<< /Type /Catalog /Pages 2 0 R >>', '', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'];
  const kids: string[] = [];
  for (const lines of pages) {
    const pageNo = objects.length + 1;
    kids.push(`${pageNo} 0 R`);
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageNo + 1} 0 R >>`);
    const body = ['BT', '/F1 10 Tf', '12 TL', '50 750 Td', ...lines.map((l) => `(${esc(l)}) Tj T*`), 'ET'].join('\n');
    objects.push(`<< /Length ${Buffer.byteLength(body, 'latin1')} >>\nstream\n${body}\nendstream`);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages.length} >>`;
  const meta: string[] = [];
  if (info.title) meta.push(`/Title (${esc(info.title)})`);
  if (info.date) meta.push(`/CreationDate (D:${info.date.replace(/-/g, '')}090000Z)`);
  objects.push(`<< ${meta.join(' ')} >>`);
  const infoRef = objects.length;

  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  // A standard security handler whose password check cannot pass: what a password-protected PDF looks like to a reader without the password.
  const encrypt = info.encrypt
    ? ` /Encrypt << /Filter /Standard /V 1 /R 2 /O <${'11'.repeat(32)}> /U <${'22'.repeat(32)}> /P -4 >> /ID [<${'33'.repeat(16)}> <${'33'.repeat(16)}>]`
    : '';
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${infoRef} 0 R${encrypt} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
