/** Lookup lists (currencies, weeks to advertise) and the job title suggestions. */
import type { SqlValue } from './database';
import type { StatementCache } from './statements';
import type { JobTitleRow, LookupRow } from './types';

export class LookupRepository {
	constructor(private readonly sql: StatementCache) {}

	values(list: 'currency' | 'weeks'): LookupRow[] {
		return this.sql.all<LookupRow>(
			'SELECT field_id AS fieldId, value, description, sort_order AS sortOrder FROM lookup_value WHERE list = ? ORDER BY sort_order, field_id',
			[list],
		);
	}

	/** Job titles containing the text, prefix matches first, then by popularity. */
	jobTitles(text: string, industry: string | undefined, limit: number): JobTitleRow[] {
		const values: SqlValue[] = [`%${escapeLike(text)}%`];
		let sql = "SELECT title, industry, description, popularity FROM job_title WHERE title LIKE ? ESCAPE '\\'";
		if (industry) {
			sql += ' AND industry = ?';
			values.push(industry);
		}
		values.push(`${escapeLike(text)}%`, limit);
		return this.sql.all<JobTitleRow>(
			`${sql} ORDER BY (title LIKE ? ESCAPE '\\') DESC, popularity DESC, title LIMIT ?`,
			values,
		);
	}
}

function escapeLike(text: string): string {
	return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}
