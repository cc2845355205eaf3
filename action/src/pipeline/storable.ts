/**
 * The one rule for both sides of a stored run: what a reader would refuse is
 * refused before it is written. Every reader of a ResultSet (a baseline file,
 * a history run, the two-stage handoff) applies the ResultSet schema; every
 * writer here checks the same schema on the exact text it writes.
 */
import { validateResultSet } from '../adapters/result-set.js';
import type { ResultSet } from '../model/index.js';
import { refuseUnreadable, serializeResultSet } from '../store/index.js';

/** The run, checked against the reader's schema as it will be written; an InputError naming `where` and the field otherwise. */
export function storableResultSet(set: ResultSet, where: string): ResultSet {
  refuseUnreadable(() => validateResultSet(JSON.parse(serializeResultSet(set)) as unknown, where), where);
  return set;
}
