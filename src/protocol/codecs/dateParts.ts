/**
 * Calendar helpers and the loose date-time parser of request parameters, without Node APIs: the
 * parameter rules (src/protocol/rules) use them in webviews too.
 */

export function daysInMonth(year: number, month: number): number {
	if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
	return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The wall-clock fields of a date-time (month 1-12). */
export interface WallClockFields {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	second: number;
	/** Milliseconds (fraction truncated to 3 digits). */
	ms: number;
}

/** UTC milliseconds of the wall-clock fields (years 0-99 are not shifted to 19xx). */
export function utcMillis(p: WallClockFields): number {
	const d = new Date(0);
	d.setUTCFullYear(p.year, p.month - 1, p.day);
	d.setUTCHours(p.hour, p.minute, p.second, p.ms);
	return d.getTime();
}

const LOOSE_YMD =
	/^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:(?:[ \t]+|T)([0-9]{1,2}):([0-9]{2})(?::([0-9]{2})(?:\.([0-9]+))?)?[ \t]*(Z|[+-][0-9]{2}:?[0-9]{2})?)?$/i;
const LOOSE_DMY = /^([0-9]{1,2})\/([0-9]{1,2})\/([0-9]{4})(?:[ \t]+([0-9]{1,2}):([0-9]{2})(?::([0-9]{2}))?)?$/;

/**
 * Parses a date-time request parameter (spec: "a variety of formats; the safest is yyyy-MM-d HH:mm:ss,
 * 24-hour clock, UTC"). Accepts `yyyy-M-d[ H:mm[:ss[.fff]]]`, ISO 8601 with `T` and an optional `Z`
 * or offset, and `dd/MM/yyyy[ HH:mm[:ss]]` (day first). Times without an offset are UTC; a missing
 * time is midnight. Returns undefined when the text is not one of these forms or not a real date.
 */
export function parseLooseDateTime(text: string): Date | undefined {
	const t = text.trim();
	let year: number;
	let month: number;
	let day: number;
	let hh: string | undefined;
	let mi: string | undefined;
	let ss: string | undefined;
	let frac: string | undefined;
	let tz: string | undefined;
	let m = LOOSE_YMD.exec(t);
	if (m) {
		year = Number(m[1]);
		month = Number(m[2]);
		day = Number(m[3]);
		[hh, mi, ss, frac, tz] = [m[4], m[5], m[6], m[7], m[8]];
	} else {
		m = LOOSE_DMY.exec(t);
		if (!m) return undefined;
		day = Number(m[1]);
		month = Number(m[2]);
		year = Number(m[3]);
		[hh, mi, ss] = [m[4], m[5], m[6]];
	}
	const hour = hh === undefined ? 0 : Number(hh);
	const minute = mi === undefined ? 0 : Number(mi);
	const second = ss === undefined ? 0 : Number(ss);
	if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
	if (hour > 23 || minute > 59 || second > 59) return undefined;
	let offset = 0;
	if (tz !== undefined && tz.toUpperCase() !== 'Z') {
		const digits = tz.replace(':', '');
		const oh = Number(digits.slice(1, 3));
		const om = Number(digits.slice(3, 5));
		if (oh > 14 || om > 59) return undefined;
		offset = (tz.charCodeAt(0) === 0x2d ? -1 : 1) * (oh * 60 + om);
	}
	const ms = frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, '0'));
	return new Date(utcMillis({ year, month, day, hour, minute, second, ms }) - offset * 60_000);
}
