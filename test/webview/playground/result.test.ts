import * as assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderValue } from '../../../src/webview/playground/result';
import { chooseColumns, columnsForWidth, toCsv, toJson } from '../../../src/webview/playground/resultData';

/** An application-like record with many fields, as GetApplicationsPaged returns them. */
function application(n: number): Record<string, unknown> {
	const record: Record<string, unknown> = {
		AdvertCandidateID: 5000 + n,
		AdvertID: 1001,
		PostingID: 7,
		FeedID: 108,
		CandidateID: 900 + n,
		ApplicationDate: `2026-01-0${n}T09:30:00`,
		Viewed: false,
		Score: 4,
		ProgressID: 1,
		FirstName: `Ann${n}`,
		LastName: 'Lee',
		EmailAddress: `ann${n}@example.com`,
		Notes: [{ Subject: 'x' }],
	};
	for (let i = 0; i < 20; i++) record[`Extra${i}`] = `v${i}`;
	return record;
}

function setup(width: number) {
	const dom = new JSDOM('<!DOCTYPE html><body></body>');
	const copied: [string, string][] = [];
	const ctx = { doc: dom.window.document, width, copy: (label: string, text: string) => copied.push([label, text]) };
	return { dom, ctx, copied };
}

describe('playground result table', function () {
	it('fits as many columns as the width holds, three to ten', function () {
		assert.equal(columnsForWidth(0), 6);
		assert.equal(columnsForWidth(200), 3);
		assert.equal(columnsForWidth(780), 6);
		assert.equal(columnsForWidth(5000), 10);
	});

	it('chooses the telling columns first: the own id, names, states, dates; nested ones go to the details', function () {
		const choice = chooseColumns([application(1), application(2)], 6);
		assert.deepEqual(choice.shown, [
			'AdvertCandidateID',
			'FirstName',
			'LastName',
			'EmailAddress',
			'Viewed',
			'Score',
		]);
		assert.deepEqual(choice.nested, ['Notes']);
		assert.ok(choice.hidden.includes('ApplicationDate'));
		assert.equal(choice.shown.length + choice.hidden.length + choice.nested.length, 33);
	});

	it('takes as the own id the first ID column that tells the records apart', function () {
		const records = [
			{ CultureID: 'en-GB', Description: 'Pound', FieldID: 1 },
			{ CultureID: 'en-GB', Description: 'Euro', FieldID: 2 },
		];
		assert.deepEqual(chooseColumns(records, 2).shown, ['FieldID', 'Description']);
	});

	it('leaves out columns that are empty in every record', function () {
		const choice = chooseColumns(
			[
				{ ID: 1, Note: '' },
				{ ID: 2, Note: null },
			],
			6,
		);
		assert.deepEqual(choice, { shown: ['ID'], hidden: [], nested: [] });
	});

	it('numbers the rows from 1 and puts every field in a detail row opened from the number', function () {
		const { ctx } = setup(780);
		const node = renderValue(ctx, [application(1), application(2), application(3)]) as HTMLElement;
		const rows = [
			...node.querySelectorAll<HTMLTableRowElement>(
				'.pg-result-table:not(.pg-detail-row *) > tbody > tr[data-row]',
			),
		];
		assert.deepEqual(
			rows.map((row) => row.cells[0].textContent),
			['1', '2', '3'],
		);
		assert.equal(node.querySelector<HTMLTableElement>('.pg-result-table')!.tHead!.rows[0].cells.length, 7);
		const toggle = rows[1].querySelector<HTMLButtonElement>('button')!;
		const detail = node.querySelector<HTMLElement>(`#${toggle.getAttribute('aria-controls')}`)!;
		assert.equal(detail.hidden, true);
		toggle.click();
		assert.equal(detail.hidden, false);
		assert.equal(toggle.getAttribute('aria-expanded'), 'true');
		assert.match(detail.textContent ?? '', /Extra19v19/);
		assert.match(
			node.querySelector('.pg-result-bar')?.textContent ?? '',
			/^3 records · 6 columns, 27 more in each record's details/,
		);
	});

	it('shows dates in the locale with ISO in the tooltip', function () {
		const { ctx } = setup(2000);
		const node = renderValue(ctx, [application(1)]) as HTMLElement;
		const index = [...node.querySelectorAll('thead th')].findIndex((th) => th.textContent === 'ApplicationDate');
		const td = node.querySelectorAll('tbody tr[data-row] td')[index];
		assert.equal(td.getAttribute('title'), '2026-01-01T09:30:00Z');
		assert.notEqual(td.textContent, '2026-01-01T09:30:00');
		assert.match(td.textContent ?? '', /2026/);
	});

	it('copies every record as CSV and as JSON', function () {
		const { ctx, copied } = setup(780);
		const node = renderValue(ctx, [
			{ ID: 1, Name: 'a,"b"' },
			{ ID: 2, Name: 'c' },
		]) as HTMLElement;
		node.querySelector<HTMLButtonElement>('#copy-csv')!.click();
		node.querySelector<HTMLButtonElement>('#copy-json')!.click();
		assert.deepEqual(copied[0], ['2 records as CSV', 'ID,Name\r\n1,"a,""b"""\r\n2,c\r\n']);
		assert.deepEqual(JSON.parse(copied[1][1]), [
			{ ID: 1, Name: 'a,"b"' },
			{ ID: 2, Name: 'c' },
		]);
	});

	it('writes nested values and line breaks into CSV cells safely', function () {
		assert.equal(toCsv([{ A: [1, 2], B: 'x\ny', C: ' pad' }]), 'A,B,C\r\n"[1,2]","x\ny"," pad"\r\n');
		assert.equal(toJson({ a: 1 }), '{\n  "a": 1\n}\n');
	});
});
