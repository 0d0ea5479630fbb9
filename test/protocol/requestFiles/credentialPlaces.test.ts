import * as assert from 'node:assert/strict';
import {
	credentialRoleOf,
	namesCredential,
	writtenCredentials,
} from '../../../src/protocol/requestFiles/credentialPlaces';
import { createPlaceholderRedactor } from '../../../src/protocol/requestFiles/placeholderRedactor';

describe('credential places (one set of patterns for the redactor and the journal)', () => {
	it('knows a credential parameter in any case, and nothing else', () => {
		assert.equal(credentialRoleOf('sAPIKey'), 'apiKey');
		assert.equal(credentialRoleOf('SAPIKEY'), 'apiKey');
		assert.equal(credentialRoleOf('spassword'), 'password');
		assert.equal(credentialRoleOf('sUsername'), undefined);
		assert.equal(namesCredential('<sCultureID>en</sCultureID>'), false);
	});

	it('reads elements (any prefix, attributes, any case) and form fields, raw as written', () => {
		const text =
			'<m:SAPIKEY xmlns:m="urn:x">k&amp;1</m:SAPIKEY><sPassword a="b">p w</sPassword>?sAPIKey=q%2B1&sPassword=r+2';
		assert.deepEqual(writtenCredentials(text), [
			{ role: 'apiKey', raw: 'k&amp;1', kind: 'element' },
			{ role: 'password', raw: 'p w', kind: 'element' },
			{ role: 'apiKey', raw: 'q%2B1', kind: 'field' },
			{ role: 'password', raw: 'r+2', kind: 'field' },
		]);
	});

	it('reads a value with a NUL inside it as written, where the redactor of joined texts stops', () => {
		const text = '<sAPIKey>real-key\0tail</sAPIKey>';
		assert.deepEqual(writtenCredentials(text), [{ role: 'apiKey', raw: 'real-key\0tail', kind: 'element' }]);
		// So the journal learns the value and hides it though the element pattern cannot match across the NUL.
		const redact = createPlaceholderRedactor([{ role: 'apiKey', value: 'real-key\0tail' }]);
		assert.equal(redact.text(text), '<sAPIKey>{{connection.apiKey}}</sAPIKey>');
	});

	it('finds what the redactor replaces: every written value is gone from the redacted text', () => {
		const texts = [
			'<soap:Body><sAPIKey>alpha-key-1</sAPIKey><ns:sPassword>beta-pass-2</ns:sPassword></soap:Body>',
			'sAPIKey=gamma-key-3&sCultureID=en-GB&sPassword=delta-pass-4',
			'a=1;sAPIKey=eps-key-5 sPassword=zeta-pass-6',
		];
		for (const text of texts) {
			const written = writtenCredentials(text);
			assert.equal(written.length, 2, text);
			const redacted = createPlaceholderRedactor({}).text(text);
			for (const { raw } of written) assert.ok(!redacted.includes(raw), `${raw} is hidden in ${redacted}`);
		}
	});
});
