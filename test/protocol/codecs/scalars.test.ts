import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import {
	dateTimeToDate,
	decodeScalar,
	encodeScalar,
	formatDateTime,
	parseLooseDateTime,
	renderDateText,
	ScalarError,
	type ScalarType,
} from '../../../src/protocol/codecs/scalars';

function throwsScalar(fn: () => unknown, type: ScalarType, message?: string | RegExp): ScalarError {
	let caught: unknown;
	try {
		fn();
	} catch (error) {
		caught = error;
	}
	assert.ok(caught instanceof ScalarError, `expected ScalarError, got ${String(caught)}`);
	assert.equal(caught.code, 'SCALAR_INVALID');
	assert.equal(caught.type, type);
	if (typeof message === 'string') assert.equal(caught.message, message);
	else if (message) assert.match(caught.message, message);
	return caught;
}

/** Reference value of a decimal text as [sign, digits as BigInt, scale]. */
function decimalValue(text: string): bigint[] {
	const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/.exec(text)!;
	const frac = m[3] ?? '';
	const n = BigInt((m[2] || '0') + frac) * (m[1] === '-' ? -1n : 1n);
	return [n, BigInt(frac.length)];
}

function sameDecimal(a: string, b: string): boolean {
	const [na, sa] = decimalValue(a);
	const [nb, sb] = decimalValue(b);
	const scale = sa > sb ? sa : sb;
	return na * 10n ** (scale - sa) === nb * 10n ** (scale - sb);
}

describe('protocol/codecs/scalars', () => {
	describe('string', () => {
		it('passes text through untouched', () => {
			assert.equal(decodeScalar('string', '  a\tb  '), '  a\tb  ');
			assert.equal(encodeScalar('string', ' x '), ' x ');
		});
	});

	describe('integers', () => {
		it('decodes int, short and unsignedByte with XML whitespace and signs', () => {
			assert.equal(decodeScalar('int', '42'), 42);
			assert.equal(decodeScalar('int', ' \n-7\t'), -7);
			assert.equal(decodeScalar('int', '+0012'), 12);
			assert.ok(Object.is(decodeScalar('int', '-0'), 0));
			assert.equal(decodeScalar('int', '2147483647'), 2147483647);
			assert.equal(decodeScalar('int', '-2147483648'), -2147483648);
			assert.equal(decodeScalar('int', '000000000000000000000000000001'), 1);
			assert.equal(decodeScalar('short', '-32768'), -32768);
			assert.equal(decodeScalar('short', '32767'), 32767);
			assert.equal(decodeScalar('unsignedByte', '255'), 255);
			assert.equal(decodeScalar('unsignedByte', '0'), 0);
		});

		it('rejects bad lexical forms and out-of-range values', () => {
			throwsScalar(() => decodeScalar('int', '12x'), 'int', '"12x" is not a valid int');
			for (const bad of ['', ' ', '+', '-', '1.0', '1e3', '0x10', '１２', '1 2', 'NaN', 'Infinity']) {
				throwsScalar(() => decodeScalar('int', bad), 'int');
			}
			throwsScalar(
				() => decodeScalar('int', '2147483648'),
				'int',
				'"2147483648" is not a valid int: out of range -2147483648..2147483647',
			);
			throwsScalar(() => decodeScalar('int', '-2147483649'), 'int');
			throwsScalar(() => decodeScalar('int', '9'.repeat(400)), 'int');
			throwsScalar(() => decodeScalar('short', '32768'), 'short');
			throwsScalar(() => decodeScalar('unsignedByte', '256'), 'unsignedByte');
			throwsScalar(() => decodeScalar('unsignedByte', '-1'), 'unsignedByte');
			const error = throwsScalar(() => decodeScalar('short', 'abc'), 'short');
			assert.equal(error.text, 'abc');
		});

		it('encodes integers and refuses non-integers or out-of-range numbers', () => {
			assert.equal(encodeScalar('int', -5), '-5');
			assert.equal(encodeScalar('int', -0), '0');
			assert.equal(encodeScalar('unsignedByte', 255), '255');
			throwsScalar(() => encodeScalar('int', 1.5), 'int', '"1.5" is not a valid int: not an integer');
			throwsScalar(() => encodeScalar('int', Number.NaN), 'int');
			throwsScalar(() => encodeScalar('int', 2 ** 31), 'int');
			throwsScalar(() => encodeScalar('short', -32769), 'short');
			throwsScalar(() => encodeScalar('unsignedByte', 256), 'unsignedByte');
			throwsScalar(() => encodeScalar('int', '5' as unknown as number), 'int');
		});

		for (const [type, min, max] of [
			['int', -2147483648, 2147483647],
			['short', -32768, 32767],
			['unsignedByte', 0, 255],
		] as const) {
			it(`round-trips every ${type} and refuses its neighbours (property)`, () => {
				fc.assert(
					fc.property(fc.integer({ min, max }), (n) => {
						assert.equal(decodeScalar(type, encodeScalar(type, n)), n);
						const padded = ` +${'0'.repeat(Math.abs(n) % 3)}${Math.abs(n)}\n`;
						if (Math.abs(n) <= max) assert.equal(decodeScalar(type, padded), Math.abs(n));
						else throwsScalar(() => decodeScalar(type, padded), type);
					}),
				);
				fc.assert(
					fc.property(
						fc.oneof(
							fc.integer({ min: max + 1, max: max + 1e9 }),
							fc.integer({ min: min - 1e9, max: min - 1 }),
						),
						(n) => {
							throwsScalar(() => decodeScalar(type, String(n)), type);
							throwsScalar(() => encodeScalar(type, n), type);
						},
					),
				);
			});
		}
	});

	describe('decimal', () => {
		it('returns the canonical text', () => {
			const cases: [string, string][] = [
				['-12.50', '-12.5'],
				['+3', '3'],
				['.5', '0.5'],
				['5.', '5'],
				['-0.0', '0'],
				['000', '0'],
				['0012.3400', '12.34'],
				[' 1.25\n', '1.25'],
				['-.010', '-0.01'],
				[
					'123456789012345678901234567890.000000000000000000001',
					'123456789012345678901234567890.000000000000000000001',
				],
			];
			for (const [text, canonical] of cases) assert.equal(decodeScalar('decimal', text), canonical, text);
			assert.equal(encodeScalar('decimal', '+007.10'), '7.1');
		});

		it('rejects what is not an xs:decimal', () => {
			for (const bad of [
				'1e3',
				'NaN',
				'',
				' ',
				'.',
				'-',
				'+.',
				'1.2.3',
				'Infinity',
				'0x10',
				'1,5',
				'- 1',
				'1_000',
			]) {
				throwsScalar(() => decodeScalar('decimal', bad), 'decimal');
			}
			throwsScalar(() => encodeScalar('decimal', 1.5 as unknown as string), 'decimal');
		});

		it('keeps every digit of arbitrary digit strings (property)', () => {
			const digits = fc.string({
				unit: fc.constantFrom('0', '1', '2', '3', '4', '5', '6', '7', '8', '9'),
				maxLength: 60,
			});
			fc.assert(
				fc.property(
					fc.constantFrom('', '+', '-'),
					digits,
					fc.option(digits, { nil: undefined }),
					(sign, int, frac) => {
						fc.pre(int !== '' || (frac !== undefined && frac !== ''));
						const text = sign + int + (frac === undefined ? '' : '.' + frac);
						const canonical = decodeScalar('decimal', text);
						assert.ok(sameDecimal(canonical, text), `${text} -> ${canonical}`);
						assert.match(canonical, /^(-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?)$/);
						assert.notEqual(canonical, '-0');
						assert.equal(decodeScalar('decimal', canonical), canonical);
						assert.equal(encodeScalar('decimal', canonical), canonical);
					},
				),
				{ numRuns: 1000 },
			);
		});
	});

	describe('boolean', () => {
		it('accepts true/false/1/0 and writes true/false', () => {
			assert.equal(decodeScalar('boolean', 'true'), true);
			assert.equal(decodeScalar('boolean', ' 1 '), true);
			assert.equal(decodeScalar('boolean', 'false'), false);
			assert.equal(decodeScalar('boolean', '0'), false);
			for (const bad of ['True', 'FALSE', 'yes', '', '2', 't']) {
				throwsScalar(() => decodeScalar('boolean', bad), 'boolean');
			}
			assert.equal(encodeScalar('boolean', true), 'true');
			assert.equal(encodeScalar('boolean', false), 'false');
			throwsScalar(() => encodeScalar('boolean', 1 as unknown as boolean), 'boolean');
		});
	});

	describe('dateTime', () => {
		it('accepts xs:dateTime forms and returns the trimmed text', () => {
			for (const text of [
				'2014-05-01T10:11:12',
				'2014-05-01T10:11:12Z',
				'2014-05-01T10:11:12.5',
				'2014-05-01T10:11:12.1234567+01:00',
				'2014-05-01T10:11:12-05:30',
				'0001-01-01T00:00:00',
				'9999-12-31T23:59:59.9999999',
				'2016-02-29T00:00:00Z',
				'2014-05-01T24:00:00',
				'2014-05-01T00:00:00+14:00',
				'12345-01-01T00:00:00Z',
				'-0044-03-15T12:00:00',
			]) {
				assert.equal(decodeScalar('dateTime', text), text);
				assert.equal(encodeScalar('dateTime', text), text);
			}
			assert.equal(decodeScalar('dateTime', '\n 2014-05-01T10:11:12Z\t'), '2014-05-01T10:11:12Z');
		});

		it('rejects other forms and impossible dates', () => {
			for (const bad of [
				'',
				'2014-05-01',
				'2014-05-01 10:11:12',
				'2014-05-01T10:11',
				'2014-5-1T10:11:12',
				'2014-02-30T00:00:00',
				'2015-02-29T00:00:00',
				'1900-02-29T00:00:00',
				'2014-13-01T00:00:00',
				'2014-00-10T00:00:00',
				'2014-05-01T25:00:00',
				'2014-05-01T24:00:01',
				'2014-05-01T10:60:00',
				'2014-05-01T10:11:60',
				'2014-05-01T10:11:12+14:30',
				'2014-05-01T10:11:12+01',
				'2014-05-01T10:11:12.',
				'0000-01-01T00:00:00',
				'02014-01-01T00:00:00',
				'2014-05-01t10:11:12',
				'2014-05-01T10:11:12z',
			]) {
				throwsScalar(() => decodeScalar('dateTime', bad), 'dateTime');
			}
			throwsScalar(() => encodeScalar('dateTime', new Date() as unknown as string), 'dateTime');
		});

		it('accepts exactly the date-times dateTimeToDate accepts, in the common YYYY-MM-DDThh:mm:ss shape too (property)', () => {
			const two = fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, '0'));
			const year = fc.oneof(
				fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
				fc.constantFrom('2000', '1900', '2024', '2023', '0004', 'x024', '202'),
			);
			const sep = (c: string): fc.Arbitrary<string> =>
				fc.oneof(
					{ weight: 9, arbitrary: fc.constant(c) },
					{ weight: 1, arbitrary: fc.constantFrom('-', 'T', ':', ' ', 't', '') },
				);
			const shaped = fc
				.tuple(
					year,
					sep('-'),
					two,
					sep('-'),
					two,
					sep('T'),
					two,
					sep(':'),
					two,
					sep(':'),
					two,
					fc.constantFrom('', '', '', 'Z', '.5', '+01:00', ' '),
				)
				.map((parts) => parts.join(''));
			fc.assert(
				fc.property(shaped, (text) => {
					let viaDate = true;
					try {
						dateTimeToDate(text);
					} catch {
						viaDate = false;
					}
					let decoded = true;
					try {
						assert.equal(decodeScalar('dateTime', text), text.trim());
					} catch (error) {
						if (!(error instanceof ScalarError)) throw error;
						decoded = false;
					}
					assert.equal(decoded, viaDate, text);
				}),
				{ numRuns: 5000 },
			);
			for (const text of [
				'2024-02-29T23:59:59',
				'2023-02-29T00:00:00',
				'1900-02-29T00:00:00',
				'2000-02-29T00:00:00',
				'2024-04-31T00:00:00',
				'2024-01-01T23:60:00',
				'0000-01-01T00:00:00',
				// With Z, the other shape read without the regular expression.
				'2024-02-29T23:59:59Z',
				'2023-02-29T00:00:00Z',
				'2024-01-01T23:60:00Z',
				'2024-01-01T24:00:00Z',
				'0000-01-01T00:00:00Z',
			]) {
				let viaDate = true;
				try {
					dateTimeToDate(text);
				} catch {
					viaDate = false;
				}
				assert.equal(
					viaDate,
					!(
						text.startsWith('2023-02-29') ||
						text.startsWith('1900-02-29') ||
						text.startsWith('2024-04-31') ||
						text.includes('23:60') ||
						text.startsWith('0000')
					),
					text,
				);
				if (viaDate) assert.equal(decodeScalar('dateTime', text), text);
				else throwsScalar(() => decodeScalar('dateTime', text), 'dateTime');
			}
		});

		it('refuses a lower-case z and anything after the Z, in the shape read without the regular expression', () => {
			for (const text of ['2024-01-01T10:00:00z', '2024-01-01T10:00:00ZZ', '2024-01-01T10:00:0Z']) {
				throwsScalar(() => decodeScalar('dateTime', text), 'dateTime');
			}
			assert.equal(decodeScalar('dateTime', '2024-01-01T10:00:00Z'), '2024-01-01T10:00:00Z');
		});

		it('converts to Date (no offset means UTC)', () => {
			assert.equal(dateTimeToDate('2014-05-01T10:11:12').toISOString(), '2014-05-01T10:11:12.000Z');
			assert.equal(dateTimeToDate('2014-05-01T10:11:12.1234567+01:00').toISOString(), '2014-05-01T09:11:12.123Z');
			assert.equal(dateTimeToDate('2014-05-01T10:11:12-05:30').toISOString(), '2014-05-01T15:41:12.000Z');
			assert.equal(dateTimeToDate('2014-12-31T24:00:00Z').toISOString(), '2015-01-01T00:00:00.000Z');
			assert.equal(dateTimeToDate('0001-01-01T00:00:00').toISOString(), '0001-01-01T00:00:00.000Z');
			assert.equal(dateTimeToDate('0050-06-01T00:00:00Z').getUTCFullYear(), 50);
			throwsScalar(() => dateTimeToDate('nope'), 'dateTime');
			throwsScalar(() => dateTimeToDate('999999-01-01T00:00:00Z'), 'dateTime');
		});

		it('formats Dates as YYYY-MM-DDTHH:mm:ss(.fff)Z', () => {
			assert.equal(formatDateTime(new Date(Date.UTC(2014, 4, 1, 10, 11, 12))), '2014-05-01T10:11:12Z');
			assert.equal(formatDateTime(new Date(Date.UTC(2014, 4, 1, 10, 11, 12, 5))), '2014-05-01T10:11:12.005Z');
			assert.equal(formatDateTime(dateTimeToDate('0001-01-01T00:00:00')), '0001-01-01T00:00:00Z');
			throwsScalar(() => formatDateTime(new Date(Number.NaN)), 'dateTime');
			throwsScalar(() => formatDateTime(new Date(Date.UTC(10000, 0, 1))), 'dateTime');
		});

		it('round-trips Dates through format, decode and dateTimeToDate (property)', () => {
			const dates = fc.date({
				min: new Date('0001-01-01T00:00:00Z'),
				max: new Date('9999-12-31T23:59:59.999Z'),
				noInvalidDate: true,
			});
			fc.assert(
				fc.property(dates, (d) => {
					const text = formatDateTime(d);
					assert.equal(decodeScalar('dateTime', text), text);
					assert.equal(dateTimeToDate(text).getTime(), d.getTime());
				}),
				{ numRuns: 1000 },
			);
		});

		it('reads every lexical variant of generated instants (property)', () => {
			const parts = fc.record({
				year: fc.integer({ min: 1, max: 9999 }),
				month: fc.integer({ min: 1, max: 12 }),
				day: fc.integer({ min: 1, max: 28 }),
				hour: fc.integer({ min: 0, max: 23 }),
				minute: fc.integer({ min: 0, max: 59 }),
				second: fc.integer({ min: 0, max: 59 }),
				fraction: fc.option(
					fc.string({ unit: fc.constantFrom('0', '1', '5', '9'), minLength: 1, maxLength: 9 }),
					{ nil: undefined },
				),
				offset: fc.option(fc.integer({ min: -14 * 60, max: 14 * 60 }), { nil: undefined }),
				zulu: fc.boolean(),
			});
			const p2 = (n: number, w = 2): string => String(n).padStart(w, '0');
			fc.assert(
				fc.property(parts, (p) => {
					const tz =
						p.offset === undefined
							? p.zulu
								? 'Z'
								: ''
							: `${p.offset < 0 ? '-' : '+'}${p2(Math.floor(Math.abs(p.offset) / 60))}:${p2(Math.abs(p.offset) % 60)}`;
					const text = `${p2(p.year, 4)}-${p2(p.month)}-${p2(p.day)}T${p2(p.hour)}:${p2(p.minute)}:${p2(p.second)}${p.fraction === undefined ? '' : '.' + p.fraction}${tz}`;
					assert.equal(decodeScalar('dateTime', ` ${text} `), text);
					const expected = new Date(0);
					expected.setUTCFullYear(p.year, p.month - 1, p.day);
					expected.setUTCHours(
						p.hour,
						p.minute,
						p.second,
						p.fraction === undefined ? 0 : Number(p.fraction.slice(0, 3).padEnd(3, '0')),
					);
					assert.equal(dateTimeToDate(text).getTime(), expected.getTime() - (p.offset ?? 0) * 60_000);
					assert.equal(
						renderDateText(text),
						`${p2(p.day)}/${p2(p.month)}/${p2(p.year, 4)} ${p2(p.hour)}:${p2(p.minute)}:${p2(p.second)}`,
					);
				}),
				{ numRuns: 1000 },
			);
		});
	});

	describe('renderDateText', () => {
		it('renders dd/MM/yyyy HH:mm:ss from the wall-clock time as written', () => {
			assert.equal(renderDateText('2014-05-01T09:08:07.123+01:00'), '01/05/2014 09:08:07');
			assert.equal(renderDateText('2014-05-01T09:08:07Z'), '01/05/2014 09:08:07');
			assert.equal(renderDateText('2014-12-31T24:00:00'), '01/01/2015 00:00:00');
			assert.equal(renderDateText('0001-01-01T00:00:00'), '01/01/0001 00:00:00');
			throwsScalar(() => renderDateText('01/05/2014 09:08:07'), 'dateTime');
		});
	});

	describe('parseLooseDateTime', () => {
		const utc = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number =>
			Date.UTC(y, mo - 1, d, h, mi, s, ms);
		it('accepts the documented forms as UTC', () => {
			const cases: [string, number][] = [
				['2014-05-01 09:08:07', utc(2014, 5, 1, 9, 8, 7)],
				['2014-5-1 9:08', utc(2014, 5, 1, 9, 8)],
				['2014-5-1 9:08:07', utc(2014, 5, 1, 9, 8, 7)],
				['2014-05-01', utc(2014, 5, 1)],
				['  2014-05-01  23:59:59.5 ', utc(2014, 5, 1, 23, 59, 59, 500)],
				['2014-05-01T09:08:07', utc(2014, 5, 1, 9, 8, 7)],
				['2014-05-01T09:08:07Z', utc(2014, 5, 1, 9, 8, 7)],
				['2014-05-01T09:08', utc(2014, 5, 1, 9, 8)],
				['2014-05-01T09:08:07.250+02:00', utc(2014, 5, 1, 7, 8, 7, 250)],
				['2014-05-01T09:08:07-0130', utc(2014, 5, 1, 10, 38, 7)],
				['01/05/2014 09:08:07', utc(2014, 5, 1, 9, 8, 7)],
				['1/5/2014 9:08', utc(2014, 5, 1, 9, 8)],
				['31/12/2014', utc(2014, 12, 31)],
				['0001-01-01 00:00:00', new Date('0001-01-01T00:00:00Z').getTime()],
			];
			for (const [text, expected] of cases) assert.equal(parseLooseDateTime(text)?.getTime(), expected, text);
		});

		it('returns undefined for anything else', () => {
			for (const bad of [
				'',
				'yesterday',
				'2014-02-30 00:00',
				'2014-13-01',
				'32/01/2014',
				'2014-05-01 24:00',
				'2014-05-01 10:60',
				'05/01/14',
				'2014/05/01',
				'2014-05-01T09:08:07+15:00',
				'0000-01-01',
			]) {
				assert.equal(parseLooseDateTime(bad), undefined, bad);
			}
		});

		it('reads back what formatDateTime and renderDateText write (property)', () => {
			const dates = fc
				.date({
					min: new Date('0001-01-01T00:00:00Z'),
					max: new Date('9999-12-31T23:59:59Z'),
					noInvalidDate: true,
				})
				.map((d) => new Date(Math.floor(d.getTime() / 1000) * 1000));
			fc.assert(
				fc.property(dates, (d) => {
					const iso = formatDateTime(d);
					assert.equal(parseLooseDateTime(iso)?.getTime(), d.getTime());
					assert.equal(parseLooseDateTime(renderDateText(iso))?.getTime(), d.getTime());
					assert.equal(parseLooseDateTime(iso.replace('T', ' ').replace('Z', ''))?.getTime(), d.getTime());
				}),
				{ numRuns: 500 },
			);
		});
	});

	describe('base64Binary', () => {
		it('decodes strictly, allowing whitespace', () => {
			assert.deepStrictEqual(decodeScalar('base64Binary', 'QUJD'), new Uint8Array([65, 66, 67]));
			assert.deepStrictEqual(
				decodeScalar('base64Binary', ' QU\nJD\r\n\tQQ== '),
				new Uint8Array([65, 66, 67, 65]),
			);
			assert.deepStrictEqual(decodeScalar('base64Binary', 'QUI='), new Uint8Array([65, 66]));
			assert.deepStrictEqual(decodeScalar('base64Binary', ''), new Uint8Array(0));
			assert.equal(Object.getPrototypeOf(decodeScalar('base64Binary', 'QUJD')), Uint8Array.prototype);
			for (const bad of [
				'QUJD!',
				'QQ=',
				'QUJ',
				'Q===',
				'====',
				'QR==',
				'QUJ=QUJD',
				'QU-_',
				'QUI=\u00a0',
				'QUJDé',
			]) {
				throwsScalar(() => decodeScalar('base64Binary', bad), 'base64Binary');
			}
			const error = throwsScalar(() => decodeScalar('base64Binary', 'A'.repeat(1000) + '!'), 'base64Binary');
			assert.ok(error.message.length < 200);
			assert.equal(error.text.length, 1001);
		});

		it('encodes without line breaks', () => {
			assert.equal(encodeScalar('base64Binary', new Uint8Array([65, 66, 67, 65])), 'QUJDQQ==');
			assert.equal(encodeScalar('base64Binary', new Uint8Array(0)), '');
			const view = new Uint8Array([0, 1, 2, 3, 4, 5]).subarray(2, 4);
			assert.equal(encodeScalar('base64Binary', view), 'AgM=');
			assert.ok(!encodeScalar('base64Binary', new Uint8Array(1000)).includes('\n'));
			throwsScalar(() => encodeScalar('base64Binary', 'QUJD' as unknown as Uint8Array), 'base64Binary');
		});

		it('round-trips random bytes (property)', () => {
			fc.assert(
				fc.property(fc.uint8Array({ maxLength: 300 }), fc.constantFrom('', '\n', '\r\n', ' '), (bytes, sep) => {
					const text = encodeScalar('base64Binary', bytes);
					assert.equal(text, Buffer.from(bytes).toString('base64'));
					assert.deepStrictEqual(decodeScalar('base64Binary', text), bytes);
					const wrapped = text.replace(/.{1,76}/g, (m) => m + sep);
					assert.deepStrictEqual(decodeScalar('base64Binary', wrapped), bytes);
				}),
				{ numRuns: 1000 },
			);
		});

		it('decodes 5 MB of base64 quickly', () => {
			const bytes = new Uint8Array(3_750_000);
			for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) & 0xff;
			const text = encodeScalar('base64Binary', bytes).replace(/.{76}/g, '$&\r\n');
			const start = process.hrtime.bigint();
			const decoded = decodeScalar('base64Binary', text);
			const took = Number(process.hrtime.bigint() - start) / 1e6;
			assert.deepStrictEqual(decoded, bytes);
			console.log(`      ${(text.length / 1e6).toFixed(1)} MB base64 decoded in ${took.toFixed(1)} ms`);
		});
	});

	it('refuses unknown types at run time', () => {
		assert.throws(() => decodeScalar('float' as ScalarType, '1'), /Unknown scalar type float/);
		assert.throws(() => encodeScalar('float' as ScalarType, '1' as never), /Unknown scalar type float/);
	});
});
