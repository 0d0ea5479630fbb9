import * as assert from 'node:assert/strict';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import * as soap from 'soap';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server';
import { OPERATIONS, operationsOf, type Endpoint } from '../../src/protocol/catalogue';
import { generateWsdl, serviceNameOf } from '../../src/protocol/wsdl';
import { API_KEY, fakeHandlers } from '../emulator/server/helpers';

const NS = 'https://example.com/mp/';
const LOCATION = 'http://127.0.0.1:8080/SOAP/Posting.asmx';

type Node = Record<string, unknown>;

function list(value: unknown): Node[] {
	return value === undefined ? [] : ((Array.isArray(value) ? value : [value]) as Node[]);
}

function parse(endpoint: Endpoint, location = LOCATION): Node {
	const text = generateWsdl(endpoint, { namespace: NS, location });
	assert.equal(XMLValidator.validate(text), true);
	const parser = new XMLParser({
		ignoreAttributes: false,
		attributeNamePrefix: '@',
		isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
	});
	return list((parser.parse(text) as Node)['wsdl:definitions'])[0];
}

function first(node: Node, key: string): Node {
	return list(node[key])[0];
}

function named(nodes: unknown, name: string): Node {
	const found = list(nodes).find((n) => n['@name'] === name);
	assert.ok(found, `element named ${name}`);
	return found;
}

function sequenceOf(element: Node): Node[] {
	return list(first(first(element, 's:complexType'), 's:sequence')['s:element']);
}

describe('generateWsdl', () => {
	const defs = parse('posting');
	const schema = first(first(defs, 'wsdl:types'), 's:schema');
	const names = operationsOf('posting');

	it('is a well-formed WSDL 1.1 document with one qualified schema in the namespace', () => {
		assert.equal(defs['@targetNamespace'], NS);
		assert.equal(defs['@xmlns:tns'], NS);
		assert.equal(schema['@elementFormDefault'], 'qualified');
		assert.equal(schema['@targetNamespace'], NS);
	});

	it('declares every operation in the three port types and the four bindings', () => {
		const portTypes = list(defs['wsdl:portType']).map((p) => p['@name']);
		assert.deepEqual(portTypes, ['PostingSoap', 'PostingHttpGet', 'PostingHttpPost']);
		for (const portType of list(defs['wsdl:portType'])) {
			assert.deepEqual(
				list(portType['wsdl:operation']).map((o) => o['@name']),
				names,
			);
		}
		const bindings = list(defs['wsdl:binding']);
		assert.deepEqual(
			bindings.map((b) => [b['@name'], b['@type']]),
			[
				['PostingSoap', 'tns:PostingSoap'],
				['PostingSoap12', 'tns:PostingSoap'],
				['PostingHttpGet', 'tns:PostingHttpGet'],
				['PostingHttpPost', 'tns:PostingHttpPost'],
			],
		);
		for (const binding of bindings) {
			assert.deepEqual(
				list(binding['wsdl:operation']).map((o) => o['@name']),
				names,
			);
		}
		assert.equal(first(bindings[2], 'http:binding')['@verb'], 'GET');
		assert.equal(first(bindings[3], 'http:binding')['@verb'], 'POST');
		const postInput = first(
			first(named(bindings[3]['wsdl:operation'], 'GetCurrency'), 'wsdl:input'),
			'mime:content',
		);
		assert.equal(postInput['@type'], 'application/x-www-form-urlencoded');
		assert.ok(first(named(bindings[2]['wsdl:operation'], 'GetCurrency'), 'wsdl:input')['http:urlEncoded']);
	});

	it('uses namespace + operation name as SOAPAction in both SOAP bindings', () => {
		const [soap11, soap12] = list(defs['wsdl:binding']);
		assert.equal(first(soap11, 'soap:binding')['@transport'], 'http://schemas.xmlsoap.org/soap/http');
		for (const name of names) {
			assert.equal(first(named(soap11['wsdl:operation'], name), 'soap:operation')['@soapAction'], `${NS}${name}`);
			assert.equal(
				first(named(soap12['wsdl:operation'], name), 'soap12:operation')['@soapAction'],
				`${NS}${name}`,
			);
			assert.equal(first(named(soap11['wsdl:operation'], name), 'soap:operation')['@style'], 'document');
		}
	});

	it('writes request elements with parameters in catalogue order: strings minOccurs 0, int and boolean minOccurs 1', () => {
		for (const name of names) {
			const elements = sequenceOf(named(schema['s:element'], name));
			assert.deepEqual(
				elements.map((e) => e['@name']),
				OPERATIONS[name].params.map((p) => p.name),
				name,
			);
		}
		const score = sequenceOf(named(schema['s:element'], 'ApplicationScore'));
		assert.deepEqual(score.map((e) => [e['@name'], e['@type'], e['@minOccurs']]).slice(-2), [
			['sScore', 's:string', '0'],
			['sScoreAsJobOwner', 's:boolean', '1'],
		]);
		const paged = sequenceOf(named(schema['s:element'], 'GetApplicationsPaged'));
		assert.deepEqual(
			paged.filter((e) => e['@type'] === 's:int').map((e) => [e['@name'], e['@minOccurs'], e['@maxOccurs']]),
			[
				['CurrentPage', '1', '1'],
				['RowsPerPage', '1', '1'],
			],
		);
		const destinations = named(
			sequenceOf(named(schema['s:element'], 'UserFeedsAndQuotaWithDestinations')),
			'Destinations',
		);
		assert.equal(destinations['@type'], 'tns:ArrayOfString');
		const arrayOfString = sequenceOf({
			's:complexType': [named(schema['s:complexType'], 'ArrayOfString')],
		} as Node);
		assert.deepEqual(
			arrayOfString.map((e) => [e['@name'], e['@maxOccurs']]),
			[['string', 'unbounded']],
		);
	});

	it('writes response wrappers with the soapResult element, including the paged exceptions', () => {
		const currency = sequenceOf(named(schema['s:element'], 'GetCurrencyResponse'));
		assert.deepEqual(
			currency.map((e) => [e['@name'], e['@type']]),
			[['GetCurrencyResult', 'tns:ArrayOfGetValue']],
		);
		const paged = sequenceOf(named(schema['s:element'], 'GetApplicationsPagedResponse'));
		assert.deepEqual(
			paged.map((e) => [e['@name'], e['@type']]),
			[['ApplicationPaged', 'tns:ApplicationPaged']],
		);
	});

	it('writes record types with fields in order, nillable dates, attributes and list types', () => {
		const application = named(schema['s:complexType'], 'APIApplication');
		const fields = list(first(application, 's:sequence')['s:element']);
		assert.deepEqual(fields.map((f) => f['@name']).slice(0, 3), [
			'SchemaIdentifier',
			'AdvertCandidateID',
			'AdvertID',
		]);
		assert.deepEqual(named(fields, 'ApplicationDate'), {
			'@minOccurs': '1',
			'@maxOccurs': '1',
			'@name': 'ApplicationDate',
			'@type': 's:dateTime',
		});
		assert.deepEqual(named(fields, 'LastScoreDate'), {
			'@minOccurs': '1',
			'@maxOccurs': '1',
			'@name': 'LastScoreDate',
			'@nillable': 'true',
			'@type': 's:dateTime',
		});
		assert.deepEqual(named(fields, 'FeedName'), {
			'@minOccurs': '0',
			'@maxOccurs': '1',
			'@name': 'FeedName',
			'@type': 's:string',
		});
		assert.deepEqual(named(fields, 'EmailBody'), {
			'@minOccurs': '0',
			'@maxOccurs': '1',
			'@name': 'EmailBody',
			'@nillable': 'true',
			'@type': 'tns:APIDocument',
		});
		const document = named(schema['s:complexType'], 'APIDocument');
		assert.deepEqual(
			list(document['s:attribute']).map((a) => a['@name']),
			['FileName', 'DocumentType', 'EncodingType', 'DocumentSource', 'DocumentFormat'],
		);
		const advertPaged = list(first(named(schema['s:complexType'], 'AdvertPaged'), 's:sequence')['s:element']);
		assert.equal(named(advertPaged, 'Adverts')['@type'], 'tns:ArrayOfAPIAdvert');
		const items = list(first(named(schema['s:complexType'], 'ArrayOfAPIAdvert'), 's:sequence')['s:element']);
		assert.deepEqual(items, [
			{
				'@minOccurs': '0',
				'@maxOccurs': 'unbounded',
				'@name': 'APIAdvert',
				'@nillable': 'true',
				'@type': 'tns:Advert',
			},
		]);
	});

	it('follows the record schema facts: always-written value types, nullable ones nillable', () => {
		const element = (record: string, field: string) =>
			named(list(first(named(schema['s:complexType'], record), 's:sequence')['s:element']), field);
		const facts: [string, string, string, boolean][] = [
			// record, field, minOccurs, nillable
			['Advert', 'AdvertID', '1', false],
			['Advert', 'LastPostDate', '1', false],
			['Advert', 'SalaryHide', '1', false],
			['Advert', 'latitude', '1', true],
			['Advert', 'longitude', '1', true],
			['Advert', 'AdvertTitle', '0', false],
			['APIApplication', 'PostingID', '1', false],
			['APIApplication', 'Favourite', '1', false],
			['APIAdvertValue', 'FieldID', '1', false],
			['CPostFeed', 'FeedID', '1', false],
			['CPostFeed', 'Restricted', '1', false],
			['CPostFeed', 'EffectiveQuota', '1', true],
			['CPostFeed', 'UserID', '1', true],
			['CPostFeed', 'FeedCostTypeID', '1', true],
			['CPostFeed', 'JobDescriptionMaximumLength', '1', true],
			['CPostFeed', 'PostingsForward', '1', true],
			['GetValue', 'FieldID', '1', false],
			['GetValue', 'SortOrder', '1', true],
			['GetLoginURLResult', 'UserID', '1', false],
			['AddAdvertResult', 'OrganisationID', '1', false],
		];
		for (const [record, field, min, nillable] of facts) {
			const el = element(record, field);
			assert.equal(el['@minOccurs'], min, `${record}.${field} minOccurs`);
			assert.equal(el['@nillable'], nillable ? 'true' : undefined, `${record}.${field} nillable`);
		}
		assert.deepEqual(list(first(named(schema['s:complexType'], 'ArrayOfInt'), 's:sequence')['s:element']), [
			{ '@minOccurs': '0', '@maxOccurs': 'unbounded', '@name': 'int', '@type': 's:int' },
		]);
		assert.deepEqual(list(first(named(schema['s:complexType'], 'ArrayOfString'), 's:sequence')['s:element']), [
			{
				'@minOccurs': '0',
				'@maxOccurs': 'unbounded',
				'@name': 'string',
				'@nillable': 'true',
				'@type': 's:string',
			},
		]);
	});

	it('types GET/POST list parameters StringArray from an AbstractTypes schema, as ASMX does', () => {
		assert.equal(defs['@xmlns:s1'], `${NS}AbstractTypes`);
		const schemas = list(first(defs, 'wsdl:types')['s:schema']);
		assert.deepEqual(
			schemas.map((x) => x['@targetNamespace']),
			[NS, `${NS}AbstractTypes`],
		);
		const stringArray = named(schemas[1]['s:complexType'], 'StringArray');
		const restriction = first(first(stringArray, 's:complexContent'), 's:restriction');
		assert.equal(restriction['@base'], 'soapenc:Array');
		assert.deepEqual(list(first(restriction, 's:sequence')['s:element']), [
			{ '@minOccurs': '0', '@maxOccurs': 'unbounded', '@name': 'String', '@type': 's:string' },
		]);
		for (const verb of ['HttpGetIn', 'HttpPostIn']) {
			const parts = list(named(defs['wsdl:message'], `UserFeedsAndQuotaWithDestinations${verb}`)['wsdl:part']);
			assert.deepEqual(named(parts, 'Destinations'), { '@name': 'Destinations', '@type': 's1:StringArray' });
			assert.deepEqual(named(parts, 'sAPIKey'), { '@name': 'sAPIKey', '@type': 's:string' });
		}
		// The administration endpoint has no list parameter, so no AbstractTypes schema.
		const admin = parse('administration', 'http://h/SOAP/Administration.asmx');
		assert.equal(admin['@xmlns:s1'], undefined);
		assert.equal(list(first(admin, 'wsdl:types')['s:schema']).length, 1);
	});

	it('declares the global roots of HTTP GET and POST answers', () => {
		for (const name of names) {
			const root = named(schema['s:element'], OPERATIONS[name].httpRoot);
			assert.equal(root['@nillable'], 'true');
		}
		const admin = parse('administration', 'http://h/SOAP/Administration.asmx');
		const adminSchema = first(first(admin, 'wsdl:types'), 's:schema');
		assert.deepEqual(named(adminSchema['s:element'], 'ArrayOfCUser'), {
			'@name': 'ArrayOfCUser',
			'@nillable': 'true',
			'@type': 'tns:ArrayOfCUser',
		});
	});

	it('declares SOAP, HttpGet and HttpPost messages with string parts in parameter order', () => {
		const getIn = named(defs['wsdl:message'], 'AddAdvertHttpGetIn');
		assert.deepEqual(
			list(getIn['wsdl:part']).map((p) => p['@name']),
			OPERATIONS.AddAdvert.params.map((p) => p.name),
		);
		assert.ok(list(getIn['wsdl:part']).every((p) => p['@type'] === 's:string'));
		assert.deepEqual(list(named(defs['wsdl:message'], 'GetCurrencyHttpPostOut')['wsdl:part']), [
			{ '@name': 'Body', '@element': 'tns:ArrayOfGetValue' },
		]);
		assert.deepEqual(list(named(defs['wsdl:message'], 'GetCurrencySoapIn')['wsdl:part']), [
			{ '@name': 'parameters', '@element': 'tns:GetCurrency' },
		]);
	});

	it('has one service with four ports at the location', () => {
		const service = first(defs, 'wsdl:service');
		assert.equal(service['@name'], 'Posting');
		const ports = list(service['wsdl:port']);
		assert.deepEqual(
			ports.map((p) => p['@name']),
			['PostingSoap', 'PostingSoap12', 'PostingHttpGet', 'PostingHttpPost'],
		);
		assert.equal(first(ports[0], 'soap:address')['@location'], LOCATION);
		assert.equal(first(ports[1], 'soap12:address')['@location'], LOCATION);
		assert.equal(first(ports[2], 'http:address')['@location'], LOCATION);
	});

	it('names the service after the endpoint document, or the endpoint when the path has none', () => {
		assert.equal(serviceNameOf('posting', 'http://h/soap/JobPosting.asmx'), 'JobPosting');
		assert.equal(serviceNameOf('posting', 'http://h/api/posting'), 'Posting');
		assert.equal(serviceNameOf('administration', 'http://h/SOAP/Administration.asmx'), 'Administration');
	});

	it('escapes the namespace and location in attributes', () => {
		const text = generateWsdl('administration', { namespace: 'urn:a&b', location: 'http://h/x.asmx?a=1&b="2"' });
		assert.equal(XMLValidator.validate(text), true);
		assert.ok(text.includes('targetNamespace="urn:a&amp;b"'));
	});
});

describe('generateWsdl with node-soap against the emulator', () => {
	let emulator: RunningEmulator;
	before(async () => {
		emulator = await startEmulator({ handlers: fakeHandlers() });
	});
	after(() => emulator.stop());

	it('loads from ?WSDL and calls GetCurrency and ApplicationScore over SOAP 1.1', async () => {
		const client = await soap.createClientAsync(emulator.postingWsdl);
		const description = client.describe() as Record<string, Record<string, Record<string, unknown>>>;
		assert.deepEqual(Object.keys(description.Posting), ['PostingSoap', 'PostingSoap12']);
		assert.deepEqual(Object.keys(description.Posting.PostingSoap), operationsOf('posting'));

		const [currency] = (await client['GetCurrencyAsync']({ sCultureID: 'en', sAPIKey: API_KEY })) as [
			Record<string, Record<string, unknown[]>>,
		];
		assert.deepEqual(
			currency.GetCurrencyResult.GetValue.map((row) => (row as Record<string, unknown>)['Value']),
			['GBP', 'EUR'],
		);

		const [score] = (await client['ApplicationScoreAsync']({
			sCultureID: 'en',
			sAPIKey: API_KEY,
			sUsername: 'demo',
			sPassword: 'secret-pw',
			sAdvertID: '1',
			sAdvertCandidateID: '2',
			sScore: 'S',
			sScoreAsJobOwner: false,
		})) as [Record<string, Record<string, unknown>>];
		assert.deepEqual(score.ApplicationScoreResult, { Success: true });
	});

	it('surfaces the emulator fault to node-soap as a soap:Client fault', async () => {
		const client = await soap.createClientAsync(emulator.postingWsdl);
		await assert.rejects(
			client['GetCurrencyAsync']({ sAPIKey: 'wrong' }) as Promise<unknown>,
			(error: { root?: { Envelope?: { Body?: { Fault?: { faultcode?: string; faultstring?: string } } } } }) => {
				const fault = error.root?.Envelope?.Body?.Fault;
				assert.equal(fault?.faultcode, 'soap:Client');
				assert.equal(fault?.faultstring, 'Invalid API key.');
				return true;
			},
		);
	});
});

describe('generateWsdl with node-soap against the emulator sandbox', () => {
	let emulator: RunningEmulator;
	before(async function () {
		this.timeout(120_000); // seeding a default sandbox
		emulator = await startEmulator({ dataDir: ':memory:', seed: 5 });
	});
	after(() => emulator.stop());

	it('reads currencies, finds an application and scores it through the generated proxy', async () => {
		const { apiKey, username, password } = emulator.demo;
		const client = await soap.createClientAsync(emulator.postingWsdl);
		const [currency] = (await client['GetCurrencyAsync']({ sCultureID: 'en', sAPIKey: apiKey })) as [
			{ GetCurrencyResult: { GetValue: { Value: string }[] } },
		];
		assert.ok(currency.GetCurrencyResult.GetValue.some((row) => row.Value === 'GBP'));

		const [page] = (await client['GetApplicationsPagedAsync']({
			sCultureID: 'en',
			sAPIKey: apiKey,
			sUsername: username,
			sApplicationStartDateTime: '2000-01-01 00:00:00',
			CurrentPage: 1,
			RowsPerPage: 1,
		})) as [
			{
				ApplicationPaged: {
					Applications: { APIApplication: { AdvertID: number; AdvertCandidateID: number }[] };
				};
			},
		];
		const application = page.ApplicationPaged.Applications.APIApplication[0];
		assert.equal(typeof application.AdvertCandidateID, 'number', 'node-soap typed the int from the WSDL');

		const [score] = (await client['ApplicationScoreAsync']({
			sCultureID: 'en',
			sAPIKey: apiKey,
			sUsername: username,
			sPassword: password,
			sAdvertID: String(application.AdvertID),
			sAdvertCandidateID: String(application.AdvertCandidateID),
			sScore: 'S',
			sScoreAsJobOwner: false,
		})) as [{ ApplicationScoreResult: { Success: boolean } }];
		assert.deepEqual(score.ApplicationScoreResult, { Success: true });
	});
});
