import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { BINDING_NAMES, getBinding } from '../../src/protocol/bindings';
import { OPERATIONS, OPERATION_NAMES, type OperationName } from '../../src/protocol/catalogue';
import { escapeAttr, escapeText } from '../../src/protocol/codecs/xml';
import { echoedSecretForms } from '../../src/protocol/secretForms';
import {
	CONNECTION_PLACEHOLDERS,
	ECHOED_SECRET_MARK,
	REQUEST_FILE_HEADER,
	createPlaceholderRedactor,
	RequestFileError,
	parseRawHttpRequest,
	parseRequestFile,
	replaceSecretsWithPlaceholders,
	serializeRequestFile,
	substitutePlaceholders,
	type RequestDocument,
} from '../../src/protocol/requestFile';

const API_KEY = 'k3y&<"secret">+/=';
const PASSWORD = 'p@ss word+%é';

function issuesOf(text: string): { line: number; message: string }[] {
	try {
		parseRequestFile(text);
	} catch (error) {
		assert.ok(error instanceof RequestFileError, String(error));
		return error.issues;
	}
	assert.fail('expected a RequestFileError');
}

describe('request files (.mpreq)', () => {
	it('writes the documented header block and one line per parameter in catalogue order', () => {
		const text = serializeRequestFile({
			operation: 'UserFeedsAndQuotaWithDestinations',
			binding: 'soap12',
			endpoint: 'posting',
			params: {
				Destinations: ['108', 'Totaljobs'],
				sPassword: '{{connection.password}}',
				sCultureID: 'en-GB',
				sAPIKey: '{{connection.apiKey}}',
			},
		});
		assert.equal(
			text,
			[
				REQUEST_FILE_HEADER,
				'operation: UserFeedsAndQuotaWithDestinations',
				'binding: soap12',
				'endpoint: posting',
				'param.sCultureID: en-GB',
				'param.sAPIKey: {{connection.apiKey}}',
				'param.sPassword: {{connection.password}}',
				'param.Destinations: 108',
				'param.Destinations: Totaljobs',
				'',
			].join('\n'),
		);
	});

	it('round-trips typed values, awkward strings and a raw request', () => {
		const doc: RequestDocument = {
			operation: 'GetApplicationsPaged',
			binding: 'httpPost',
			endpoint: 'posting',
			params: {
				sAdvertID: '12',
				CurrentPage: 1,
				RowsPerPage: 50,
				OrderBy: ' padded ',
				sAdvertReference: 'two\nlines',
				sUsername: '"quoted"',
				sStartOrganisation: '',
			},
			raw: {
				method: 'POST',
				target: '/SOAP/Posting.asmx/GetApplicationsPaged',
				headers: [['Content-Type', 'application/x-www-form-urlencoded']],
				body: 'sAPIKey={{connection.apiKey}}&CurrentPage=1\n\nsecond line',
			},
		};
		assert.deepEqual(parseRequestFile(serializeRequestFile(doc)), doc);
	});

	it('round-trips any string values of any operation (property)', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(...OPERATION_NAMES),
				fc.array(fc.string(), { maxLength: 3 }),
				fc.string(),
				(operation: OperationName, list, text) => {
					const params: RequestDocument['params'] = {};
					for (const param of OPERATIONS[operation].params) {
						if (param.role === 'apiKey' || param.role === 'password') {
							params[param.name] = CONNECTION_PLACEHOLDERS[param.role];
						} else if (param.type === 'string[]') params[param.name] = list.length > 0 ? list : ['x'];
						else if (param.type === 'int') params[param.name] = 7;
						else if (param.type === 'boolean') params[param.name] = false;
						else params[param.name] = text;
					}
					const doc: RequestDocument = {
						operation,
						binding: 'soap11',
						endpoint: OPERATIONS[operation].endpoint,
						params,
					};
					assert.deepEqual(parseRequestFile(serializeRequestFile(doc)), doc);
				},
			),
			{ numRuns: 200 },
		);
	});

	it('never writes a secret: credential params become placeholders and secrets anywhere are replaced', () => {
		const text = serializeRequestFile(
			{
				operation: 'ApplicationScore',
				binding: 'httpGet',
				endpoint: 'posting',
				params: {
					sAPIKey: API_KEY,
					sPassword: PASSWORD,
					sUsername: 'demo.admin',
					sAdvertID: '1',
					sScore: `S${API_KEY}`,
				},
				raw: {
					method: 'GET',
					target: `/SOAP/Posting.asmx/ApplicationScore?sAPIKey=${encodeURIComponent(API_KEY)}&sPassword=${new URLSearchParams({ v: PASSWORD }).toString().slice(2)}`,
					headers: [['X-Key', API_KEY]],
					body: `<sAPIKey>k3y&amp;&lt;&quot;secret&quot;&gt;+/=</sAPIKey><sPassword>${PASSWORD}</sPassword>`,
				},
			},
			{ apiKey: API_KEY, password: PASSWORD },
		);
		for (const form of [
			API_KEY,
			PASSWORD,
			encodeURIComponent(API_KEY),
			encodeURIComponent(PASSWORD),
			'k3y&amp;',
			'p@ss word',
			'p%40ss',
		]) {
			assert.ok(!text.includes(form), `the file contains ${form}:\n${text}`);
		}
		assert.match(text, /param\.sAPIKey: \{\{connection\.apiKey\}\}/);
		assert.match(text, /param\.sPassword: \{\{connection\.password\}\}/);
		assert.match(text, /X-Key: \{\{connection\.apiKey\}\}/);
		const doc = parseRequestFile(text);
		assert.equal(doc.params.sUsername, 'demo.admin');
	});

	it('reads hand-written files: comments, blank lines, any order, defaults for binding and endpoint', () => {
		const doc = parseRequestFile(
			'# my request\n\nparam.sCultureID: en\r\noperation: GetCurrency\r\n# the key comes from the connection\nparam.sAPIKey: {{connection.apiKey}}\n',
		);
		assert.deepEqual(doc, {
			operation: 'GetCurrency',
			binding: 'soap11',
			endpoint: 'posting',
			params: { sCultureID: 'en', sAPIKey: '{{connection.apiKey}}' },
		});
	});

	it('reports every problem of a hand-written file with its line number', () => {
		const issues = issuesOf(
			[
				'# Multiposting request',
				'operation: GetApplicationsPaged',
				'binding: soap13',
				'endpoint: administration',
				'param.CurrentPage: one',
				'param.RowsPerPage: 99999999999',
				'param.sNope: 1',
				'this line has no colon',
				'colour: blue',
				'param.sAdvertID: 1',
				'param.sAdvertID: 2',
				'param.OrderBy: "unterminated',
			].join('\n'),
		);
		assert.deepEqual(
			issues.map((issue) => issue.line),
			[3, 4, 5, 6, 7, 8, 9, 11, 12],
		);
		assert.match(issues[0].message, /unknown binding "soap13"/);
		assert.match(issues[1].message, /belongs to the posting endpoint/);
		assert.match(issues[2].message, /CurrentPage must be a whole number/);
		assert.match(issues[3].message, /RowsPerPage must fit a 32-bit int/);
		assert.match(issues[4].message, /has no parameter sNope/);
		assert.match(issues[5].message, /key: value/);
		assert.match(issues[6].message, /unknown key "colour"/);
		assert.match(issues[7].message, /given twice \(first on line 10\)/);
		assert.match(issues[8].message, /not a valid JSON string/);
	});

	it('requires an operation and rejects unknown ones', () => {
		assert.match(issuesOf('binding: soap11\n')[0].message, /names no operation/);
		assert.match(
			issuesOf('operation: ApplicationScore\nparam.sScoreAsJobOwner: yes\n')[0].message,
			/sScoreAsJobOwner must be true or false/,
		);
		const unknown = issuesOf('operation: GetEverything\n');
		assert.deepEqual(
			unknown.map((issue) => issue.line),
			[2 - 1],
		);
		assert.match(unknown[0].message, /unknown operation "GetEverything"/);
	});

	it('reports malformed raw requests with the line in the file', () => {
		const issues = issuesOf('operation: GetCurrency\n---\nPOST\n');
		assert.deepEqual(
			issues.map((issue) => issue.line),
			[3],
		);
		assert.match(issues[0].message, /request line/);
		const headerIssues = issuesOf('operation: GetCurrency\n---\nPOST /x HTTP/1.1\nContent-Type text/xml\n\n<a/>\n');
		assert.deepEqual(
			headerIssues.map((issue) => issue.line),
			[4],
		);
	});

	it('keeps a raw body byte for byte, malformed or not', () => {
		const raw = parseRawHttpRequest(
			'POST /SOAP/Posting.asmx HTTP/1.1\nContent-Type: text/xml\n\n<soap:Envelope><unclosed>\n  spaced  ',
		);
		assert.equal(raw.body, '<soap:Envelope><unclosed>\n  spaced  ');
		assert.deepEqual(raw.headers, [['Content-Type', 'text/xml']]);
	});

	it('substitutes placeholders with an encoder and turns secrets back into placeholders', () => {
		const values = { apiKey: 'a b', culture: 'en-GB' };
		assert.equal(
			substitutePlaceholders(
				'k={{connection.apiKey}}&c={{connection.culture}}&p={{connection.password}}',
				values,
				encodeURIComponent,
			),
			'k=a%20b&c=en-GB&p=',
		);
		assert.equal(
			replaceSecretsWithPlaceholders('x=a%20b y=a+b z=a b', { apiKey: 'a b' }),
			'x={{connection.apiKey}} y={{connection.apiKey}} z={{connection.apiKey}}',
		);
		// A secret under 6 characters only as a whole token: a one-letter password leaves other words alone.
		assert.equal(
			replaceSecretsWithPlaceholders('<sCultureID>k</sCultureID> Connection: keep-alive', { password: 'k' }),
			'<sCultureID>{{connection.password}}</sCultureID> Connection: keep-alive',
		);
	});

	it('hides the forms a service may echo a secret in, with a mark no placeholder can be mistaken for', () => {
		const key = `key/"<&'>7f3a`;
		const redactor = createPlaceholderRedactor([{ role: 'apiKey', value: key }], { echoed: true });
		for (const form of echoedSecretForms(key)) {
			const redacted = redactor.text(`before ${form} after`);
			assert.equal(redacted, `before ${ECHOED_SECRET_MARK} after`, JSON.stringify(form));
		}
		for (const offset of [0, 1, 2]) {
			const base64 = Buffer.from(`${'u'.repeat(offset)}:${key}:tail`).toString('base64');
			const redacted = redactor.text(base64);
			assert.ok(redacted.includes(ECHOED_SECRET_MARK), `offset ${offset}: ${redacted}`);
			for (const form of echoedSecretForms(key)) assert.ok(!redacted.includes(form), `offset ${offset}`);
		}
		// Without the option (history, request files) a placeholder stands only where it can be sent back.
		assert.equal(createPlaceholderRedactor({ apiKey: key }).text(JSON.stringify(key)), JSON.stringify(key));
	});

	it('redacts several values of one role, each with its placeholder, the longest first', () => {
		const redactor = createPlaceholderRedactor([
			{ role: 'apiKey', value: 'first-key-1234' },
			{ role: 'apiKey', value: 'first-key-1234-longer' },
			{ role: 'password', value: 'pass word' },
		]);
		assert.equal(
			redactor.text('a=first-key-1234-longer b=first-key-1234 c=pass+word d=pass%20word'),
			'a={{connection.apiKey}} b={{connection.apiKey}} c={{connection.password}} d={{connection.password}}',
		);
	});

	it('turns secrets back into placeholders in bodies the bindings wrote, however they escaped them', () => {
		const secrets = { apiKey: `a&"b'<c>`, password: 'p&q"r' };
		const ctx = { namespace: 'http://mp.example/', endpointPath: '/SOAP/Posting.asmx' };
		for (const binding of BINDING_NAMES) {
			const request = getBinding(binding).encodeRequest(
				'GetCurrency',
				{ sCultureID: 'en-GB', sAPIKey: secrets.apiKey },
				ctx,
			);
			const body = request.body === undefined ? '' : Buffer.from(request.body).toString('utf8');
			const scrubbed = replaceSecretsWithPlaceholders(`${request.path}\n${body}`, secrets);
			assert.ok(scrubbed.includes(CONNECTION_PLACEHOLDERS.apiKey), `${binding}: ${scrubbed}`);
			assert.ok(!/a&(amp;)?"b|a%26/.test(scrubbed), `${binding} leaks the key: ${scrubbed}`);
		}
		const attribute = `<x k="${escapeAttr(secrets.password)}">${escapeText(secrets.password)}</x>`;
		assert.equal(
			replaceSecretsWithPlaceholders(attribute, secrets),
			'<x k="{{connection.password}}">{{connection.password}}</x>',
		);
	});
});
