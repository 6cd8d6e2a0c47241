/**
 * Saves what the API produced as a file the person downloads, as a download link would: the
 * CSV exports (charity reports and Gift Aid, payout statements, staff exports) and "Download your
 * data". The object URL is let go once the browser has taken the file.
 */
export function saveFile(fileName: string, parts: BlobPart[], type: string): void {
  const url = URL.createObjectURL(new Blob(parts, { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A CSV file, with a byte-order mark so that spreadsheet programs read it as UTF-8 (£, accents). */
export function saveCsv(fileName: string, csv: string): void {
  saveFile(fileName, ['\uFEFF', csv], 'text/csv;charset=utf-8');
}

/** A JSON document, indented for people to read. */
export function saveJson(fileName: string, data: unknown): void {
  saveFile(fileName, [`${JSON.stringify(data, null, 2)}\n`], 'application/json;charset=utf-8');
}
