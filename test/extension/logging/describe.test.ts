import * as assert from 'node:assert/strict';
import { redactExchange, type Exchange } from '../../../src/client';
import { exchangeDetail, exchangeSummary } from '../../../src/extension/logging/describe';

function exchange(responseBody: string): Exchange {
	return {
		operation: 'GetApplicationsPaged',
		binding: 'soap11',
		request: { method: 'POST', url: 'http://h/SOAP/Posting.asmx', headers: {}, body: Buffer.from('<req/>') },
		response: { status: 200, headers: {}, body: Buffer.from(responseBody) },
		timings: { startedAt: 1, totalMs: 12.4 },
	};
}

describe('exchange descriptions for the log', () => {
	it('shows a short body whole', () => {
		assert.equal(
			exchangeDetail(exchange('<ok/>')),
			'POST http://h/SOAP/Posting.asmx\n<req/>\nResponse: 200\n<ok/>',
		);
		assert.equal(exchangeSummary(exchange('')), 'GetApplicationsPaged via soap11: HTTP 200 in 12 ms');
	});

	it('shows the first 4,096 characters of a large body and counts the bytes left out', () => {
		const body = `${'é'.repeat(5000)}${'x'.repeat(1_000_000)}`;
		const detail = exchangeDetail(exchange(body));
		const shown = detail.split('\n')[3];
		assert.equal(shown, `${'é'.repeat(4096)}… (${Buffer.byteLength(body) - 2 * 4096} more bytes)`);
	});

	it('cuts a body just over the limit and says nothing more of one at the limit', () => {
		assert.equal(exchangeDetail(exchange('a'.repeat(4096))).split('\n')[3], 'a'.repeat(4096));
		assert.equal(exchangeDetail(exchange('a'.repeat(4097))).split('\n')[3], `${'a'.repeat(4096)}… (1 more bytes)`);
	});

	it('never shows a secret of a large exchange, whose beginning alone is redacted for the log', () => {
		const secret = 'p@ss word&=<secret>';
		const forms = [secret, encodeURIComponent(secret), secret.replace(/&/g, '&amp;').replace(/</g, '&lt;')];
		const filler = 'z'.repeat(200_000);
		for (const cut of [4096 - 30, 4096 - 3, 4096 + 2]) {
			const head = `${'a'.repeat(cut - 13)}<sPassword>${forms[cut % 3]}</sPassword>`;
			const body = `${forms[0]} ${forms[1]} ${head}${filler}${forms[2]}`;
			const detail = exchangeDetail(redactExchange(exchange(body), [secret]));
			for (const form of forms) assert.ok(!detail.includes(form), `${form} shown when cut at ${cut}`);
			assert.match(detail, /^\*\*\* \*\*\* a/m);
			assert.match(detail, /… \(\d+ more bytes\)$/);
		}
	});
});
