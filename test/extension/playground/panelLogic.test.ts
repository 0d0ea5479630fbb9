import * as assert from 'node:assert/strict';
import { curlNotice, curlSecretsOf } from '../../../src/extension/playground/curlChoice';
import { documentFileName, EditorTextStore } from '../../../src/extension/playground/editorTexts';
import { formForAdvert, formForApplication, formForNode } from '../../../src/extension/playground/openFor';
import { parseWebviewMessage } from '../../../src/shared/playgroundMessages';

describe('playground host logic', function () {
	describe('read-only editor texts', function () {
		it('names documents after their title with the extension that picks the language', function () {
			assert.equal(
				documentFileName('GetCurrency response (SOAP 1.1)', 'xml'),
				'GetCurrency response (SOAP 1.1).xml',
			);
			assert.equal(documentFileName('a/b\\c:d', 'plaintext'), 'a_b_c_d.txt');
			assert.equal(documentFileName('///', 'xml'), '_.xml');
		});

		it('keeps the newest texts under distinct paths and forgets the oldest', function () {
			const store = new EditorTextStore({ texts: 2, chars: 1000 });
			const first = store.add({ title: 'A', text: 'one', language: 'xml' });
			const second = store.add({ title: 'A', text: 'two', language: 'xml' });
			assert.notEqual(first, second);
			assert.equal(store.get(second), 'two');
			store.add({ title: 'B', text: 'three', language: 'plaintext' });
			assert.equal(store.get(first), undefined);
			assert.equal(store.get(second), 'two');
		});

		it('keeps the characters it holds bounded, the newest text always, and forgets a closed document', function () {
			const store = new EditorTextStore({ texts: 10, chars: 10 });
			const small = store.add({ title: 'small', text: 'abc', language: 'xml' });
			const large = store.add({ title: 'large', text: 'x'.repeat(20), language: 'xml' });
			assert.equal(store.get(small), undefined, 'the oldest goes first once the characters pass the bound');
			assert.equal(store.get(large), 'x'.repeat(20), 'the newest is kept even alone over the bound');
			store.forget(large);
			assert.equal(store.get(large), undefined);
		});
	});

	describe('copy as curl', function () {
		it('uses environment variables unless the saved choice says include', function () {
			assert.equal(curlSecretsOf(undefined), 'environment');
			assert.equal(curlSecretsOf('nonsense'), 'environment');
			assert.equal(curlSecretsOf('include'), 'include');
		});

		it('says what it did and offers the other choice', function () {
			const env = curlNotice('environment');
			assert.match(env.message, /\$MP_API_KEY and \$MP_PASSWORD/);
			assert.equal(env.switchTo, 'include');
			const include = curlNotice('include');
			assert.match(include.message, /real API key and password \(your saved choice\)/);
			assert.equal(include.switchTo, 'environment');
		});
	});

	describe('open in playground', function () {
		it('reads the applications of an advert with GetApplicationsPaged', function () {
			const form = formForAdvert({ advertId: 1001 });
			assert.equal(form.operation, 'GetApplicationsPaged');
			assert.equal(form.params.sAdvertID, '1001');
			assert.equal(form.params.CurrentPage, '1');
			assert.equal(form.params.RowsPerPage, '50');
			assert.equal(form.params.sAPIKey, '{{connection.apiKey}}');
		});

		it('reads exactly one application', function () {
			const form = formForApplication({ advertId: 1001, advertCandidateId: 5003 });
			assert.deepEqual(
				[form.params.AdvertCandidateIDAsCSV, form.params.sAdvertID, form.params.RowsPerPage],
				['5003', '1001', '1'],
			);
		});

		it('takes tree nodes: an application first, then an advert, else nothing', function () {
			assert.equal(
				formForNode({ application: { AdvertCandidateID: 7, AdvertID: 3 } })?.params.AdvertCandidateIDAsCSV,
				'7',
			);
			assert.equal(formForNode({ advert: { AdvertID: 3 } })?.params.sAdvertID, '3');
			assert.equal(formForNode({ kind: 'organisation' }), undefined);
			assert.equal(formForNode(undefined), undefined);
		});
	});

	describe('message validation', function () {
		it('accepts editor texts, diffs and copies of the contract', function () {
			assert.deepEqual(
				parseWebviewMessage({
					type: 'openDocument',
					document: { title: 'T', text: '<a/>', language: 'xml', position: { line: 2, column: 3 } },
					extra: 1,
				}),
				{
					type: 'openDocument',
					document: { title: 'T', text: '<a/>', language: 'xml', position: { line: 2, column: 3 } },
				},
			);
			assert.ok(
				parseWebviewMessage({
					type: 'openDiff',
					left: { title: 'L', text: '', language: 'plaintext' },
					right: { title: 'R', text: 'x', language: 'xml' },
				}),
			);
			assert.deepEqual(parseWebviewMessage({ type: 'copyText', label: 'CSV', text: 'a,b' }), {
				type: 'copyText',
				label: 'CSV',
				text: 'a,b',
			});
		});

		it('refuses anything else', function () {
			for (const message of [
				{ type: 'openDocument', document: { title: 'T', text: 'x', language: 'javascript' } },
				{ type: 'openDocument', document: { title: '', text: 'x', language: 'xml' } },
				{
					type: 'openDocument',
					document: { title: 'T', text: 'x', language: 'xml', position: { line: 0, column: 1 } },
				},
				{ type: 'openDiff', left: { title: 'L', text: '', language: 'xml' } },
				{ type: 'copyText', label: 'x'.repeat(101), text: '' },
				{ type: 'copyText', label: 'CSV', text: 42 },
			]) {
				assert.equal(parseWebviewMessage(message), undefined, JSON.stringify(message).slice(0, 80));
			}
		});
	});
});
