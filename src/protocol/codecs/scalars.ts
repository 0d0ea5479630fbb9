/**
 * Text codecs for the XML Schema scalar types the spec uses (spec "Resources and their fields"), plus
 * the date helpers of the service: the s-prefixed text renderings and the loose date-time format of
 * request parameters. Decimals never pass through floating point.
 */

import { Buffer } from 'node:buffer';
import type { ScalarValueMap } from '../catalogue/model';
import { daysInMonth, utcMillis } from './dateParts';
import type { ScalarType } from '../catalogue/types';

export type { ScalarType } from '../catalogue/types';
export { parseLooseDateTime } from './dateParts';

/** The TypeScript value of each scalar type: one definition, in the catalogue's derived model. */
export type ScalarValues = ScalarValueMap;

/** A text that is not a valid lexical form of its scalar type, or a value that cannot be encoded. */
export class ScalarError extends Error {
	readonly code = 'SCALAR_INVALID';
	readonly type: ScalarType;
	/** The offending text (or the value rendered with String()). */
	readonly text: string;

	constructor(type: ScalarType, text: string, reason?: string) {
		const shown = text.length > 60 ? text.slice(0, 60) + '…' : text;
		super(`${JSON.stringify(shown)} is not a valid ${type}${reason === undefined ? '' : `: ${reason}`}`);
		this.name = 'ScalarError';
		this.type = type;
		this.text = text;
	}
}

// ---------------------------------------------------------------------------------------------
// Helpers

function isXmlWs(c: number): boolean {
	return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** Removes leading and trailing XML whitespace (whiteSpace="collapse" for single-token types). */
function trimXml(text: string): string {
	let a = 0;
	let b = text.length;
	while (a < b && isXmlWs(text.charCodeAt(a))) a++;
	while (b > a && isXmlWs(text.charCodeAt(b - 1))) b--;
	return a === 0 && b === text.length ? text : text.slice(a, b);
}

const INTEGER = /^[+-]?[0-9]+$/;

function decodeInteger(type: ScalarType, text: string, min: number, max: number): number {
	const t = trimXml(text);
	if (!INTEGER.test(t)) throw new ScalarError(type, text);
	// Digits beyond 16 (after leading zeros) are certainly out of these ranges; avoid huge Number() work.
	let i = t.charCodeAt(0) === 0x2b || t.charCodeAt(0) === 0x2d ? 1 : 0;
	while (i < t.length - 1 && t.charCodeAt(i) === 0x30) i++;
	if (t.length - i > 16) throw new ScalarError(type, text, `out of range ${min}..${max}`);
	const value = Number(t);
	if (value < min || value > max) throw new ScalarError(type, text, `out of range ${min}..${max}`);
	return value === 0 ? 0 : value; // no -0
}

function encodeInteger(type: ScalarType, value: number, min: number, max: number): string {
	if (typeof value !== 'number' || !Number.isInteger(value)) {
		throw new ScalarError(type, String(value), 'not an integer');
	}
	if (value < min || value > max) throw new ScalarError(type, String(value), `out of range ${min}..${max}`);
	return value === 0 ? '0' : String(value);
}

const DECIMAL = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/;

/** Canonical form of an xs:decimal (XSD 1.1): no '+', no redundant zeros, no '.' for integers, '-0' is '0'. */
function canonicalDecimal(text: string): string {
	const t = trimXml(text);
	const m = DECIMAL.exec(t);
	if (!m || (m[2] === '' && (m[3] === undefined || m[3] === ''))) throw new ScalarError('decimal', text);
	let a = 0;
	const intDigits = m[2];
	while (a < intDigits.length && intDigits.charCodeAt(a) === 0x30) a++;
	const frac = m[3] ?? '';
	let b = frac.length;
	while (b > 0 && frac.charCodeAt(b - 1) === 0x30) b--;
	const intPart = intDigits.slice(a);
	const fracPart = frac.slice(0, b);
	if (intPart === '' && fracPart === '') return '0';
	return (m[1] === '-' ? '-' : '') + (intPart === '' ? '0' : intPart) + (fracPart === '' ? '' : '.' + fracPart);
}

function decodeBoolean(text: string): boolean {
	switch (trimXml(text)) {
		case 'true':
		case '1':
			return true;
		case 'false':
		case '0':
			return false;
		default:
			throw new ScalarError('boolean', text);
	}
}

// ---------------------------------------------------------------------------------------------
// dateTime

const DATE_TIME =
	/^(-?(?:[1-9][0-9]{4,}|[0-9]{4}))-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?(Z|[+-][0-9]{2}:[0-9]{2})?$/;

interface DateTimeParts {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	second: number;
	/** Milliseconds (fraction truncated to 3 digits). */
	ms: number;
	/** Offset east of UTC in minutes; undefined when the text has none. */
	offset: number | undefined;
}

/** Parses and range-checks an xs:dateTime; undefined when invalid. */
function parseDateTimeParts(t: string): DateTimeParts | undefined {
	const m = DATE_TIME.exec(t);
	if (!m) return undefined;
	const year = Number(m[1]);
	const month = Number(m[2]);
	const day = Number(m[3]);
	const hour = Number(m[4]);
	const minute = Number(m[5]);
	const second = Number(m[6]);
	const fraction = m[7] ?? '';
	if (year === 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
	if (minute > 59 || second > 59) return undefined;
	// 24:00:00 is the end of the day (XSD 1.0 and ISO 8601).
	if (hour > 24 || (hour === 24 && (minute !== 0 || second !== 0 || /[1-9]/.test(fraction)))) return undefined;
	let offset: number | undefined;
	const tz = m[8];
	if (tz === 'Z') {
		offset = 0;
	} else if (tz !== undefined) {
		const oh = Number(tz.slice(1, 3));
		const om = Number(tz.slice(4, 6));
		if (oh > 14 || om > 59 || (oh === 14 && om !== 0)) return undefined;
		offset = (tz.charCodeAt(0) === 0x2d ? -1 : 1) * (oh * 60 + om);
	}
	const ms = fraction === '' ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'));
	return { year, month, day, hour, minute, second, ms, offset };
}

function pad(n: number, width: number): string {
	return String(n).padStart(width, '0');
}

/**
 * Converts an xs:dateTime text to a Date. A text without a timezone is taken as UTC; fractional
 * seconds beyond milliseconds are truncated. Throws {@link ScalarError} for invalid text.
 */
export function dateTimeToDate(s: string): Date {
	const parts = parseDateTimeParts(trimXml(s));
	if (parts === undefined) throw new ScalarError('dateTime', s);
	const time = utcMillis(parts) - (parts.offset ?? 0) * 60_000;
	if (!Number.isFinite(time)) throw new ScalarError('dateTime', s, 'outside the representable range');
	return new Date(time);
}

/**
 * Formats a Date as `YYYY-MM-DDTHH:mm:ss(.fff)Z` in UTC; milliseconds appear only when non-zero.
 * Throws {@link ScalarError} for an invalid Date or a year outside 1..9999 (the range of .NET DateTime).
 */
export function formatDateTime(date: Date): string {
	const time = date.getTime();
	const year = date.getUTCFullYear();
	if (!Number.isFinite(time) || year < 1 || year > 9999) {
		throw new ScalarError('dateTime', String(date), 'year outside 1..9999');
	}
	const ms = date.getUTCMilliseconds();
	return `${pad(year, 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}T${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}${ms === 0 ? '' : '.' + pad(ms, 3)}Z`;
}

/**
 * Renders an xs:dateTime as the service's s-prefixed text fields (`sLastPostDate` etc.):
 * `dd/MM/yyyy HH:mm:ss`.
 *
 * The production format is not published: this is our documented choice. The wall-clock time is
 * rendered as written in `iso` (no timezone conversion, fraction dropped), as a server formatting
 * its own DateTime values would; 24:00:00 rolls over to the next day.
 */
export function renderDateText(iso: string): string {
	const parts = parseDateTimeParts(trimXml(iso));
	if (parts === undefined) throw new ScalarError('dateTime', iso);
	const d = new Date(utcMillis({ ...parts, ms: 0 }));
	if (Number.isNaN(d.getTime())) throw new ScalarError('dateTime', iso, 'outside the representable range');
	return `${pad(d.getUTCDate(), 2)}/${pad(d.getUTCMonth() + 1, 2)}/${pad(d.getUTCFullYear(), 4)} ${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
}

function decodeDateTime(text: string): string {
	const t = trimXml(text);
	if (!isPlainValidDateTime(t) && parseDateTimeParts(t) === undefined) throw new ScalarError('dateTime', text);
	return t;
}

/** Value of the `count` ASCII digits at `at` in `t`, or -1 when one is not a digit. */
function digitsAt(t: string, at: number, count: number): number {
	let n = 0;
	for (let i = at; i < at + count; i++) {
		const c = t.charCodeAt(i);
		if (c < 0x30 || c > 0x39) return -1;
		n = n * 10 + (c - 0x30);
	}
	return n;
}

/**
 * True for a valid dateTime of the shapes services send, `YYYY-MM-DDThh:mm:ss` with no timezone or
 * `Z` (no fraction, hour below 24), checked without the regular expression. False only means "not proven
 * here": every other text takes parseDateTimeParts.
 */
function isPlainValidDateTime(t: string): boolean {
	if (
		(t.length !== 19 && (t.length !== 20 || t.charCodeAt(19) !== 0x5a)) ||
		t.charCodeAt(4) !== 0x2d ||
		t.charCodeAt(7) !== 0x2d ||
		t.charCodeAt(10) !== 0x54 ||
		t.charCodeAt(13) !== 0x3a ||
		t.charCodeAt(16) !== 0x3a
	) {
		return false;
	}
	const year = digitsAt(t, 0, 4);
	const month = digitsAt(t, 5, 2);
	const day = digitsAt(t, 8, 2);
	const hour = digitsAt(t, 11, 2);
	const minute = digitsAt(t, 14, 2);
	const second = digitsAt(t, 17, 2);
	return (
		year > 0 &&
		month >= 1 &&
		month <= 12 &&
		day >= 1 &&
		day <= daysInMonth(year, month) &&
		hour >= 0 &&
		hour < 24 &&
		minute >= 0 &&
		minute <= 59 &&
		second >= 0 &&
		second <= 59
	);
}

// ---------------------------------------------------------------------------------------------
// base64Binary

const XML_WS_RUN = /[ \t\r\n]+/g;
const BASE64_BODY = /^[A-Za-z0-9+/]*$/;
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function decodeBase64(text: string): Uint8Array {
	const clean = text.replace(XML_WS_RUN, '');
	const n = clean.length;
	if (n % 4 !== 0) throw new ScalarError('base64Binary', text, 'length is not a multiple of 4');
	let padding = 0;
	if (n > 0 && clean.charCodeAt(n - 1) === 0x3d) padding = clean.charCodeAt(n - 2) === 0x3d ? 2 : 1;
	const body = padding === 0 ? clean : clean.slice(0, n - padding);
	if (!BASE64_BODY.test(body)) {
		throw new ScalarError('base64Binary', text, 'characters outside the base64 alphabet or misplaced padding');
	}
	// The bits dropped by padding must be zero (XSD lexical space: B04 / B16 productions).
	if (padding > 0) {
		const last = B64.indexOf(body[body.length - 1]);
		if ((padding === 2 && (last & 0x0f) !== 0) || (padding === 1 && (last & 0x03) !== 0)) {
			throw new ScalarError('base64Binary', text, 'non-zero padding bits');
		}
	}
	const buf = Buffer.from(clean, 'base64');
	// A plain Uint8Array (not a Buffer), owning its memory (small Buffers share a pool).
	if (buf.byteOffset === 0 && buf.buffer.byteLength === buf.byteLength) {
		return new Uint8Array(buf.buffer, 0, buf.byteLength);
	}
	return new Uint8Array(buf);
}

function encodeBase64(bytes: Uint8Array): string {
	if (!(bytes instanceof Uint8Array)) throw new ScalarError('base64Binary', String(bytes), 'not a Uint8Array');
	return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

// ---------------------------------------------------------------------------------------------
// Public codecs

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

/**
 * Decodes the text of an element or attribute of scalar type `type`.
 *
 * Leading and trailing XML whitespace is ignored for every type but string (returned unchanged).
 * int, short and unsignedByte are range-checked; decimal returns its canonical text (no '+', no
 * redundant zeros, no '.' for integers: `-12.50` -> `-12.5`, `.5` -> `0.5`) and never loses a digit;
 * boolean accepts true/false/1/0; dateTime returns the trimmed text once validated as xs:dateTime;
 * base64Binary allows whitespace anywhere but nothing outside the alphabet. Throws {@link ScalarError}.
 */
export function decodeScalar<T extends ScalarType>(type: T, text: string): ScalarValues[T] {
	return decodeAny(type, text) as ScalarValues[T];
}

function decodeAny(type: ScalarType, text: string): ScalarValues[ScalarType] {
	switch (type) {
		case 'string':
			return text;
		case 'int':
			return decodeInteger(type, text, INT_MIN, INT_MAX);
		case 'short':
			return decodeInteger(type, text, -32768, 32767);
		case 'unsignedByte':
			return decodeInteger(type, text, 0, 255);
		case 'decimal':
			return canonicalDecimal(text);
		case 'boolean':
			return decodeBoolean(text);
		case 'dateTime':
			return decodeDateTime(text);
		case 'base64Binary':
			return decodeBase64(text);
		default:
			throw new Error(`Unknown scalar type ${String(type)}`);
	}
}

/**
 * Encodes a value of scalar type `type` as XML text (not yet XML-escaped).
 *
 * Numbers must be integers within range; decimal and dateTime strings are validated (decimal is
 * written canonically, dateTime as given after trimming); booleans are written true/false; bytes as
 * base64 without line breaks. Throws {@link ScalarError} for a value outside the type.
 */
export function encodeScalar<T extends ScalarType>(type: T, value: ScalarValues[T]): string {
	return encodeAny(type, value);
}

function encodeAny(type: ScalarType, value: ScalarValues[ScalarType]): string {
	switch (type) {
		case 'string':
			if (typeof value !== 'string') throw new ScalarError(type, String(value), 'not a string');
			return value;
		case 'int':
			return encodeInteger(type, value as number, INT_MIN, INT_MAX);
		case 'short':
			return encodeInteger(type, value as number, -32768, 32767);
		case 'unsignedByte':
			return encodeInteger(type, value as number, 0, 255);
		case 'decimal':
			if (typeof value !== 'string') throw new ScalarError(type, String(value), 'decimals are passed as strings');
			return canonicalDecimal(value);
		case 'boolean':
			if (typeof value !== 'boolean') throw new ScalarError(type, String(value), 'not a boolean');
			return value ? 'true' : 'false';
		case 'dateTime':
			if (typeof value !== 'string') {
				throw new ScalarError(type, String(value), 'dateTimes are passed as xs:dateTime strings');
			}
			return decodeDateTime(value);
		case 'base64Binary':
			return encodeBase64(value as Uint8Array);
		default:
			throw new Error(`Unknown scalar type ${String(type)}`);
	}
}
