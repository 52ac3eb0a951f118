// Per-company number sequences (table `sequence`): product codes, document numbers (shaped by the
// company's number rules, table number_rule). A value is taken by
// one conditional increment (UPDATE ... SET next_value = next_value + 1 RETURNING), so two callers never
// share one; the first use creates the row with an insert that cannot race (ON CONFLICT DO NOTHING).
// takeSequenceValue runs in the caller's transaction: a rolled-back transaction gives its value back.
// Document numbers on PostgreSQL are taken on a connection of their own and committed at once
// (db/autonomous.ts), so documents of one kind do not queue behind each other's commits; a document
// whose transaction rolls back then leaves a gap in the day's numbers (never a number used twice).
import { formatDate } from '../../core/format.ts';
import { autonomousFor } from '../db/autonomous.ts';
import type { DB } from '../db/connection.ts';
import { runSql } from '../db/raw-sql.ts';
import { typed } from '../db/typed.ts';

/** Takes the next value of a company's sequence; `start` gives the first value when the sequence is new. */
export async function takeSequenceValue(db: DB, companyId: number, name: string, start: number | (() => Promise<number>) = 1): Promise<number> {
  for (let attempt = 0; attempt < 3; attempt++) {
    // Every document number passes here: plain SQL (db/raw-sql.ts).
    const [bumped] = await runSql(db, 'update sequence set next_value = next_value + 1 where company_id = ? and name = ? returning next_value', [companyId, name]);
    if (bumped) return Number(bumped.nextValue) - 1;
    const first = typeof start === 'function' ? await start() : start;
    await db.insertInto('sequence').values({ companyId, name, nextValue: first })
      .onConflict((oc) => oc.columns(['companyId', 'name']).doNothing()).execute();
  }
  throw new Error(`sequence ${name}: could not take a value`);
}

/** How a series' numbers look: the date part of a number and the period its counter runs over. */
export type DatePart = 'yyyymmdd' | 'yymmdd' | 'yyyymm' | 'none';

/** A number series' rule: prefix + date part + serial of `serialWidth` digits (wider when it runs over). */
export interface NumberRule {
  prefix: string;
  datePart: DatePart;
  serialWidth: number;
}

/** The rule of a series nobody has set (and of a rule switched off): its built-in prefix, the day, 4 digits. */
export const builtInRule = (series: string): NumberRule => ({ prefix: series, datePart: 'yyyymmdd', serialWidth: 4 });

const DATE_PARTS: readonly string[] = ['yyyymmdd', 'yymmdd', 'yyyymm', 'none'];

/**
 * The company's enabled rule for a series (单据编号规则, cdm 0191, table number_rule), else the built-in
 * rule. A series is the built-in prefix its documents pass to nextDocumentNo.
 */
export async function numberRuleOf(db: DB, companyId: number, series: string): Promise<NumberRule> {
  const [row] = await runSql(db, 'select prefix, date_part, serial_width from number_rule where company_id = ? and series = ? and enabled = 1', [companyId, series]);
  if (!row) return builtInRule(series);
  const datePart = String(row.datePart ?? row.date_part);
  const width = Number(row.serialWidth ?? row.serial_width);
  return {
    prefix: String(row.prefix),
    datePart: (DATE_PARTS.includes(datePart) ? datePart : 'yyyymmdd') as DatePart,
    serialWidth: Number.isInteger(width) && width >= 1 && width <= 12 ? width : 4,
  };
}

/**
 * What a rule makes of a moment: the text before the serial (prefix + date part) and the name of the
 * counter. The built-in rule's counter keeps the name it always had (doc:PREFIX:YYYYMMDD), so a company
 * that sets no rule numbers on exactly as before; other date parts count under their own names, so a
 * changed rule never hands out a serial another format used in the same period.
 */
export function numberParts(rule: NumberRule, tzHours: number, at: Date): { head: string; counter: string } {
  const day = formatDate(at.toISOString(), tzHours).replace(/-/g, '');
  const period = rule.datePart === 'yyyymmdd' ? day : rule.datePart === 'yymmdd' ? day.slice(2) : rule.datePart === 'yyyymm' ? day.slice(0, 6) : '';
  const counter = rule.datePart === 'yyyymmdd' ? `doc:${rule.prefix}:${day}` : `doc:${rule.prefix}:${rule.datePart}:${period}`;
  return { head: `${rule.prefix}${period}`, counter };
}

const formatNo = (head: string, n: number, width: number) => `${head}${String(n).padStart(width, '0')}`;

/**
 * A document number of a series: by the company's number rule for it, else prefix + the company's date +
 * a per-day counter, e.g. QC202611210001. `tzHours` is the company's time zone, so the day changes at the
 * company's midnight.
 */
export async function nextDocumentNo(db: DB, companyId: number, prefix: string, tzHours: number, at = new Date()): Promise<string> {
  const rule = await numberRuleOf(db, companyId, prefix);
  const { head, counter } = numberParts(rule, tzHours, at);
  const n = await takeSequenceValue(autonomousFor(db) ?? db, companyId, counter, 1);
  return formatNo(head, n, rule.serialWidth);
}

/** The number a rule would hand out next at `at`, without taking it (the rules screen's preview). */
export async function peekDocumentNo(db: DB, companyId: number, rule: NumberRule, tzHours: number, at = new Date()): Promise<string> {
  const { head, counter } = numberParts(rule, tzHours, at);
  const row = await typed(db).selectFrom('sequence').select('nextValue').where('companyId', '=', companyId).where('name', '=', counter).executeTakeFirst();
  return formatNo(head, row ? Number(row.nextValue) : 1, rule.serialWidth);
}
