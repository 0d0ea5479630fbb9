/** Dates are stored as ISO 8601 UTC text with second precision, which sorts chronologically. */

/** 2026-11-02T10:15:00Z */
export function toStoredDate(date: Date): string {
	const iso = date.toISOString();
	// "yyyy-mm-ddThh:mm:ss.sssZ" is 24 characters; other years (±yyyyyy) keep the general form.
	return iso.length === 24 ? `${iso.slice(0, 19)}Z` : iso.replace(/\.\d{3}Z$/, 'Z');
}

/** The date `days` days before `now` (or after, for negative days). */
export function daysBefore(now: Date, days: number): Date {
	return new Date(now.getTime() - days * 86_400_000);
}

/** 2026-11-02 10:15:00: the text rendering used by the s-prefixed date fields (sLastPostDate, …). */
export function toDisplayDate(stored: string): string {
	return stored.replace('T', ' ').replace(/Z$/, '');
}
