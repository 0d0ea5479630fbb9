import * as assert from 'node:assert/strict';
import { relativeHref } from '../../../src/emulator/pages/html';

describe('relative links of the sandbox pages', function () {
	it('links between pages without absolute paths, so any path prefix is kept', function () {
		const cases: [string, string, string][] = [
			['/web/adverts', '/web/', './'],
			['/web/', '/web/adverts', 'adverts'],
			['/web/adverts/5', '/web/postings', '../postings'],
			['/web/adverts', '/web/adverts?page=2', 'adverts?page=2'],
			['/web/applications/7', '/web/adverts/5', '../adverts/5'],
			['/login/tok', '/web/adverts/5', '../web/adverts/5'],
			['/login/tok', '/web/', '../web/'],
			['/complete-posting/abc', '/complete-posting/abc', 'abc'],
			['/SOAP/Posting.asmx', '/SOAP/Posting.asmx?op=GetCurrency', 'Posting.asmx?op=GetCurrency'],
			['/SOAP/Posting.asmx', '/', '../'],
			['/', '/SOAP/Posting.asmx?WSDL', 'SOAP/Posting.asmx?WSDL'],
			['/web', '/web/', 'web/'],
			['/a', '/x:y', './x:y'],
		];
		for (const [from, to, expected] of cases) {
			assert.equal(relativeHref(from, to), expected, `${from} -> ${to}`);
			// Resolved against the page under a prefix, the link reaches the target under the same prefix.
			const base = `http://ide.example/proxy/8099${from}`;
			assert.equal(new URL(relativeHref(from, to), base).href, `http://ide.example/proxy/8099${to}`);
		}
	});
});
