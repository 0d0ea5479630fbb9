import * as assert from 'node:assert/strict';
import {
	checkedRecordingText,
	CredentialInRecordingError,
	credentialsLeft,
} from '../../../src/protocol/recordings/credentials';
import { parseRecording, serializeRecording, type Recording } from '../../../src/protocol/recordings/format';
import { recordedExchange, recordingOf } from '../../builders/recordings';
import {
	createPlaceholderRedactor,
	ECHOED_SECRET_MARK,
	type RoleSecret,
} from '../../../src/protocol/requestFiles/placeholderRedactor';
import { echoedSecretForms, secretForms } from '../../../src/protocol/secretForms';

const API_KEY = 'Live-Key&<42>"quoted" it\'s/plus+';
const PASSWORD = 'p@ss w0rd/é+100%&more';
const SECRETS: RoleSecret[] = [
	{ role: 'apiKey', value: API_KEY },
	{ role: 'password', value: PASSWORD },
];

/** A recording whose answer's body carries `text` inside an element that is no credential. */
function answering(text: string): Recording {
	const base = recordedExchange(1);
	return recordingOf([
		{ ...base, response: { ...base.response, body: `<Note xmlns="https://api.example.test/">${text}</Note>` } },
	]);
}

/** A recording whose request body carries `text` (an HTTP POST form). */
function posting(text: string): Recording {
	const base = recordedExchange(1);
	return recordingOf([
		{
			...base,
			request: {
				...base.request,
				method: 'POST',
				query: '',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: text,
			},
		},
	]);
}

function refusal(value: Recording, secrets: readonly RoleSecret[] = SECRETS): CredentialInRecordingError {
	try {
		checkedRecordingText(value, secrets);
	} catch (error) {
		assert.ok(error instanceof CredentialInRecordingError, String(error));
		return error;
	}
	assert.fail('the recording was accepted');
}

/** Base64 of `secret` inside longer text, starting at each of the three alignments. */
function base64Embeddings(secret: string): string[] {
	const texts: string[] = [];
	for (const lead of ['', 'a', 'ab']) {
		const standard = Buffer.from(`${lead}${secret} and more text`, 'utf8').toString('base64');
		texts.push(standard, standard.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	return texts;
}

describe('credentials in recordings', () => {
	const redact = createPlaceholderRedactor(SECRETS, { echoed: true }).text;

	describe('every form becomes its placeholder, and the redacted recording is accepted', () => {
		for (const [role, secret, placeholder] of [
			['apiKey', API_KEY, '{{connection.apiKey}}'],
			['password', PASSWORD, '{{connection.password}}'],
		] as const) {
			const forms = secretForms(secret);
			it(`${role}: ${forms.length} plain, percent-, form- and XML-encoded forms become ${placeholder}`, () => {
				// The forms really differ: plain, encoded for URLs and forms, escaped for XML.
				assert.ok(forms.includes(secret));
				assert.ok(forms.includes(encodeURIComponent(secret)));
				assert.ok(forms.includes(new URLSearchParams({ v: secret }).toString().slice(2)));
				assert.ok(forms.some((form) => form.includes('&amp;') || form.includes('&#')));
				for (const form of forms) {
					const redacted = redact(`before ${form} after`);
					assert.equal(redacted, `before ${placeholder} after`, `form ${form}`);
					const text = checkedRecordingText(answering(redacted), SECRETS);
					assert.ok(text.includes(placeholder));
				}
			});

			it(`${role}: the echoed forms (escaped twice, JSON, base64) become ${ECHOED_SECRET_MARK}`, () => {
				const echoed = echoedSecretForms(secret);
				assert.ok(echoed.length > 0);
				for (const form of echoed) {
					const redacted = redact(`[${form}]`);
					assert.ok(!redacted.includes(form), `form ${form} remains in ${redacted}`);
					assert.ok(redacted.includes(ECHOED_SECRET_MARK), `form ${form}: ${redacted}`);
					checkedRecordingText(answering(redacted), SECRETS);
				}
			});
		}

		it('a credential element or field holds its placeholder whatever it held', () => {
			const query = redact('sCultureID=en-GB&sAPIKey=some-other-key&sPassword=hunter2');
			assert.equal(query, 'sCultureID=en-GB&sAPIKey={{connection.apiKey}}&sPassword={{connection.password}}');
			const body = redact('<m:sAPIKey xmlns:m="urn:x">another key</m:sAPIKey><sPassword>x</sPassword>');
			assert.equal(
				body,
				'<m:sAPIKey xmlns:m="urn:x">{{connection.apiKey}}</m:sAPIKey><sPassword>{{connection.password}}</sPassword>',
			);
			const base = recordedExchange(1);
			const text = checkedRecordingText(
				recordingOf([
					{
						...base,
						request: { ...base.request, query, body, params: { sAPIKey: '{{connection.apiKey}}' } },
					},
				]),
				SECRETS,
			);
			assert.ok(!text.includes('some-other-key') && !text.includes('hunter2') && !text.includes('another key'));
		});

		it('the accepted text is the recording as its file is written, and reads back', () => {
			const value = answering('nothing secret here');
			const text = checkedRecordingText(value, SECRETS);
			assert.equal(text, serializeRecording(value));
			assert.deepEqual(parseRecording(text, 'x.mprec.json'), value);
		});
	});

	describe('a credential that remains is refused', () => {
		for (const [role, secret] of [
			['apiKey', API_KEY],
			['password', PASSWORD],
		] as const) {
			it(`${role} in each plain, percent-, form- and XML-encoded form, naming the field`, () => {
				for (const form of secretForms(secret)) {
					const error = refusal(answering(form));
					assert.deepEqual(error.places, ['exchanges[0].response.body'], `form ${form}`);
					assert.match(error.message, /exchanges\[0\]\.response\.body/);
					assert.match(error.message, /nothing was written/);
					assert.equal(error.name, 'CredentialInRecordingError');
				}
			});

			it(`${role} in each echoed form (escaped twice, JSON-escaped, base64 at every alignment)`, () => {
				for (const form of echoedSecretForms(secret)) {
					assert.deepEqual(refusal(answering(form)).places, ['exchanges[0].response.body'], `form ${form}`);
				}
				for (const text of base64Embeddings(secret)) {
					assert.deepEqual(refusal(answering(text)).places, ['exchanges[0].response.body'], `text ${text}`);
				}
			});

			it(`${role} in a form body and in a query, URL- and form-encoded`, () => {
				const form = new URLSearchParams({ sAdvertIdentifier: secret }).toString();
				assert.deepEqual(refusal(posting(form)).places, ['exchanges[0].request.body']);
				const base = recordedExchange(1);
				const query = `sCultureID=en-GB&sAdvertReference=${encodeURIComponent(secret)}`;
				assert.deepEqual(refusal(recordingOf([{ ...base, request: { ...base.request, query } }])).places, [
					'exchanges[0].request.query',
				]);
			});
		}

		it('a credential element or field with any value but its placeholder or nothing', () => {
			const base = recordedExchange(1);
			const withQuery = (query: string) => recordingOf([{ ...base, request: { ...base.request, query } }]);
			assert.deepEqual(refusal(withQuery('sAPIKey=unknown-to-anyone')).places, ['exchanges[0].request.query']);
			assert.deepEqual(refusal(posting('sPassword=whatever&sUsername=ada')).places, [
				'exchanges[0].request.body',
			]);
			assert.deepEqual(refusal(answering('<sPassword>not known</sPassword>')).places, [
				'exchanges[0].response.body',
			]);
			checkedRecordingText(withQuery('sAPIKey='), SECRETS);
			checkedRecordingText(answering('<sPassword></sPassword>'), SECRETS);
			checkedRecordingText(answering('<sPassword>{{connection.password}}</sPassword>'), SECRETS);
		});

		it('a decoded credential parameter holds its placeholder or nothing', () => {
			const base = recordedExchange(1);
			const withParams = (params: Record<string, string>) =>
				recordingOf([{ ...base, request: { ...base.request, params } }]);
			assert.deepEqual(refusal(withParams({ sCultureID: 'en-GB', sAPIKey: 'typed by hand' })).places, [
				'exchanges[0].request.params.sAPIKey',
			]);
			assert.deepEqual(refusal(withParams({ sPassword: 'x' })).places, ['exchanges[0].request.params.sPassword']);
			checkedRecordingText(withParams({ sAPIKey: '', sPassword: '{{connection.password}}' }), SECRETS);
		});

		it('a secret in a field name, a header or another exchange is named there', () => {
			const secret = 'lowercase-secret-key';
			const secrets: RoleSecret[] = [{ role: 'apiKey', value: secret }];
			const base = recordedExchange(1);
			assert.deepEqual(
				refusal(
					recordingOf([{ ...base, request: { ...base.request, headers: { [`x-${secret}`]: 'yes' } } }]),
					secrets,
				).places,
				['exchanges[0].request.headers.(a field name)'],
			);
			assert.deepEqual(
				refusal(
					recordingOf([
						recordedExchange(1),
						{ ...recordedExchange(2), response: { ...base.response, headers: { 'x-echo': secret } } },
					]),
					secrets,
				).places,
				['exchanges[1].response.headers.x-echo'],
			);
			assert.deepEqual(
				refusal({ ...recordingOf(), upstream: `https://${secret}@example.com/` }, secrets).places,
				['upstream'],
			);
		});

		it('a short secret only where it stands as a whole token', () => {
			const secrets: RoleSecret[] = [{ role: 'password', value: 'k3y' }];
			assert.deepEqual(refusal(answering('the k3y is here'), secrets).places, ['exchanges[0].response.body']);
			checkedRecordingText(answering('monk3yish'), secrets);
		});

		it('names ten places at most', () => {
			const exchanges = Array.from({ length: 15 }, (_, index) => ({
				...recordedExchange(index + 1),
				response: { ...recordedExchange(index + 1).response, body: API_KEY },
			}));
			const error = refusal(recordingOf(exchanges));
			assert.equal(error.places.length, 10);
			assert.equal(error.places[9], 'exchanges[9].response.body');
		});

		it('credentialsLeft lists nothing for a clean recording and ignores empty secrets', () => {
			assert.deepEqual(credentialsLeft(recordingOf(), SECRETS), []);
			assert.deepEqual(credentialsLeft(recordingOf(), [{ role: 'apiKey', value: '' }]), []);
			assert.deepEqual(credentialsLeft(recordingOf(), []), []);
		});
	});
});
