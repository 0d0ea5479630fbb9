import * as assert from 'node:assert/strict';
import { dateWithIso, formatDateTime, isUnsetDate, looksLikeDateTime, parseDateTime } from '../../src/shared/dates';

describe('one date format', function () {
	it('reads service date-times as UTC unless they carry a zone', function () {
		assert.equal(parseDateTime('2026-01-02T03:04:05')?.toISOString(), '2026-01-02T03:04:05.000Z');
		assert.equal(parseDateTime('2026-01-02 03:04:05')?.toISOString(), '2026-01-02T03:04:05.000Z');
		assert.equal(parseDateTime('2026-01-02T03:04:05+02:00')?.toISOString(), '2026-01-02T01:04:05.000Z');
		assert.equal(parseDateTime('2026-01-02T03:04:05.25Z')?.toISOString(), '2026-01-02T03:04:05.250Z');
		assert.equal(parseDateTime('2026-01-02')?.toISOString(), '2026-01-02T00:00:00.000Z');
		assert.equal(parseDateTime('02/01/2026'), undefined);
		assert.equal(parseDateTime('2026-13-45'), undefined);
		assert.equal(looksLikeDateTime('12345'), false);
	});

	it('shows the locale format and keeps ISO (UTC) for the tooltip', function () {
		const when = Date.UTC(2026, 0, 2, 15, 4, 5);
		assert.deepEqual(formatDateTime(when, { locale: 'en-GB', timeZone: 'UTC' }), {
			text: '2 Jan 2026, 15:04',
			iso: '2026-01-02T15:04:05Z',
		});
		assert.deepEqual(formatDateTime(when, { locale: 'en-US', timeZone: 'UTC' }), {
			text: 'Jan 2, 2026, 3:04 PM',
			iso: '2026-01-02T15:04:05Z',
		});
		assert.equal(formatDateTime(when, { locale: 'de-DE', timeZone: 'UTC', dateOnly: true })?.text, '02.01.2026');
		assert.equal(
			formatDateTime('2026-01-02T15:04:05', { locale: 'en-GB', timeZone: 'Europe/Paris' })?.text,
			'2 Jan 2026, 16:04',
		);
	});

	it('falls back to the runtime locale for an unknown one, and reads no date from other text', function () {
		assert.ok(formatDateTime(0, { locale: 'not a locale!' })?.text);
		assert.equal(formatDateTime('soon'), undefined);
		assert.equal(formatDateTime(''), undefined);
	});

	it('shows only the time when asked, and both forms on one line where no tooltip can carry the ISO', function () {
		const when = '2026-01-02T15:04:05Z';
		assert.equal(formatDateTime(when, { locale: 'en-GB', timeZone: 'UTC', timeOnly: true })?.text, '15:04');
		assert.equal(formatDateTime(when, { locale: 'en-US', timeZone: 'UTC', timeOnly: true })?.text, '3:04 PM');
		assert.equal(
			dateWithIso('2026-01-02T15:04:05', { locale: 'en-GB', timeZone: 'UTC' }),
			'2 Jan 2026, 15:04 (2026-01-02T15:04:05Z)',
		);
		assert.equal(dateWithIso('02/01/2026 15:04', { locale: 'en-GB' }), '02/01/2026 15:04');
		assert.equal(dateWithIso(undefined), '');
	});

	it("knows the service's never-happened date", function () {
		assert.equal(isUnsetDate('0001-01-01T00:00:00'), true);
		assert.equal(isUnsetDate(undefined), true);
		assert.equal(isUnsetDate(''), true);
		assert.equal(isUnsetDate('2026-01-02T00:00:00'), false);
	});
});
