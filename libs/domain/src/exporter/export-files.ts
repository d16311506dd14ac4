import { createReadStream, createWriteStream, WriteStream } from 'node:fs';
import { once } from 'node:events';
import * as path from 'node:path';
import type * as ExcelJS from 'exceljs';
import type { ExportProvider } from './exporter-history.entity';
import type { ExportRow } from './exporter.repository';

/** The columns of an export, in Plane's order (`bgtasks/export_task.py` header). */
export const EXPORT_HEADER = [
  'ID',
  'Project',
  'Name',
  'Description',
  'State',
  'Start Date',
  'Target Date',
  'Priority',
  'Created By',
  'Assignee',
  'Labels',
  'Cycle Name',
  'Cycle Start Date',
  'Cycle End Date',
  'Module Name',
  'Module Start Date',
  'Module Target Date',
  'Created At',
  'Updated At',
  'Completed At',
  'Archived At',
] as const;

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** Plane's `dateConverter` (`%a, %d %b %Y`) of a `YYYY-MM-DD` day or a time (UTC); null for none. */
function day(value: string | Date | null): string | null {
  if (value === null) return null;
  const d = typeof value === 'string' ? new Date(`${value.slice(0, 10)}T00:00:00Z`) : value;
  return `${DAYS[d.getUTCDay()]}, ${pad(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** Plane's `dateTimeConverter` (`%a, %d %b %Y %I:%M:%S %Z%z`) in UTC; null for none. */
function time(value: Date | null): string | null {
  if (value === null) return null;
  const h = value.getUTCHours();
  return `${day(value)} ${pad(h % 12 || 12)}:${pad(value.getUTCMinutes())}:${pad(value.getUTCSeconds())} ${h < 12 ? 'AM' : 'PM'} UTC+0000`;
}

/** One work item as Plane's row (`generate_table_row`): a value per `EXPORT_HEADER` column. */
export function exportValues(r: ExportRow): Array<string | null> {
  const createdBy =
    r.created_by__first_name && r.created_by__last_name ? `${r.created_by__first_name} ${r.created_by__last_name}` : '';
  return [
    `${r.project__identifier}-${r.sequence_id}`,
    r.project__name,
    r.name,
    r.description_stripped,
    r.state__name,
    day(r.start_date),
    day(r.target_date),
    r.priority,
    createdBy,
    (r.assignees ?? []).join(', '),
    (r.labels ?? []).join(', '),
    r.cycle__name,
    day(r.cycle__start_date),
    day(r.cycle__end_date),
    r.modules ? r.modules.join(', ') : null,
    day(r.module__start_date),
    day(r.module__target_date),
    time(r.created_at),
    time(r.updated_at),
    time(r.completed_at),
    time(r.archived_at),
  ];
}

/** A file of an export being written row by row; `close` finishes it. */
export interface ExportFileWriter {
  readonly file: string;
  write(rows: ExportRow[]): Promise<void>;
  close(): Promise<void>;
}

/** Writes `text`, waiting for the stream to drain when its buffer is full. */
async function put(out: WriteStream, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

async function end(out: WriteStream): Promise<void> {
  out.end();
  await once(out, 'finish');
}

/** CSV with every field quoted (Plane's `csv.QUOTE_ALL`), a header row first, CRLF line ends. */
function csvWriter(file: string): ExportFileWriter {
  const out = createWriteStream(file);
  const line = (values: ReadonlyArray<string | null>) =>
    values.map((v) => `"${(v ?? '').replace(/"/g, '""')}"`).join(',') + '\r\n';
  let started = false;
  return {
    file,
    async write(rows) {
      if (!started) {
        started = true;
        await put(out, line(EXPORT_HEADER));
      }
      await put(out, rows.map((r) => line(exportValues(r))).join(''));
    },
    async close() {
      if (!started) await put(out, line(EXPORT_HEADER));
      await end(out);
    },
  };
}

/** A JSON array of objects keyed by the header (Plane's `generate_json_row`). */
function jsonWriter(file: string): ExportFileWriter {
  const out = createWriteStream(file);
  let first = true;
  const object = (r: ExportRow) => {
    const values = exportValues(r);
    return Object.fromEntries(EXPORT_HEADER.map((h, i) => [h, values[i]]));
  };
  return {
    file,
    async write(rows) {
      for (const r of rows) {
        await put(out, `${first ? '[' : ', '}${JSON.stringify(object(r))}`);
        first = false;
      }
    },
    async close() {
      await put(out, first ? '[]' : ']');
      await end(out);
    },
  };
}

/** One sheet, a header row first, through exceljs's streaming writer (rows are flushed as they come). */
function xlsxWriter(file: string): ExportFileWriter {
  // loaded on the first xlsx export, not at start-up
  const excel = require('exceljs') as typeof ExcelJS;
  const workbook = new excel.stream.xlsx.WorkbookWriter({ filename: file, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Sheet');
  sheet.addRow([...EXPORT_HEADER]).commit();
  return {
    file,
    async write(rows) {
      for (const r of rows) sheet.addRow(exportValues(r)).commit();
    },
    async close() {
      sheet.commit();
      await workbook.commit();
    },
  };
}

/** A writer for `provider` of the file `<dir>/<name>.<provider>`. */
export function exportWriter(provider: ExportProvider, dir: string, name: string): ExportFileWriter {
  const file = path.join(dir, `${name}.${provider}`);
  if (provider === 'csv') return csvWriter(file);
  if (provider === 'json') return jsonWriter(file);
  return xlsxWriter(file);
}

/** The part of archiver (`archiver('zip')`) used here. */
interface ZipArchive {
  pipe(out: NodeJS.WritableStream): void;
  append(source: NodeJS.ReadableStream, data: { name: string }): void;
  finalize(): Promise<void>;
  on(event: 'error' | 'warning', listener: (err: Error) => void): void;
}

/** Zips `files` (their base names) into `target`, streamed (archiver). */
export async function zipFiles(files: string[], target: string): Promise<void> {
  const archiver = require('archiver') as (format: 'zip', options?: { zlib?: { level: number } }) => ZipArchive;
  const out = createWriteStream(target);
  const zip = archiver('zip', { zlib: { level: 6 } });
  const failed = new Promise<never>((_, reject) => {
    zip.on('error', reject);
    out.on('error', reject);
  });
  zip.pipe(out);
  for (const f of files) zip.append(createReadStream(f), { name: path.basename(f) });
  await Promise.race([Promise.all([zip.finalize(), once(out, 'close')]), failed]);
}
