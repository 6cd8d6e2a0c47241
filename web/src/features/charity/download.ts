/** Saves text the API produced (a CSV export) as a file the person downloads. */
export function saveCsv(fileName: string, csv: string): void {
  // A byte-order mark so that spreadsheet programs read the file as UTF-8 (£, accents).
  const blob = new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
