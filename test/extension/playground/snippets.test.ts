import * as assert from 'node:assert/strict';
import {
	SNIPPET_LANGUAGES,
	csharpHttpClientSnippet,
	phpSoapClientSnippet,
	pythonZeepSnippet,
	requestSnippet,
	typescriptClientSnippet,
	type SnippetRequest,
} from '../../../src/extension/playground/snippets';
import type { Target } from '../../../src/extension/playground/request';
import type { BindingName } from '../../../src/protocol/bindings/types';
import { DEFAULT_ENDPOINT_PATHS, type OperationName } from '../../../src/protocol/catalogue';
import { CONNECTION_PLACEHOLDERS, type RequestParamValue } from '../../../src/protocol/requestFile';

const TARGET: Target = {
	baseUrl: 'http://127.0.0.1:8099',
	namespace: 'http://127.0.0.1:8099/',
	paths: DEFAULT_ENDPOINT_PATHS,
};
const VALUES = { apiKey: 'real-key&<>', password: 'real "pass"', username: 'demo.admin', culture: 'en-GB' };
const PARAMS = {
	sCultureID: CONNECTION_PLACEHOLDERS.culture,
	sAPIKey: CONNECTION_PLACEHOLDERS.apiKey,
	sUsername: CONNECTION_PLACEHOLDERS.username,
	sPassword: CONNECTION_PLACEHOLDERS.password,
	Destinations: ['108', "Total'jobs"],
};

function request(
	operation: OperationName,
	binding: BindingName,
	params: Readonly<Record<string, RequestParamValue>>,
): SnippetRequest {
	return { operation, binding, params, target: TARGET, values: VALUES };
}

describe('snippets in other languages', () => {
	it('never contain a secret, in any language and binding', () => {
		for (const { id } of SNIPPET_LANGUAGES) {
			for (const binding of ['soap11', 'soap12', 'httpGet', 'httpPost'] as const) {
				const text = requestSnippet(id, request('UserFeedsAndQuotaWithDestinations', binding, PARAMS));
				assert.ok(
					!text.includes('real-key') && !text.includes('real "pass"') && !text.includes('real ""pass'),
					`${id} ${binding}:\n${text}`,
				);
				assert.ok(text.includes('MP_API_KEY'), `${id} ${binding} reads MP_API_KEY`);
			}
		}
	});

	it('Python: zeep on the port of the binding, lists as ArrayOfString', () => {
		assert.equal(
			pythonZeepSnippet(request('UserFeedsAndQuotaWithDestinations', 'soap12', PARAMS)),
			[
				'# pip install zeep',
				'import os',
				'',
				'from zeep import Client',
				'',
				'client = Client("http://127.0.0.1:8099/SOAP/Posting.asmx?WSDL")',
				'service = client.bind("Posting", "PostingSoap12")',
				'result = service.UserFeedsAndQuotaWithDestinations(',
				'    sCultureID="en-GB",',
				'    sAPIKey=os.environ["MP_API_KEY"],',
				'    sUsername="demo.admin",',
				'    sPassword=os.environ["MP_PASSWORD"],',
				'    Destinations={"string": ["108", "Total\'jobs"]},',
				')',
				'print(result)',
			].join('\n'),
		);
		assert.match(
			pythonZeepSnippet(request('GetCurrency', 'soap11', {})),
			/service = client\.service .*\nresult = service\.GetCurrency\(\)/,
		);
	});

	it('PHP: SoapClient with the SOAP version, quotes escaped', () => {
		const text = phpSoapClientSnippet(request('UserFeedsAndQuotaWithDestinations', 'soap11', PARAMS));
		assert.match(
			text,
			/^<\?php\n\$client = new SoapClient\('http:\/\/127\.0\.0\.1:8099\/SOAP\/Posting\.asmx\?WSDL', \['soap_version' => SOAP_1_1/,
		);
		assert.match(text, /'sAPIKey' => getenv\('MP_API_KEY'\),/);
		assert.match(text, /'Destinations' => \['string' => \['108', 'Total\\'jobs'\]\],/);
		assert.match(text, /var_dump\(\$response->UserFeedsAndQuotaWithDestinationsResult\);$/);
		assert.match(phpSoapClientSnippet(request('GetCurrency', 'httpGet', {})), /SoapClient speaks SOAP only/);
	});

	it('C#: HttpClient with the exact envelope, secrets escaped where they land', () => {
		const soap = csharpHttpClientSnippet(
			request('GetCurrency', 'soap12', { sCultureID: 'en-GB', sAPIKey: CONNECTION_PLACEHOLDERS.apiKey }),
		);
		assert.match(
			soap,
			/new HttpRequestMessage\(HttpMethod\.Post, @"http:\/\/127\.0\.0\.1:8099\/SOAP\/Posting\.asmx"\)/,
		);
		assert.match(soap, /<sAPIKey>" \+ SecurityElement\.Escape\(apiKey\) \+ @"<\/sAPIKey>/);
		assert.match(
			soap,
			/MediaTypeHeaderValue\.Parse\(@"application\/soap\+xml; charset=utf-8; action=""http:\/\/127\.0\.0\.1:8099\/GetCurrency"""\)/,
		);
		const get = csharpHttpClientSnippet(
			request('GetCurrency', 'httpGet', { sCultureID: 'en-GB', sAPIKey: CONNECTION_PLACEHOLDERS.apiKey }),
		);
		assert.match(
			get,
			/HttpMethod\.Get, @"http:\/\/127\.0\.0\.1:8099\/SOAP\/Posting\.asmx\/GetCurrency\?sCultureID=en-GB&sAPIKey=" \+ Uri\.EscapeDataString\(apiKey\)/,
		);
		assert.ok(!get.includes('StringContent'));
	});

	it("TypeScript: a program over this project's client", () => {
		const text = typescriptClientSnippet(request('UserFeedsAndQuotaWithDestinations', 'httpPost', PARAMS));
		assert.match(text, /import \{ MultipostingClient \} from '\.\/src\/client';/);
		assert.match(text, /binding: 'httpPost',/);
		assert.match(text, /apiKey: process\.env\.MP_API_KEY \?\? '',/);
		assert.match(
			text,
			/const result = await client\.userFeedsAndQuotaWithDestinations\(\{ sCultureID: 'en-GB', sUsername: 'demo\.admin', Destinations: \['108', 'Total\\'jobs'\] \}\);/,
		);
	});
});
